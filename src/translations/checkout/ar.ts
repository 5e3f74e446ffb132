/** `<gw-checkout>`'s texts in Arabic, for a page whose `lang` is Arabic (`ar`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'ar',
  'gw-checkout': {
    loading: 'جارٍ تحميل نموذج الدفع…',
    error: 'تعذّر تحميل نموذج الدفع.',
    expired: 'انتهت صلاحية جلسة الدفع هذه.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
