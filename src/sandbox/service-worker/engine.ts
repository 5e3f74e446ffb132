/**
 * The parts of the sandbox the service worker runs: its request core (routes
 * and state) and the wire helpers around it. One module, so the worker names
 * the core's files in one place only.
 */
export { maskCardNumbers, redactByShape, type Redactor } from '../../contract/redaction.js';
export { RESULT_CODES } from '../../contract/result-codes.js';
export { bodyTooLarge, RequestLimitError } from '../limits.js';
export { failure } from '../results.js';
export { isCorsPath, route } from '../routes.js';
export { createSandboxState, FAULT_MODES, redactorOf, reply, type FaultMode, type Routed, type SandboxState } from '../state.js';
export { parseForm, type Reply } from '../wire.js';
export type { WidgetScript } from '../widget-script.js';
