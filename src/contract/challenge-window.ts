/**
 * EMVCo challenge window sizes (`customer.browser.challengeWindow`), in a module
 * of their own so the browser bundle of `<gw-3ds-handler>` does not carry the
 * whole field-format table. `formats.ts` re-exports them.
 */

/** `01` 250x400, `02` 390x400, `03` 500x600, `04` 600x400, `05` full screen. */
export const CHALLENGE_WINDOWS = ['01', '02', '03', '04', '05'] as const;
export type ChallengeWindow = (typeof CHALLENGE_WINDOWS)[number];
