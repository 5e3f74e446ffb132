/** `<gw-3ds-handler>`'s texts in Spanish, for a page whose `lang` is Spanish (`es`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'es',
  'gw-3ds-handler': {
    method: 'Verificando su tarjeta con su banco…',
    complete: 'Verificación de la tarjeta finalizada.',
    error: 'No se ha podido verificar su tarjeta.',
    timeout: 'Se ha agotado el tiempo de verificación de la tarjeta.',
    challengeFrame: 'Verificación de la tarjeta (3-D Secure)',
    methodFrame: 'Verificación de la tarjeta (método 3-D Secure)',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
