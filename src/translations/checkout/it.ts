/** `<gw-checkout>`'s texts in Italian, for a page whose `lang` is Italian (`it`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'it',
  'gw-checkout': {
    loading: 'Caricamento del modulo di pagamento…',
    error: 'Impossibile caricare il modulo di pagamento.',
    expired: 'Questa sessione di pagamento è scaduta.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
