/** `<gw-checkout>`'s texts in Turkish, for a page whose `lang` is Turkish (`tr`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'tr',
  'gw-checkout': {
    loading: 'Ödeme formu yükleniyor…',
    error: 'Ödeme formu yüklenemedi.',
    expired: 'Bu ödeme oturumunun süresi doldu.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
