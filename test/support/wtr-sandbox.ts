/**
 * A @web/test-runner plugin that starts a real sandbox gateway for the browser
 * tests and plays the merchant's back end for them:
 *   /__gw/sandbox.js   exports the sandbox URL and entity id (no token)
 *   /__gw/api/...      forwards to the sandbox with the Bearer token added, so the
 *                      token stays on the server side as it would in production
 *   /__gw/clock-api/... the same for a second sandbox kept for tests that move the
 *                      clock (POST /__sandbox/clock): test files run concurrently, and
 *                      moving the shared sandbox's clock would expire their checkouts
 *   /__gw/result       a same-origin shopper result page
 *   /__gw/page         a blank page sent with the Content-Security-Policy header given as
 *                      ?csp=, loading the module ?module= with the script nonce ?nonce=
 *                      (a header policy behaves unlike a <meta> one, e.g. it hides nonces)
 */
import type { TestRunnerPlugin } from '@web/test-runner';
import type { Middleware } from '@web/dev-server-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

async function readBody(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * The plugin starts and stops the sandbox; the middleware serves the routes above.
 * (Plugin `serverStart` middleware would run after the file server's 404.)
 */
export function sandboxFixture(): { plugin: TestRunnerPlugin; middleware: Middleware; current: () => Sandbox | undefined } {
  let sandbox: Sandbox | undefined;
  let clockSandbox: Sandbox | undefined;
  const plugin: TestRunnerPlugin = {
    name: 'gw-sandbox',
    async serverStart() {
      [sandbox, clockSandbox] = await Promise.all([startSandbox({ port: 0, quiet: true }), startSandbox({ port: 0, quiet: true })]);
    },
    async serverStop() {
      await Promise.all([sandbox?.close(), clockSandbox?.close()]);
    },
  };
  const middleware: Middleware = async (ctx, next) => {
    if (!sandbox || !clockSandbox || !ctx.path.startsWith('/__gw/')) return next();
    if (ctx.path === '/__gw/sandbox.js') {
      ctx.type = 'application/javascript';
      ctx.body = `export const sandboxUrl = ${JSON.stringify(sandbox.url)};\nexport const entityId = ${JSON.stringify(sandbox.entities[0])};\nexport const clockSandboxUrl = ${JSON.stringify(clockSandbox.url)};\n`;
      return;
    }
    if (ctx.path === '/__gw/page') {
      const attribute = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
      const module = ctx.query.module;
      const nonce = ctx.query.nonce;
      if (typeof ctx.query.csp === 'string') ctx.set('content-security-policy', ctx.query.csp);
      ctx.type = 'text/html';
      ctx.body = `<!doctype html><html lang="en"><head><title>Test page</title>${
        typeof module === 'string' ? `<script type="module" nonce="${attribute(String(nonce ?? ''))}" src="${attribute(module)}"></script>` : ''
      }</head><body><main></main></body></html>`;
      return;
    }
    if (ctx.path === '/__gw/result') {
      ctx.type = 'text/html';
      ctx.body = '<!doctype html><html lang="en"><title>Shopper result</title><p>Back at the shop.</p></html>';
      return;
    }
    const prefix = ['/__gw/api/', '/__gw/clock-api/'].find((candidate) => ctx.path.startsWith(candidate));
    if (prefix) {
      const gateway = prefix === '/__gw/api/' ? sandbox : clockSandbox;
      const target = `${gateway.url}${ctx.url.slice(prefix.length - 1)}`;
      const body = ctx.method === 'GET' ? undefined : new Uint8Array(await readBody(ctx.req));
      const response = await fetch(target, {
        method: ctx.method,
        headers: {
          authorization: `Bearer ${gateway.tokens[0]}`,
          ...(body ? { 'content-type': ctx.get('content-type') || 'application/x-www-form-urlencoded; charset=UTF-8' } : {}),
        },
        body,
      });
      ctx.status = response.status;
      ctx.type = response.headers.get('content-type') ?? 'application/json';
      ctx.body = Buffer.from(await response.arrayBuffer());
      return;
    }
    return next();
  };
  return { plugin, middleware, current: () => sandbox };
}
