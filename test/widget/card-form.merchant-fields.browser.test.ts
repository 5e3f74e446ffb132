/**
 * Fields a merchant adds to the card form (in `onReady`, as the platform's tokenization docs and
 * integrators do: a "Store payment details?" `createRegistration` box, `customParameters[…]`) go
 * with the payment, as a browser submits a form: named, enabled, a box only when ticked. Found by a
 * review: the sandbox sent a fixed set of fields and dropped them. None of them may change the money
 * terms (amount, currency, paymentType, entityId come from the checkout) or the card the shopper typed.
 */
import { expect } from '@open-wc/testing';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { merchantCall } from '../support/gateway.js';
import {
  cardFormOf,
  closePages,
  createCheckout,
  openWidgetPage,
  pay,
  paymentStatus,
  payButton,
  shopperResult,
  waitFor,
  type WidgetWindow,
} from './widget-page.js';

/** The merchant page's window: onReady runs before openWidgetPage resolves. */
const frameWindow = () => [...document.querySelectorAll('iframe')].pop()!.contentWindow as WidgetWindow;

type InputProperties = Partial<Pick<HTMLInputElement, 'type' | 'name' | 'value' | 'checked' | 'disabled'>>;

/** An onReady that adds `inputs` (their properties) to the card form before its submit group, as integrators do. */
const adding =
  (...inputs: InputProperties[]) =>
  () => {
    const doc = frameWindow().document;
    const form = cardFormOf(doc.querySelector('form.paymentWidgets')!);
    for (const properties of inputs)
      form.querySelector('.wpwl-group-submit')!.before(Object.assign(doc.createElement('input'), properties) as HTMLInputElement);
  };

/** Opens a checkout's page with `onReady`, pays an approved card and reads the status. */
async function paidWith(onReady: () => void, checkout?: { id: string; integrity: string }): Promise<Record<string, any>> {
  const page = await openWidgetPage({ checkout: checkout ?? (await createCheckout()), options: { onReady } });
  await page.ready;
  pay(page.form(), { number: CARDS.approved });
  return paymentStatus(await shopperResult(page));
}

const REGISTRATION_ID = /^[0-9a-f]{32}$/;

describe('fields the merchant adds to the card form', () => {
  afterEach(closePages);

  it('a ticked createRegistration box saves the card, as a checkout created with createRegistration=true does', async () => {
    const box = { type: 'checkbox', name: 'createRegistration', value: 'true', checked: true };
    const status = await paidWith(adding(box));
    expect(String(status.registrationId), 'the shopper ticked "Store payment details?"').to.match(REGISTRATION_ID);

    const { body } = await merchantCall('POST', '/v1/checkouts', {
      amount: '12.50',
      currency: 'EUR',
      paymentType: 'DB',
      integrity: 'true',
      createRegistration: 'true',
    });
    const control = await paidWith(() => {}, { id: body.id, integrity: body.integrity });
    expect(String(control.registrationId), 'the same as the checkout asking for it').to.match(REGISTRATION_ID);
  });

  it('an unticked box, a disabled field and an unnamed one are not sent, as a browser would not send them', async () => {
    const status = await paidWith(
      adding(
        { type: 'checkbox', name: 'createRegistration', value: 'true', checked: false },
        { type: 'hidden', name: 'customParameters[DISABLED]', value: 'x', disabled: true },
        { type: 'hidden', value: 'unnamed' },
      ),
    );
    expect(status.registrationId).to.equal(undefined);
    expect(status.customParameters?.DISABLED).to.equal(undefined);
  });

  it('sends customParameters[…] with the payment, and a security code in one is kept masked', async () => {
    const status = await paidWith(
      adding(
        { type: 'hidden', name: 'customParameters[ORDER_NOTE]', value: 'gift wrap' },
        { type: 'hidden', name: 'customParameters[CVV]', value: '123' },
      ),
    );
    expect(status.customParameters.ORDER_NOTE).to.equal('gift wrap');
    expect(status.customParameters.CVV, 'scrubbed by its name').to.not.equal('123');
  });

  it('a field the gateway refuses (a box without value="true" sends \'on\') is reported to the merchant; the shopper may pay again', async () => {
    const page = await openWidgetPage({
      checkout: await createCheckout(),
      options: { onReady: adding({ type: 'checkbox', name: 'createRegistration', checked: true }) },
    });
    await page.ready;
    pay(page.form(), { number: CARDS.approved });
    const error = await waitFor(() => page.errors.find((reported) => reported.name === 'WidgetError'), 'the WidgetError');
    expect(error.message).to.include('createRegistration');
    expect(payButton(page.form()).disabled, 'the shopper may pay again').to.equal(false);
    expect(page.window.location.href).to.equal('about:srcdoc');
  });

  it('cannot change the amount, currency, payment type or entity, nor the card the shopper typed', async () => {
    const status = await paidWith(
      adding(
        { type: 'hidden', name: 'amount', value: '0.01' },
        { type: 'hidden', name: 'currency', value: 'USD' },
        { type: 'hidden', name: 'paymentType', value: 'PA' },
        { type: 'hidden', name: 'entityId', value: '8a8294174b7ecb28014b9699220015ca' },
        { type: 'hidden', name: 'card.number', value: CARDS.approvedMaster },
        { type: 'hidden', name: 'paymentBrand', value: 'MASTER' },
      ),
    );
    expect([status.amount, status.currency, status.paymentType]).to.deep.equal(['12.50', 'EUR', 'DB']);
    expect([status.paymentBrand, status.card.last4Digits]).to.deep.equal(['VISA', '0000']);
  });
});
