/** Ids that go into a request path: checked first, so a request can never reach a path the caller did not mean. */
import { validationError } from '../request.js';

/** Gateway ids are letters and digits with `.`, `_` or `-` inside (`8ac7…ce.uat01-vm-tx03`); never `..` or `/`. */
export const GATEWAY_ID = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}';
const ID = new RegExp(`^${GATEWAY_ID}$`);

/** The id, safe for a path, or a validation error naming the field. */
export function pathId(name: string, value: string): string {
  if (!ID.test(value) || value.includes('..')) {
    throw validationError([{ name, value: value.slice(0, 64), message: 'must be a gateway id (letters, digits, . _ -)' }]);
  }
  return value;
}
