/**
 * gw-elements/sandbox: a local emulator of the gateway for tests and demos.
 * (Foundation skeleton: answers every request with the gateway's error shape;
 * the endpoints arrive with the sandbox issue.)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The fixed test token the sandbox accepts unless told otherwise. */
export const DEFAULT_TOKEN = 'OGFjN2E0Yzc5Mzk0YmRjODAxOTM5NzM2ZjFhNzA2NDF8c2FuZGJveA==';
/** The one AN32 channel id the sandbox knows unless told otherwise. */
export const DEFAULT_ENTITY_ID = '8ac7a4c79394bdc801939736f17e063d';

export interface SandboxOptions {
  /** Interface to bind; 127.0.0.1 unless given. */
  host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Bearer tokens accepted. */
  tokens?: string[];
  /** Channel ids (entityId, AN32) known. */
  entities?: string[];
  /** No start banner on stdout. */
  quiet?: boolean;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly tokens: readonly string[];
  readonly entities: readonly string[];
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const tokens = options.tokens ?? [DEFAULT_TOKEN];
  const entities = options.entities ?? [DEFAULT_ENTITY_ID];
  const server = createServer((request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ result: { code: '200.300.404', description: `no route ${request.method} ${request.url}` } }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 8080, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    tokens,
    entities,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
