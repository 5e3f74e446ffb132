/** `<gw-3ds-handler>`'s texts in German, for a page whose `lang` is German (`de`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'de',
  'gw-3ds-handler': {
    method: 'Ihre Karte wird bei Ihrer Bank geprüft…',
    complete: 'Die Kartenprüfung ist abgeschlossen.',
    error: 'Ihre Karte konnte nicht geprüft werden.',
    timeout: 'Die Zeit für die Kartenprüfung ist abgelaufen.',
    challengeFrame: 'Kartenprüfung (3-D Secure)',
    methodFrame: 'Kartenprüfung (3-D-Secure-Methode)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
