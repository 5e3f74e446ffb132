/**
 * Model-based test of issue 22 (several entities): instances of a KSA
 * merchant's client (a card entity and a MADA entity) share one status store
 * and run random, concurrently started commands against the sandbox: checkouts
 * for either form, widget payments, shopper returns on any instance, payments
 * by brand, some with their answer dropped (reconciled by look-up).
 *
 * Invariants, after every command:
 * - every status read of a checkout goes to the entity that created it, whichever instance reads;
 * - every payment POST and every look-up after a lost answer goes to its brand's entity;
 * - the sandbox never answers 600.200.201 (no brand reaches an entity without it) nor 403 (no read reaches another entity);
 * - a paid checkout's return is the approved payment of its brand (or a typed throttle, never "not found");
 * - every failure is a typed GatewayError.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { RESULT_CODES } from '../../src/contract/result-codes.js';
import { CARDS, DEFAULT_ENTITY_ID, DEFAULT_MADA_ENTITY_ID, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  createGatewayClient,
  createMemoryStatusStore,
  GatewayError,
  GatewayThrottledError,
  isApproved,
  type GatewayClient,
} from '../../src/server/index.js';
import { card, cardPayment, orderId, payInWidget, recordingFetch, type SentRequest } from '../server/fixtures.js';

const RUNS = Number(process.env.GW_MODEL_RUNS ?? 15);
const ENTITY = {
  VISA: DEFAULT_ENTITY_ID,
  MASTER: DEFAULT_ENTITY_ID,
  MADA: DEFAULT_MADA_ENTITY_ID,
  APPLEPAY: DEFAULT_MADA_ENTITY_ID,
} as const;
type Group = 'cards' | 'mada';
const FORM: Record<Group, { brands: ('VISA' | 'MASTER' | 'MADA' | 'APPLEPAY')[]; brand: 'VISA' | 'MADA'; number: string }> = {
  cards: { brands: ['VISA', 'MASTER'], brand: 'VISA', number: CARDS.approved },
  mada: { brands: ['MADA', 'APPLEPAY'], brand: 'MADA', number: CARDS.mada },
};

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
after(() => sandbox.close());

interface Real {
  clients: GatewayClient[];
  calls: SentRequest[];
  checkouts: { id: string; group: Group; paid: boolean }[];
}
interface Model {
  /** Checkout id → the entity it was created on. */
  entities: Map<string, string>;
}

const entityOf = (call: SentRequest) => call.url.searchParams.get('entityId') ?? new URLSearchParams(call.body).get('entityId');

function checkCalls(real: Real, model: Model) {
  for (const call of real.calls) {
    const checkoutRead = /^\/v1\/checkouts\/([^/]+)\/payment$/.exec(call.url.pathname);
    if (checkoutRead) assert.equal(entityOf(call), model.entities.get(checkoutRead[1]!), `status read of ${checkoutRead[1]}`);
    const brand = new URLSearchParams(call.body).get('paymentBrand') as keyof typeof ENTITY | null;
    if (call.method === 'POST' && brand) assert.equal(entityOf(call), ENTITY[brand], `POST ${call.url.pathname} for ${brand}`);
  }
  const refused = sandbox.requests().filter((entry) => entry.resultCode === RESULT_CODES.brandNotConfigured || entry.status === 403);
  assert.deepEqual(
    refused.map((entry) => `${entry.method} ${entry.path} ${entry.resultCode}`),
    [],
  );
}

const typed = (error: unknown) => assert.ok(error instanceof GatewayError, `untyped: ${String(error)}`);

class CreateCheckout implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly group: Group,
    readonly instance: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const created = await real.clients[this.instance]!.checkouts.create(
      { amount: '20.00', currency: 'SAR', paymentType: 'DB', merchantTransactionId: orderId('model') },
      { brands: FORM[this.group].brands },
    );
    model.entities.set(created.id, ENTITY[FORM[this.group].brand]);
    real.checkouts.push({ id: created.id, group: this.group, paid: false });
    checkCalls(real, model);
  }
  toString = () => `checkout(${this.group}, #${this.instance})`;
}

class Pay implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Model) => model.entities.size > 0;
  async run(model: Model, real: Real) {
    const checkout = real.checkouts[this.pick % real.checkouts.length]!;
    if (checkout.paid) return;
    await payInWidget(sandbox, checkout.id, FORM[checkout.group].number, FORM[checkout.group].brand);
    checkout.paid = true;
    checkCalls(real, model);
  }
  toString = () => `pay(${this.pick})`;
}

class Return implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly instance: number,
  ) {}
  check = (model: Model) => model.entities.size > 0;
  async run(model: Model, real: Real) {
    const checkout = real.checkouts[this.pick % real.checkouts.length]!;
    const query = { id: checkout.id, resourcePath: `/v1/checkouts/${checkout.id}/payment` };
    try {
      const payment = await real.clients[this.instance]!.handleShopperReturn(query);
      if (checkout.paid) {
        assert.ok(isApproved(payment.result.code), payment.result.code);
        assert.equal(payment.paymentBrand, FORM[checkout.group].brand);
      }
    } catch (error) {
      typed(error);
      assert.ok(error instanceof GatewayThrottledError, `a return may only be throttled here: ${String(error)}`);
    }
    checkCalls(real, model);
  }
  toString = () => `return(${this.pick}, #${this.instance})`;
}

class Payment implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly group: Group,
    readonly lost: boolean,
    readonly instance: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    if (this.lost) sandbox.fault('/v1/payments', 'drop');
    const { brand, number } = FORM[this.group];
    const payment = await real.clients[this.instance]!.payments.create(
      cardPayment({ paymentBrand: brand, card: card(number), currency: 'SAR', merchantTransactionId: orderId('model') }),
    ).catch((error: unknown) => {
      typed(error);
      throw error;
    });
    assert.ok(isApproved(payment.result.code));
    assert.equal(payment.paymentBrand, brand);
    checkCalls(real, model);
  }
  toString = () => `payment(${this.group}${this.lost ? ', answer lost' : ''}, #${this.instance})`;
}

test('every call of a checkout or a brand goes to its entity, on any instance, in any order', async () => {
  const group = fc.constantFrom<Group>('cards', 'mada');
  const instance = fc.integer({ min: 0, max: 1 });
  const commands = fc.commands(
    [
      fc.tuple(group, instance).map(([g, i]) => new CreateCheckout(g, i)),
      fc.nat().map((pick) => new Pay(pick)),
      fc.tuple(fc.nat(), instance).map(([pick, i]) => new Return(pick, i)),
      fc.tuple(group, fc.boolean(), instance).map(([g, lost, i]) => new Payment(g, lost, i)),
    ],
    { maxCommands: 14 },
  );
  let explored = 0;
  await fc.assert(
    fc.asyncProperty(commands, async (cmds) => {
      sandbox.reset();
      explored++;
      const recorder = recordingFetch();
      const statusStore = createMemoryStatusStore();
      const client = () =>
        createGatewayClient({
          baseUrl: sandbox.url,
          accessToken: sandbox.tokens[0]!,
          entityId: DEFAULT_ENTITY_ID,
          entities: { MADA: DEFAULT_MADA_ENTITY_ID, APPLEPAY: DEFAULT_MADA_ENTITY_ID },
          fetch: recorder.fetch,
          statusStore,
          timeoutMs: 5000,
          reconcileDelaysMs: [0, 25],
        });
      await fc.asyncModelRun(
        () => ({ model: { entities: new Map() }, real: { clients: [client(), client()], calls: recorder.calls, checkouts: [] } }),
        cmds,
      );
    }),
    { numRuns: RUNS },
  );
  assert.equal(explored >= RUNS, true);
});
