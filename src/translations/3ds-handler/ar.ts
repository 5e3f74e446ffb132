/** `<gw-3ds-handler>`'s texts in Arabic, for a page whose `lang` is Arabic (`ar`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'ar',
  'gw-3ds-handler': {
    method: 'جارٍ التحقق من بطاقتك مع البنك…',
    complete: 'اكتمل التحقق من البطاقة.',
    error: 'تعذّر التحقق من بطاقتك.',
    timeout: 'انتهت مهلة التحقق من البطاقة.',
    challengeFrame: 'التحقق من البطاقة (3-D Secure)',
    methodFrame: 'التحقق من البطاقة (طريقة 3-D Secure)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
