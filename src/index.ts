/** gw-elements: the browser entry point. Importing it defines the elements. */
export { classifyResult, type ResultKind } from './contract/result-codes.js';
