/**
 * What a checkout's `integrity` value must look like: Subresource Integrity
 * metadata the browser will enforce. A browser silently skips the check for
 * metadata it cannot read (`undefined`, `sha384-`, `md5-…`) and runs the script
 * unchecked, so `<gw-checkout>` refuses such a value, and the sandbox's
 * checkout answers satisfy the same rule.
 */

/** The digests SRI knows, by the size of their output in bytes. */
const DIGEST_BYTES = { sha256: 32, sha384: 48, sha512: 64 } as const;

type IntegrityAlgorithm = keyof typeof DIGEST_BYTES;

const HASH_EXPRESSION = /^(sha256|sha384|sha512)-([A-Za-z0-9+/]+)(={0,2})$/;

/** Standard base64 of `bytes` bytes: its length without padding, and its padding. */
function base64Shape(bytes: number): { readonly digits: number; readonly padding: number } {
  return { digits: Math.ceil((bytes * 4) / 3), padding: (3 - (bytes % 3)) % 3 };
}

/** True for one `alg-base64` hash expression whose digest has its algorithm's exact length. */
function isHashExpression(token: string): boolean {
  const match = HASH_EXPRESSION.exec(token);
  if (!match) return false;
  const { digits, padding } = base64Shape(DIGEST_BYTES[match[1] as IntegrityAlgorithm]);
  return match[2]!.length === digits && match[3]!.length === padding;
}

/**
 * Why `value` is not SRI metadata the browser enforces, or undefined when it is:
 * one or more space-separated `sha256-`, `sha384-` or `sha512-` hashes, each the
 * standard base64 of a digest of the algorithm's length. Every token must be
 * well formed: the browser ignores a malformed one, which would hide a typo.
 */
export function integrityProblem(value: string): string | undefined {
  const tokens = value.split(/[ \t\n\f\r]+/).filter(Boolean);
  if (tokens.length === 0) return "integrity is empty: leave it out, or set the checkout's integrity value (sha384-…).";
  if (tokens.every(isHashExpression)) return undefined;
  return "integrity is not a Subresource Integrity hash (sha256-, sha384- or sha512- followed by the base64 of the digest): the browser would run the widget script unchecked. Set the checkout's integrity value as your server received it.";
}
