/** What only a sandbox gateway allows: moving its clock, so a page can show what time does. */
import { BadRequest } from '../input.js';
import type { MerchantContext } from '../merchant-context.js';

/** One minute past the checkout lifetime of 30 minutes: every open checkout expires. */
export function expireCheckouts(_input: unknown, { advanceGatewayClock }: MerchantContext) {
  if (!advanceGatewayClock) throw new BadRequest('only the sandbox gateway can move its clock');
  advanceGatewayClock(31 * 60);
  return { advancedSeconds: 31 * 60 };
}
