/** `gw-elements/3ds-handler`: defines `<gw-3ds-handler>` on import; also the shopper result page's `postThreeDsResult`. */
import './components/three-ds/define.js';
export { Gw3dsHandler } from './components/three-ds/gw-3ds-handler.js';
export { postThreeDsResult, THREE_DS_RESULT_MESSAGE } from './components/three-ds/post-result.js';
export type * from './components/three-ds/events.js';
