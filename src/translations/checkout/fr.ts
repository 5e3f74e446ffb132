/** `<gw-checkout>`'s texts in French, for a page whose `lang` is French (`fr`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'fr',
  'gw-checkout': {
    loading: 'Chargement du formulaire de paiement…',
    error: 'Le formulaire de paiement n’a pas pu être chargé.',
    expired: 'Cette session de paiement a expiré.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
