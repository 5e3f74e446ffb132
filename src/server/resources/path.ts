/** Ids that go into a request path: checked first, so a request can never reach a path the caller did not mean. */
import { isGatewayId } from '../../contract/resource-path.js';
import { validationError, type Transport } from '../request.js';

/** The id, safe for a path, or a validation error naming the field (scrubbed of the token: a mixed-up argument may be it). */
export function pathId(transport: Transport, name: string, value: string): string {
  if (typeof value !== 'string' || !isGatewayId(value)) {
    const redact = transport.redactorFor({});
    // Scrubbed before it is cut: a cut token would no longer be recognised.
    throw validationError(
      [
        {
          name,
          value: typeof value === 'string' ? redact(value).slice(0, 64) : typeof value,
          message: 'must be a gateway id (letters, digits, . _ -)',
        },
      ],
      redact,
    );
  }
  return value;
}
