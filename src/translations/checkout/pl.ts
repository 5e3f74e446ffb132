/** `<gw-checkout>`'s texts in Polish, for a page whose `lang` is Polish (`pl`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'pl',
  'gw-checkout': {
    loading: 'Ładowanie formularza płatności…',
    error: 'Nie udało się załadować formularza płatności.',
    expired: 'Ta sesja płatności wygasła.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
