/** `<gw-checkout>`'s texts in Spanish, for a page whose `lang` is Spanish (`es`, with any region): registered on import. */
import { registerTranslation, type GwTranslation } from '../../components/shared/texts.js';

const translation = {
  $code: 'es',
  'gw-checkout': {
    loading: 'Cargando el formulario de pago…',
    error: 'No se ha podido cargar el formulario de pago.',
    expired: 'Esta sesión de pago ha caducado.',
  },
} satisfies GwTranslation;

registerTranslation(translation);
export default translation;
