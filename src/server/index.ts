/** gw-elements/server: the typed, money-safe client for the gateway (server side only). */
export { classifyResult, isApproved, resultGroup, RESULT_CODES, type ResultKind } from '../contract/result-codes.js';
export { validateParameters, maskParameter, type ParameterError, type Operation } from '../contract/rules.js';
