/** `<gw-3ds-handler>`'s texts in Italian, for a page whose `lang` is Italian (`it`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'it',
  'gw-3ds-handler': {
    method: 'Verifica della carta con la tua banca in corso…',
    complete: 'Verifica della carta completata.',
    error: 'Non è stato possibile verificare la tua carta.',
    timeout: 'Il tempo per la verifica della carta è scaduto.',
    challengeFrame: 'Verifica della carta (3-D Secure)',
    methodFrame: 'Verifica della carta (metodo 3-D Secure)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
