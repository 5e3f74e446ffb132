/**
 * The parts of the sandbox the service worker runs: its request core (routes
 * and state) and the wire helpers around it. One module, so the worker names
 * the core's files in one place only.
 */
export { maskCardNumbers, type Redactor } from '../../contract/redaction.js';
export { RESULT_CODES } from '../../contract/result-codes.js';
export { bodyTooLarge, RequestLimitError } from '../limits.js';
export { failure } from '../protocol/envelope.js';
export { isCorsPath, route } from '../protocol/routes.js';
export { redactorOf } from '../protocol/auth.js';
export { checkFault, FAULT_MODES, isFaultRefusal, type FaultMode } from '../controls/faults.js';
export { reply, type Routed } from '../protocol/context.js';
export { createSandboxState, type SandboxState } from '../core/state.js';
export { parseForm, type Reply } from '../protocol/wire.js';
export type { WidgetScript } from '../node/widget-bundle.js';
export { DEFAULT_ENTITIES, DEFAULT_ENTITY_ID } from '../defaults.js';
