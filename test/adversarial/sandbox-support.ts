/**
 * Raw HTTP against a running sandbox, for its adversarial tests: bytes go out
 * exactly as generated (no client library tidies them), every answer that
 * comes back is parsed by hand and checked for being well-formed.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface RawExchange {
  /** Final answers in order (1xx interim answers left out). */
  readonly responses: RawResponse[];
  /** Bytes after the last complete answer. */
  readonly rest: Buffer;
  /** Why the connection ended early: a socket error or the timeout. */
  readonly failure?: string;
}

/** Parses every complete HTTP/1.1 answer in `data` (the sandbox always sends content-length; an answer to HEAD has no body). */
export function parseResponses(data: Buffer, head = false): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', offset);
    if (end < 0) break;
    const [statusLine = '', ...lines] = data.subarray(offset, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(match[1]);
    const length = head ? 0 : Number(headers['content-length'] ?? 0);
    if (data.length < end + 4 + length) break;
    offset = end + 4 + length;
    if (status >= 100 && status < 200) continue;
    responses.push({ status, headers, body: data.subarray(end + 4, end + 4 + length) });
  }
  return { responses, rest: data.subarray(offset) };
}

/**
 * Writes `request` on a fresh connection, half-closes it and collects what
 * comes back until the sandbox closes the connection, `expected` answers are
 * complete, or `timeoutMs` passes.
 */
export function rawExchange(
  port: number,
  request: Buffer | string,
  { timeoutMs = 5000, expected = 1, halfClose = true, head = false } = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let failure: string | undefined;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponses(Buffer.concat(chunks), head), ...(failure ? { failure } : {}) });
    };
    const timer = setTimeout(() => {
      failure = `no complete answer within ${timeoutMs} ms`;
      finish();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponses(Buffer.concat(chunks), head).responses.length >= expected) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failure ??= error.code ?? error.message;
      finish();
    });
    socket.on('close', finish);
    socket.write(request, () => {
      if (halfClose) socket.end();
    });
  });
}

const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

/**
 * What a well-formed sandbox answer is: JSON in the gateway's envelope with a
 * `result.code`, or one of the documented non-JSON answers (the widget script,
 * a 3DS HTML page, a 303 to the shopper's result URL, a CORS preflight).
 * Returns the result code, if any.
 */
export function assertWellFormed(response: RawResponse, method: string, context: string): string | undefined {
  const type = response.headers['content-type'] ?? '';
  assert.ok(response.status >= 200 && response.status < 600, `${context}: status ${response.status}`);
  if (response.status === 204 || response.status === 303) {
    assert.equal(response.body.length, 0, `${context}: ${response.status} with a body`);
    if (response.status === 303) assert.ok(response.headers.location, `${context}: 303 without location`);
    return undefined;
  }
  if (type.startsWith('application/javascript')) {
    assert.equal(response.status, 200, context);
    return undefined;
  }
  if (type.startsWith('text/html')) {
    assert.ok(
      method === 'HEAD' || /^<!doctype html>/i.test(response.body.toString('utf8')),
      `${context}: an HTML answer that is not a page`,
    );
    return undefined;
  }
  assert.ok(type.startsWith('application/json'), `${context}: content-type ${JSON.stringify(type)} for status ${response.status}`);
  if (method === 'HEAD') return undefined;
  let body: { result?: { code?: unknown } };
  try {
    body = JSON.parse(response.body.toString('utf8')) as typeof body;
  } catch {
    assert.fail(`${context}: a JSON answer that does not parse: ${response.body.subarray(0, 200).toString('utf8')}`);
  }
  const code = body.result?.code;
  assert.ok(
    typeof code === 'string' && RESULT_CODE.test(code),
    `${context}: no result.code in ${response.body.subarray(0, 200).toString('utf8')}`,
  );
  return code;
}

/** A readable one-line label for a generated request, for assertion messages. */
export const label = (request: Buffer | string) => JSON.stringify(request.toString('latin1').slice(0, 160));

/** The heap after a full collection; exposes `gc` to this process if it was started without it. */
export function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
