/**
 * What a checkout's `integrity` value must look like: Subresource Integrity
 * metadata the browser will enforce. A browser silently skips the check for
 * metadata it cannot read (`undefined`, `sha384-`, `md5-…`) and runs the script
 * unchecked, so `<gw-checkout>` refuses such a value, and the sandbox's
 * checkout answers satisfy the same rule.
 */

/**
 * One `alg-base64` hash expression whose digest has its algorithm's exact length: the standard base64 of
 * 32 bytes (sha256) is 43 digits and one `=`, of 48 bytes (sha384) 64 digits, of 64 bytes (sha512) 86 and `==`.
 * One expression rather than a table and arithmetic: the browser entries carry it.
 */
const HASH_EXPRESSION = /^(sha256-[A-Za-z0-9+/]{43}=|sha384-[A-Za-z0-9+/]{64}|sha512-[A-Za-z0-9+/]{86}==)$/;

/**
 * True when `value` is SRI metadata the browser enforces: one or more space-separated `sha256-`,
 * `sha384-` or `sha512-` hashes, each the standard base64 of a digest of the algorithm's length.
 * Every token must be well formed: the browser ignores a malformed one, which would hide a typo.
 */
export function isIntegrityMetadata(value: string): boolean {
  const tokens = value.split(/[ \t\n\f\r]+/).filter(Boolean);
  return tokens.length > 0 && tokens.every((token) => HASH_EXPRESSION.test(token));
}

/** Why `value` is not SRI metadata the browser enforces (see `isIntegrityMetadata`), or undefined when it is. */
export function integrityProblem(value: string): string | undefined {
  if (isIntegrityMetadata(value)) return undefined;
  if (!/[^ \t\n\f\r]/.test(value)) return "integrity is empty: leave it out, or set the checkout's integrity value (sha384-…).";
  return "integrity is not a Subresource Integrity hash (sha256-, sha384- or sha512- followed by the base64 of the digest): the browser would run the widget script unchecked. Set the checkout's integrity value as your server received it.";
}
