/**
 * The platform's recorded notification deliveries (test/fixtures/real/notifications,
 * each naming its public source) read by `decryptNotification` in every form a
 * listener receives them: the raw upper-case hex (`text/plain`, any charset),
 * the JSON wrapper `{"encryptedBody": …}`, and the listener-activation test
 * notification, which must decrypt (so the listener answers 200).
 */
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decryptNotification, NotificationError } from '../../src/server/index.js';

interface Encrypted {
  readonly secret: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly expect: { type: string; id: string; resultCode: string; ndc: string };
}
interface Plain {
  readonly plaintext: { type: string; payload: { result?: { code: string } } };
  readonly expect: { type: string; resultCode?: string };
}
type Recorded = { readonly name: string; readonly source: object } & (Encrypted | Plain);

const DIR = new URL('../fixtures/real/notifications/', import.meta.url);
const RECORDED: Recorded[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ name: file, ...JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) }) as Recorded);

/** Encrypts a recorded plaintext as the platform does: upper-case hex body, IV and tag. */
function deliver(plaintext: unknown, secret: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(secret, 'hex'), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(plaintext), 'utf8'), cipher.final()])
    .toString('hex')
    .toUpperCase();
  return {
    body,
    headers: {
      'X-Initialization-Vector': iv.toString('hex').toUpperCase(),
      'X-Authentication-Tag': cipher.getAuthTag().toString('hex').toUpperCase(),
    },
  };
}

describe('recorded notifications, as the platform delivers them', () => {
  it('there are recorded deliveries, each naming its public source, one of them encrypted by the platform', () => {
    assert.ok(RECORDED.length >= 3);
    assert.ok(RECORDED.some((recorded) => 'body' in recorded));
    for (const recorded of RECORDED) assert.ok('repository' in recorded.source || 'url' in recorded.source, recorded.name);
  });

  for (const recorded of RECORDED) {
    it(`${recorded.name}: read as raw hex, as bytes in ISO-8859-1 and as the JSON wrapper`, async () => {
      const secret = 'secret' in recorded ? recorded.secret : randomBytes(32).toString('hex').toUpperCase();
      const { body, headers } = 'body' in recorded ? recorded : deliver(recorded.plaintext, secret);
      const forms = [
        { body, headers },
        {
          body: new Uint8Array(Buffer.from(body, 'latin1')),
          headers: new Headers({ ...headers, 'content-type': 'text/plain; charset=ISO-8859-1' }),
        },
        { body: JSON.stringify({ encryptedBody: body }), headers: { ...headers, 'Content-Type': 'application/json' } },
      ];
      for (const form of forms) {
        const notification = await decryptNotification(form, secret);
        assert.equal(notification.type, recorded.expect.type);
        const payload = notification.payload as { id?: string; ndc?: string; result?: { code: string } };
        if ('resultCode' in recorded.expect && recorded.expect.resultCode) assert.equal(payload.result?.code, recorded.expect.resultCode);
        if ('id' in recorded.expect) {
          assert.equal(payload.id, recorded.expect.id);
          assert.equal(payload.ndc, recorded.expect.ndc);
        }
      }
    });
  }

  it('a wrapper without encryptedBody, or null headers, is refused with the typed error', async () => {
    const { body, headers } = deliver({ type: 'test', payload: {} }, '00'.repeat(32));
    for (const wrong of [
      { body: JSON.stringify({ body }), headers },
      { body: '{not json', headers },
      { body, headers: null },
      { body },
      null,
      undefined,
      42,
    ]) {
      await assert.rejects(decryptNotification(wrong as never, '00'.repeat(32)), NotificationError);
    }
  });
});
