/** `<gw-3ds-handler>`'s texts in French, for a page whose `lang` is French (`fr`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'fr',
  'gw-3ds-handler': {
    method: 'Vérification de votre carte auprès de votre banque…',
    complete: 'Vérification de la carte terminée.',
    error: 'Votre carte n’a pas pu être vérifiée.',
    timeout: 'Le délai de vérification de la carte a expiré.',
    challengeFrame: 'Vérification de la carte (3-D Secure)',
    methodFrame: 'Vérification de la carte (méthode 3-D Secure)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
