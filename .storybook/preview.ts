/**
 * Controls and docs come from custom-elements.json (the components' JSDoc);
 * every event the manifest declares is shown in the actions panel.
 */
import { setCustomElementsManifest, type Preview } from '@storybook/web-components';
import { withActions } from 'storybook/actions/decorator';
import manifest from '../custom-elements.json' with { type: 'json' };

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
  decorators: [withActions],
  parameters: {
    actions: { handles: EVENTS },
    controls: { expanded: true },
    layout: 'padded',
  },
  tags: ['autodocs'],
};

export default preview;
