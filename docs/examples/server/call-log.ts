/**
 * A call log and latency metrics from the client's hooks: one line per attempt
 * of every gateway call, safe to ship to any log store (no token, card number
 * or security code is ever part of an event).
 */
import { createGatewayClient, type GatewayClientOptions, type GatewayResponseEvent } from 'gw-elements/server';

export function loggedClient(options: GatewayClientOptions, log: (line: string) => void, observe: (event: GatewayResponseEvent) => void) {
  return createGatewayClient({
    ...options,
    onResponse(event) {
      const answer = event.resultCode ?? event.failure;
      log(`${event.method} ${event.path} #${event.attempt} → ${event.httpStatus ?? '-'} ${answer} in ${Math.round(event.durationMs)} ms ${JSON.stringify(event.params)}`);
      observe(event); // e.g. a histogram of durationMs by path and resultCode
    },
  });
}
