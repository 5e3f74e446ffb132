/**
 * Serves a static Storybook build the way the dev server does: the built
 * files plus the sandbox's merchant proxy over a real sandbox (a static build
 * has no Vite dev server, so nothing else would answer /__gw/*).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { createMerchantProxy, startSandbox } from '../../src/sandbox/index.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface ServedStorybook {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveStorybook(directory: string): Promise<ServedStorybook> {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  const gateway = createMerchantProxy(sandbox).middleware;
  const root = normalize(directory);
  const server = createServer((request, response) => {
    gateway(request, response, () => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://storybook.invalid').pathname);
      // Chromium asks every host for one; the build has an SVG icon only.
      if (path === '/favicon.ico') return void response.writeHead(204).end();
      const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
      const inside = file.startsWith(root + sep);
      const stat = inside ? statSync(file, { throwIfNoEntry: false }) : undefined;
      if (!stat?.isFile()) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': stat.size });
      createReadStream(file).pipe(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}
