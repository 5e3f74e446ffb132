/** Ids that go into a request path: checked first, so a request can never reach a path the caller did not mean. */
import { isGatewayId } from '../../contract/resource-path.js';
import { validationError } from '../request.js';

/** The id, safe for a path, or a validation error naming the field. */
export function pathId(name: string, value: string): string {
  if (typeof value !== 'string' || !isGatewayId(value)) throw validationError([{ name, value: String(value).slice(0, 64), message: 'must be a gateway id (letters, digits, . _ -)' }]);
  return value;
}
