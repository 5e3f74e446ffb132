/** `gw-elements/3ds-handler`: defines `<gw-3ds-handler>` on import; also the shopper result page's `postThreeDsResult`. */
import './components/gw-3ds-handler/define.js';
export { Gw3dsHandler } from './components/gw-3ds-handler/gw-3ds-handler.js';
export { postThreeDsResult, THREE_DS_RESULT_MESSAGE } from './components/gw-3ds-handler/post-result.js';
export type * from './components/gw-3ds-handler/events.js';
export { registerTranslation } from './components/shared/texts.js';
export type { Gw3dsHandlerTexts, GwLanguage, GwTranslation } from './components/shared/texts.js';
