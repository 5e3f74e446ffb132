/**
 * EMVCo challenge window sizes (`customer.browser.challengeWindow`), in a module
 * of their own so the browser bundle of `<gw-3ds-handler>` does not carry the
 * whole field-format table. `formats.ts` re-exports them.
 */

/** `01` 250x400, `02` 390x400, `03` 500x600, `04` 600x400, `05` full screen: the EMV two-digit spelling. */
export const CHALLENGE_WINDOWS = ['01', '02', '03', '04', '05'] as const;
export type ChallengeWindow = (typeof CHALLENGE_WINDOWS)[number];

/**
 * What the gateway accepts: the platform's own samples and integrators send one
 * digit (`4`) and the platform echoes it; EMV writes two (`04`). Both name the same size.
 */
export const CHALLENGE_WINDOW_VALUES = ['1', '2', '3', '4', '5', ...CHALLENGE_WINDOWS] as const;
export type ChallengeWindowValue = (typeof CHALLENGE_WINDOW_VALUES)[number];

/** The EMV two-digit size a value names (`4` and `04` → `04`), or undefined when it names none. */
export function challengeWindowOf(value: string): ChallengeWindow | undefined {
  const twoDigits = value.length === 1 ? `0${value}` : value;
  return (CHALLENGE_WINDOWS as readonly string[]).includes(twoDigits) ? (twoDigits as ChallengeWindow) : undefined;
}
