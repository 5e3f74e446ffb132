/// <reference types="vite/client" />
/**
 * Controls and docs come from custom-elements.json (the components' JSDoc);
 * every event the manifest declares is shown in the actions panel. A static
 * build first puts the sandbox's service worker in front of the page: no dev
 * server answers the merchant proxy's and the gateway's routes there.
 */
import { setCustomElementsManifest, type Preview } from '@storybook/web-components';
import { withActions } from 'storybook/actions/decorator';
import manifest from '../custom-elements.json' with { type: 'json' };
import { registerSandboxWorker } from './sandbox-worker.js';

setCustomElementsManifest(manifest);

interface ManifestModule {
  declarations?: { events?: { name?: string }[] }[];
}

/** Every `gw-*` event any element declares, once. */
const EVENTS = [
  ...new Set(
    ((manifest as { modules?: ManifestModule[] }).modules ?? [])
      .flatMap((module) => module.declarations ?? [])
      .flatMap((declaration) => declaration.events ?? [])
      .map((event) => event.name)
      .filter((name): name is string => Boolean(name?.startsWith('gw-'))),
  ),
];

const preview: Preview = {
  // Built next to iframe.html by main.ts; relative, so the build works under any path of a host.
  beforeAll: async () => {
    if (import.meta.env.PROD) await registerSandboxWorker(new URL('gw-sandbox-sw.js', document.baseURI));
  },
  decorators: [withActions],
  parameters: {
    actions: { handles: EVENTS },
    controls: { expanded: true },
    layout: 'padded',
  },
  tags: ['autodocs'],
};

export default preview;
