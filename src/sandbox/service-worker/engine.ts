/**
 * The parts of the sandbox the service worker runs: its request core (routes
 * and state) and the wire helpers around it. One module, so the worker names
 * the core's files in one place only.
 */
export { maskCardNumbers, type Redactor } from '../../contract/redaction.js';
export { RESULT_CODES } from '../../contract/result-codes.js';
export { bodyTooLarge, RequestLimitError } from '../limits.js';
export { failure } from '../engine/results.js';
export { isCorsPath, route } from '../http/routes.js';
export { redactorOf } from '../http/auth.js';
export { checkFault, FAULT_MODES, isFaultRefusal, TOO_MANY_FAULTS, type FaultMode } from '../http/faults.js';
export { reply, type Routed } from '../http/route.js';
export { createSandboxState, type SandboxState } from '../state.js';
export { parseForm, type Reply } from '../wire.js';
export type { WidgetScript } from '../widget-script.js';
export { DEFAULT_ENTITIES, DEFAULT_ENTITY_ID } from '../defaults.js';
