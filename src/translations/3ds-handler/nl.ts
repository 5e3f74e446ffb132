/** `<gw-3ds-handler>`'s texts in Dutch, for a page whose `lang` is Dutch (`nl`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'nl',
  'gw-3ds-handler': {
    method: 'Uw kaart wordt gecontroleerd bij uw bank…',
    complete: 'Kaartverificatie voltooid.',
    error: 'Uw kaart kon niet worden geverifieerd.',
    timeout: 'De tijd voor de kaartverificatie is verstreken.',
    challengeFrame: 'Kaartverificatie (3-D Secure)',
    methodFrame: 'Kaartverificatie (3-D Secure-methode)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
