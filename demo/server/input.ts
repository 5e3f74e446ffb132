/**
 * What the demo merchant accepts from its pages, as zod schemas, and the one
 * error for input it refuses. Messages name the field and the rule, never the
 * value sent: a shopper's card number typed into the wrong field must not come
 * back in the answer.
 */
import { z } from 'zod';
import { CHALLENGE_WINDOWS, validateParameters } from 'gw-elements/server';
import { scrubberFor } from './scrub.js';

/** A mistake in what the browser sent: answered 400 with its message. */
export class BadRequest extends Error {}

/** A reference the shop never gave out (an order, a preauthorisation, a saved card): answered 404 with its message. */
export class NotFound extends BadRequest {}

/** What a schema says when it has no message of its own. */
const MALFORMED = 'is missing or malformed';

/** `input` checked against `schema`, or a {@link BadRequest} naming every field at fault. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input, { error: () => MALFORMED });
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    // The first path element is where the field came from (params, query, body); the page knows its fields by name.
    const field = issue.path.slice(1).join('.');
    if (!field) return `the ${String(issue.path[0] ?? 'request')} must be a JSON object`;
    return `${field} ${issue.message}`;
  });
  throw new BadRequest([...new Set(problems)].join('; '));
}

/**
 * Text the gateway accepts in its field `field`: the client's own check decides (the same format table it applies before
 * sending). Only this field's format counts here; what a whole request needs is the client's to say.
 */
const gatewayField = (field: string) =>
  z.string().superRefine((value, context) => {
    const problem = validateParameters('payment', { [field]: value }).find((error) => error.name === field && error.value !== null);
    if (problem) context.addIssue({ code: 'custom', message: problem.message });
  });

/** An amount as the gateway writes it (`12.50`). */
export const amount = gatewayField('amount');

/** A test card's number and the name on it (empty for the demo's own); the demo picks expiry and security code itself. */
export const cardInput = z.object({
  cardNumber: gatewayField('card.number'),
  holder: z.literal('').or(gatewayField('card.holder')).optional(),
});

/** What the page measured of the shopper's browser for 3-D Secure (numbers or their text). */
const browserField = z
  .union([z.string().max(64), z.number()])
  .transform(String)
  .optional();

export const browserInput = z
  .object({
    language: browserField,
    screenWidth: browserField,
    screenHeight: browserField,
    screenColorDepth: browserField,
    timezone: browserField,
  })
  .optional();

export const challengeWindow = z.enum(CHALLENGE_WINDOWS).optional();

/** Masks only what looks like a secret (no value is known here). */
const bySecretShape = scrubberFor([]);

/**
 * Text that must not hold a secret (a card number, a token, a security code): ids and references are shown,
 * logged and sent to the gateway as they are (nothing masks an id), so one that holds a secret is refused at the door.
 */
const noSecret = <Schema extends z.ZodType<string>>(schema: Schema) =>
  schema.refine((value) => bySecretShape(value) === value, { error: 'must not hold a card number, token or security code' });

/** A shopper's return from the widget or 3-D Secure: the query the gateway added to the result URL. */
export const shopperReturnQuery = z.object({
  id: noSecret(z.string().max(256)).optional(),
  resourcePath: noSecret(z.string().max(1024)).optional(),
});

/** An id the shop gave out (an order, a gateway payment, a registration, a merchantTransactionId) as a page sends it back. */
export const reference = noSecret(z.string().min(1).max(256));

/** A merchantTransactionId to look up: the gateway's format, and no secret in it. */
export const merchantTransactionId = noSecret(gatewayField('merchantTransactionId'));
