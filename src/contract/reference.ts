/**
 * The request reference: a custom parameter holding a random id that the
 * server helper adds to every request that moves money. The platform returns
 * custom parameters in the payment's answer and in every report entry, so a
 * payment whose answer was lost is recognised in a report by this id alone,
 * without reading the report before sending.
 */

/** The custom parameter's name (`customParameters[GW_REFERENCE]` on the wire); reserved: a caller's own value is replaced. */
export const REQUEST_REFERENCE = 'GW_REFERENCE';

/** The reference a report entry or answer carries back, if any. */
export function referenceOf(payment: { readonly customParameters?: unknown }): string | undefined {
  const parameters = payment.customParameters;
  if (typeof parameters !== 'object' || parameters === null) return undefined;
  const value = (parameters as Record<string, unknown>)[REQUEST_REFERENCE];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
