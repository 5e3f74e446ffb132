/**
 * A @web/test-runner plugin that starts a real sandbox gateway for the browser
 * tests and plays the merchant's back end for them with the sandbox's merchant
 * proxy (`createMerchantProxy`: /__gw/api/…, /__gw/result, /__gw/fault), which
 * adds the token on the server side as a merchant's server would. Besides:
 *   /__gw/sandbox.js   exports the sandbox URL and entity id (no token)
 *   /__gw/clock/…      the same proxy for a second sandbox kept for tests that move the
 *                      clock (POST /__sandbox/clock): test files run concurrently, and
 *                      moving the shared sandbox's clock would expire their checkouts
 *   /__gw/late/MS/…    the sandbox itself, its widget script answered MS milliseconds late (a slow
 *                      network, with the same bytes, so its integrity holds): a base URL for an element
 *   /__gw/page         a blank page sent with the Content-Security-Policy header given as
 *                      ?csp=, loading the module ?module= with the script nonce ?nonce=
 *                      (a header policy behaves unlike a <meta> one, e.g. it hides nonces)
 */
import type { TestRunnerPlugin } from '@web/test-runner';
import type { Middleware } from '@web/dev-server-core';
import { createMerchantProxy, startSandbox, type MerchantProxy, type Sandbox } from '../../src/sandbox/index.js';

/**
 * The plugin starts and stops the sandbox; the middleware serves the routes above.
 * (Plugin `serverStart` middleware would run after the file server's 404.)
 */
export function sandboxFixture(): { plugin: TestRunnerPlugin; middleware: Middleware; current: () => Sandbox | undefined } {
  let sandbox: Sandbox | undefined;
  let clockSandbox: Sandbox | undefined;
  let proxies: MerchantProxy[] = [];
  const plugin: TestRunnerPlugin = {
    name: 'gw-sandbox',
    async serverStart() {
      [sandbox, clockSandbox] = await Promise.all([startSandbox({ port: 0, quiet: true }), startSandbox({ port: 0, quiet: true })]);
      proxies = [createMerchantProxy(sandbox), createMerchantProxy(clockSandbox, { prefix: '/__gw/clock' })];
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
        typeof module === 'string'
          ? `<script type="module" nonce="${attribute(String(nonce ?? ''))}" src="${attribute(module)}"></script>`
          : ''
      }</head><body><main></main></body></html>`;
      return;
    }
    const late = /^\/__gw\/late\/(\d{1,5})(\/.*)$/.exec(ctx.path);
    if (late) {
      if (late[2]!.endsWith('/paymentWidgets.js')) await new Promise((resolve) => setTimeout(resolve, Number(late[1])));
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${sandbox.url.replace(/\/$/, '')}${late[2]}${ctx.search}`, {
        method: ctx.method,
        headers: { 'content-type': ctx.get('content-type') },
        ...(body ? { body } : {}),
      });
      ctx.status = answer.status;
      ctx.type = answer.headers.get('content-type') ?? 'application/octet-stream';
      ctx.body = Buffer.from(await answer.arrayBuffer());
      return;
    }
    for (const proxy of proxies) {
      // The proxy writes the answer itself; Koa must not write another.
      if (await proxy.handle(ctx.req, ctx.res)) return void (ctx.respond = false);
    }
    return next();
  };
  return { plugin, middleware, current: () => sandbox };
}
