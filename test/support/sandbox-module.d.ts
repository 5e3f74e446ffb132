// Types of the module the test runner's sandbox fixture serves at /__gw/sandbox.js (test/support/wtr-sandbox.ts).
export declare const sandboxUrl: string;
export declare const entityId: string;
/** A second sandbox for tests that move its clock; reach it through merchantCall's `sandbox: 'clock'`. Same entity id and token. */
export declare const clockSandboxUrl: string;
