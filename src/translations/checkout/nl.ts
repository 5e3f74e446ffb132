/** `<gw-checkout>`'s texts in Dutch, for a page whose `lang` is Dutch (`nl`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'nl',
  'gw-checkout': {
    loading: 'Het betaalformulier wordt geladen…',
    error: 'Het betaalformulier kon niet worden geladen.',
    expired: 'Deze betaalsessie is verlopen.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
