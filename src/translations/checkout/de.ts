/** `<gw-checkout>`'s texts in German, for a page whose `lang` is German (`de`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'de',
  'gw-checkout': {
    loading: 'Das Zahlungsformular wird geladen…',
    error: 'Das Zahlungsformular konnte nicht geladen werden.',
    expired: 'Diese Zahlungssitzung ist abgelaufen.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
