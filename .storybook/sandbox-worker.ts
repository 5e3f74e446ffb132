/**
 * Puts the sandbox's service worker (src/sandbox/service-worker/worker.ts,
 * built next to iframe.html by main.ts) in front of the static build's
 * preview: resolves once the page's requests to `<scope>__gw/…` are answered
 * by the worker.
 */

/** How often the page pings the worker: a browser stops an idle worker after about 30 s, and its sandbox's state with it. */
const KEEP_ALIVE_MS = 20_000;

export async function registerSandboxWorker(scriptUrl: string | URL, scope: string | URL = new URL('./', scriptUrl)): Promise<void> {
  const { serviceWorker } = navigator;
  if (!serviceWorker) throw new Error('the sandbox needs service workers: serve the page over https or from localhost');
  const controlled = new Promise<void>((resolve) => {
    if (serviceWorker.controller) resolve();
    else serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true });
  });
  await serviceWorker.register(scriptUrl, { scope: String(scope) });
  const { active } = await serviceWorker.ready;
  // A page loaded past its worker (a hard reload) is claimed on request.
  if (!serviceWorker.controller) active?.postMessage('claim');
  await controlled;
  setInterval(() => serviceWorker.controller?.postMessage('keep-alive'), KEEP_ALIVE_MS);
}
