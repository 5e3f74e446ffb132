/**
 * Who may call, and what of a request the sandbox may keep: the bearer token
 * check, the per-request scrubber, and the request's fields scrubbed for
 * storing and answering.
 */
import { createRedactor, otherSecretValues, REQUEST_IDENTIFIER_NAMES, type Redactor } from '../../contract/redaction.js';
import type { SandboxState } from '../core/state.js';
import type { FlatParams } from '../gateway/store.js';
import type { Request } from './dispatch.js';

const bearerToken = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];

export function bearerAccepted(state: SandboxState, authorization: string | undefined): boolean {
  const token = bearerToken(authorization);
  return token !== undefined && state.tokens.has(token);
}

/**
 * The request with its entity in `entityId`: integrators' clients still send it
 * as `authentication.entityId` (the credential style before Bearer tokens), and
 * the platform takes it with a token (contract's table, formats.ts). The other
 * `authentication.*` fields (an old user id and password) are dropped unread, so
 * nothing keeps or echoes them. `entityId` wins when both come.
 */
export function withEntityOf(request: Request): Request {
  const { params } = request;
  if (!Object.keys(params).some((name) => name.startsWith('authentication.'))) return request;
  const kept = Object.fromEntries(Object.entries(params).filter(([name]) => !name.startsWith('authentication.'))) as FlatParams;
  const entityId = params.entityId ?? params['authentication.entityId'];
  return { ...request, params: entityId === undefined ? kept : { ...kept, entityId } };
}

/** How many token-only scrubbers the state keeps (any text a request sends as a token, so bounded). */
const TOKEN_REDACTORS = 16;

/**
 * The scrubber for everything built around one request: its token, card
 * number, security code and other declared secrets, and every token the sandbox accepts, wherever they appear, and any card number or
 * labelled secret by shape; its merchantTransactionId (the key a merchant
 * looks the payment up by) only of the known secrets.
 */
export function redactorOf(state: SandboxState, params: Readonly<FlatParams>, authorization: string | undefined): Redactor {
  const accessToken = bearerToken(authorization);
  const { 'card.number': cardNumber, 'card.cvv': cvv, merchantTransactionId } = params;
  // A wallet token or one-time password (secrets.ts) is replaced wherever the request repeats it, like the card's.
  const others = otherSecretValues(params);
  if (cardNumber !== undefined || cvv !== undefined || merchantTransactionId !== undefined || others.length)
    return createRedactor({ accessToken, accessTokens: state.tokens, cardNumber, cvv, others, keep: [merchantTransactionId] });
  // Most calls (reads, captures) know no secret but their token: one scrubber per token serves them all.
  const redactors = state.caches.tokenRedactors;
  let redactor = redactors.get(accessToken);
  if (!redactor) {
    redactor = createRedactor({ accessToken, accessTokens: state.tokens });
    if (redactors.size >= TOKEN_REDACTORS) redactors.delete(redactors.keys().next().value);
    redactors.set(accessToken, redactor);
  }
  return redactor;
}

/** Fields only the gateway reads (to a card's bin, last four digits and behaviour), never kept nor answered as sent. */
const CARD_SECRETS: ReadonlySet<string> = new Set(['card.number', 'card.cvv']);

/**
 * The request's fields as the sandbox may keep and answer them, after they
 * were validated as sent: every value scrubbed of secrets, so no record, echo,
 * report or redirect can hold a card number, security code or token (a card
 * number typed into `card.holder` or a custom parameter included).
 */
export function storable(request: Request, redact: Redactor): FlatParams {
  const kept: FlatParams = Object.create(null) as FlatParams;
  for (const name in request.params) {
    const value = request.params[name]!;
    // By name first (`customParameters[CVV]` is a security code however it is spelled), then by value.
    kept[CARD_SECRETS.has(name) ? name : redact(name)] = CARD_SECRETS.has(name)
      ? value
      : redact.deep(value, name, false, REQUEST_IDENTIFIER_NAMES);
  }
  return kept;
}
