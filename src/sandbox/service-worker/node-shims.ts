/**
 * The few Node built-ins the sandbox's request core uses, for its browser
 * build (the service worker): the core's hashes run synchronously inside a
 * route, where Web Crypto's promises cannot, so SHA-1 and SHA-256 are written
 * out here; randomness comes from the browser's CSPRNG. The bundle maps
 * `node:crypto` to this module and injects `Buffer` (scripts/sandbox-worker.ts).
 * Only what the core calls is here; anything else throws rather than pretends.
 */

type Encoding = 'utf8' | 'utf-8' | 'hex' | 'base64' | 'base64url';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
const fromBase64 = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (character) => character.charCodeAt(0));

/** Node's Buffer as the core reads one: bytes whose `toString` takes an encoding and a range. */
export class Bytes extends Uint8Array {
  override toString(encoding: Encoding = 'utf8', start = 0, end = this.length): string {
    const bytes = this.subarray(start, end);
    if (encoding === 'hex') return toHex(bytes);
    if (encoding === 'base64') return toBase64(bytes);
    if (encoding === 'base64url') return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return decoder.decode(bytes);
  }
}

function from(value: string | ArrayLike<number>, encoding: Encoding = 'utf8'): Bytes {
  if (typeof value !== 'string') return new Bytes(Array.from(value));
  if (encoding === 'hex') return new Bytes((value.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
  if (encoding === 'base64' || encoding === 'base64url') {
    try {
      return new Bytes(fromBase64(value));
    } catch {
      // Node decodes what it can of malformed base64; this shim decodes nothing of it.
      return new Bytes(0);
    }
  }
  return new Bytes(encoder.encode(value));
}

function concat(parts: readonly Uint8Array[]): Bytes {
  const joined = new Bytes(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** The static side of Node's Buffer the core calls: byte lengths, conversions from utf8/hex/base64(url), allocation, joining. */
export const Buffer = {
  byteLength: (text: string): number => encoder.encode(text).length,
  alloc: (size: number): Bytes => new Bytes(size),
  from,
  concat,
};

export function randomBytes(size: number): Bytes {
  const bytes = new Bytes(size);
  // getRandomValues fills at most 65,536 bytes per call.
  for (let offset = 0; offset < size; offset += 65_536) crypto.getRandomValues(bytes.subarray(offset, Math.min(size, offset + 65_536)));
  return bytes;
}

const rotateLeft = (value: number, bits: number) => (value << bits) | (value >>> (32 - bits));
const rotateRight = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits));

/** The message padded to whole 64-byte blocks with its bit length (big-endian), as SHA-1 and SHA-2 both pad. */
function padded(message: Uint8Array): DataView {
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const bytes = new Uint8Array(length);
  bytes.set(message);
  bytes[message.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(length - 8, Math.floor(message.length / 0x2000_0000));
  view.setUint32(length - 4, (message.length * 8) >>> 0);
  return view;
}

function sha1(message: Uint8Array): Uint8Array {
  const view = padded(message);
  const hash = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const words = new Uint32Array(80);
  for (let block = 0; block < view.byteLength; block += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 80; i++) words[i] = rotateLeft(words[i - 3]! ^ words[i - 8]! ^ words[i - 14]! ^ words[i - 16]!, 1);
    let [a, b, c, d, e] = hash as [number, number, number, number, number];
    for (let i = 0; i < 80; i++) {
      const [f, k] =
        i < 20
          ? [(b & c) | (~b & d), 0x5a827999]
          : i < 40
            ? [b ^ c ^ d, 0x6ed9eba1]
            : i < 60
              ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc]
              : [b ^ c ^ d, 0xca62c1d6];
      const next = (rotateLeft(a, 5) + f + e + k + words[i]!) >>> 0;
      [e, d, c, b, a] = [d, c, rotateLeft(b, 30) >>> 0, a, next];
    }
    [a, b, c, d, e].forEach((value, i) => (hash[i] = (hash[i]! + value) >>> 0));
  }
  return words32(hash);
}

const SHA256_K = Uint32Array.from(
  '428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2'
    .split(' ')
    .map((word) => parseInt(word, 16)),
);

function sha256(message: Uint8Array): Uint8Array {
  const view = padded(message);
  const hash = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const words = new Uint32Array(64);
  for (let block = 0; block < view.byteLength; block += 64) {
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
  return words32(hash);
}

function words32(words: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setUint32(i * 4, word));
  return bytes;
}

const HASHES: Record<string, (message: Uint8Array) => Uint8Array> = { sha1, sha256 };

/** Node's `createHash` for SHA-1 and SHA-256, fed text or bytes and read once. */
export function createHash(algorithm: string) {
  const hash = HASHES[algorithm];
  if (!hash) throw new Error(`${algorithm} is not available in the sandbox's browser build`);
  const parts: Uint8Array[] = [];
  return {
    update(data: string | Uint8Array) {
      parts.push(typeof data === 'string' ? encoder.encode(data) : data);
      return this;
    },
    digest(encoding?: Encoding): string | Bytes {
      const digest = new Bytes(hash(concat(parts)));
      return encoding ? digest.toString(encoding) : digest;
    },
  };
}

/** Notifications (AES-GCM encrypted webhooks) need a notification URL a browser sandbox has no way to reach in the gateway's manner. */
export function createCipheriv(): never {
  throw new Error('encrypted notifications are not available in the sandbox browser build');
}
