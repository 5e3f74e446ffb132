/** The client accepts what the platform accepts (issue 13): one- and two-digit challenge windows, challenge indicators 01–09 and 1–9. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayValidationError } from '../../src/server/index.js';
import { answer, PAYMENT_ID, standInClient } from '../support/gateway-stand-in.js';
import { billing, cardPayment } from './fixtures.js';

const approved = answer('000.100.110', { id: PAYMENT_ID, paymentType: 'DB', amount: '92.00', currency: 'EUR' });

describe('value sets follow the platform', () => {
  test('challengeWindow 4 and 04, challengeIndicator 05, 08 and 4 are sent as given', async () => {
    const { client, posts } = standInClient(() => ({ status: 200, body: approved }));
    for (const [challengeWindow, challengeIndicator] of [
      ['4', '05'],
      ['04', '08'],
      ['5', '4'],
      ['01', '09'],
    ] as const) {
      await client.payments.create(
        cardPayment({
          customer: { email: 'a@example.com', ip: '192.0.2.1', browser: { challengeWindow } },
          threeDSecure: { challengeIndicator },
          shopperResultUrl: 'https://shop.example/r',
          billing,
        }),
      );
      const form = posts().at(-1)!.form;
      assert.equal(form.get('customer.browser.challengeWindow'), challengeWindow);
      assert.equal(form.get('threeDSecure.challengeIndicator'), challengeIndicator);
    }
  });

  test('values outside the sets are refused before sending', async () => {
    const { client, posts } = standInClient(() => ({ status: 200, body: approved }));
    for (const [challengeWindow, challengeIndicator] of [
      ['6', '01'],
      ['1', '10'],
      ['00', '0'],
    ]) {
      const error = await client.payments
        .create(
          cardPayment({
            customer: { email: 'a@example.com', ip: '192.0.2.1', browser: { challengeWindow: challengeWindow as '1' } },
            threeDSecure: { challengeIndicator: challengeIndicator as '01' },
          }),
        )
        .catch((caught: unknown) => caught);
      assert.ok(error instanceof GatewayValidationError, String(error));
    }
    assert.equal(posts().length, 0);
  });
});
