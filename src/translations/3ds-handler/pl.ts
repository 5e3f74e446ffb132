/** `<gw-3ds-handler>`'s texts in Polish, for a page whose `lang` is Polish (`pl`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'pl',
  'gw-3ds-handler': {
    method: 'Weryfikujemy Twoją kartę w banku…',
    complete: 'Weryfikacja karty zakończona.',
    error: 'Nie udało się zweryfikować Twojej karty.',
    timeout: 'Upłynął czas na weryfikację karty.',
    challengeFrame: 'Weryfikacja karty (3-D Secure)',
    methodFrame: 'Weryfikacja karty (metoda 3-D Secure)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
