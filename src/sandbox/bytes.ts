/**
 * Byte arithmetic the sandbox needs in every runtime it runs in (Node, a
 * service worker): UTF-8 lengths and cuts, hex and base64url, and SHA-256.
 * Web platform only (TextEncoder, btoa): no Node built-in, no `Buffer`.
 */

const encoder = new TextEncoder();
// A leading U+FEFF is text here (a field's first character), not a byte-order mark to drop as TextDecoder does by default.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The UTF-8 length of a string, as `Buffer.byteLength` counts it (a lone
 * surrogate as the 3 bytes of U+FFFD), without encoding it: the request log
 * and the store's budget count every field of every request.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      bytes += 2;
      index++;
    } else bytes += 2;
  }
  return bytes;
}

/** The first `bytes` bytes of the text's UTF-8, decoded again (a character cut in two becomes U+FFFD). */
export function utf8Prefix(text: string, bytes: number): string {
  return decoder.decode(encoder.encode(text).subarray(0, bytes));
}

export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text);

export const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export const bytesOfHex = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));

/** base64url without padding, of the text's UTF-8. */
export function base64urlOf(text: string): string {
  const binary = Array.from(encoder.encode(text), (byte) => String.fromCharCode(byte)).join('');
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text a base64url (or base64) string encodes; undefined when it is not base64. */
export function textOfBase64url(encoded: string): string | undefined {
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    return decoder.decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

const rotateRight = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits));

const SHA256_K = Uint32Array.from(
  '428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2'
    .split(' ')
    .map((word) => parseInt(word, 16)),
);

/**
 * SHA-256 of the text's UTF-8, as lower-case hex. Synchronous, so seeded ids
 * are drawn inside a request's synchronous handling in every runtime (Web
 * Crypto's digest is a promise). Only seeded runs and notification request ids
 * hash: never a secret, never on the hot path.
 */
export function sha256Hex(text: string): string {
  const message = encoder.encode(text);
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(length - 8, Math.floor(message.length / 0x2000_0000));
  view.setUint32(length - 4, (message.length * 8) >>> 0);
  const hash = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const words = new Uint32Array(64);
  for (let block = 0; block < length; block += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = words[i - 15]!;
      const w2 = words[i - 2]!;
      words[i] =
        words[i - 16]! +
        (rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >>> 3)) +
        words[i - 7]! +
        (rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >>> 10));
    }
    let [a, b, c, d, e, f, g, h] = hash as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 =
        (h + (rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i]! + words[i]!) >>> 0;
      const t2 = ((rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => (hash[i] = (hash[i]! + value) >>> 0));
  }
  return hash.map((word) => word.toString(16).padStart(8, '0')).join('');
}

/** Standard base64, with padding, of bytes. */
export const base64Of = (bytes: Uint8Array): string => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
