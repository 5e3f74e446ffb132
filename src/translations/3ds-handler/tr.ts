/** `<gw-3ds-handler>`'s texts in Turkish, for a page whose `lang` is Turkish (`tr`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'tr',
  'gw-3ds-handler': {
    method: 'Kartınız bankanızla doğrulanıyor…',
    complete: 'Kart doğrulaması tamamlandı.',
    error: 'Kartınız doğrulanamadı.',
    timeout: 'Kart doğrulamasının süresi doldu.',
    challengeFrame: 'Kart doğrulama (3-D Secure)',
    methodFrame: 'Kart doğrulama (3-D Secure yöntemi)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
