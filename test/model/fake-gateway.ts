/**
 * A fake gateway behind the client's injectable `fetch`, for the coordination
 * model: checkouts that are paid by the shopper, consumed by their first
 * successful status read (then "No payment session found", as the platform
 * answers), reports by merchantTransactionId, and one queued fault per call:
 * the answer lost after the gateway processed the request, a 502 after
 * processing, or a hang until the client's timeout.
 */
export type Fault = 'lost' | '502' | 'hang';

interface FakeCheckout {
  paid: boolean;
  consumed: boolean;
  merchantTransactionId?: string;
  paymentId?: string;
}

export interface GatewayCall {
  readonly method: string;
  readonly path: string;
  readonly at: number;
  readonly body: string;
}

const hex = (length: number) =>
  Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16))
    .join('')
    .toUpperCase();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const NOT_FOUND = {
  result: { code: '200.300.404', description: 'invalid or missing parameter - No payment session found for the requested id' },
};

export class FakeGateway {
  readonly checkouts = new Map<string, FakeCheckout>();
  readonly calls: GatewayCall[] = [];
  readonly faults: Fault[] = [];

  constructor(private readonly clock: () => number) {}

  pay(checkoutId: string): string | undefined {
    const checkout = this.checkouts.get(checkoutId);
    if (!checkout || checkout.consumed || checkout.paid) return checkout?.paymentId;
    checkout.paid = true;
    checkout.paymentId = hex(32).toLowerCase();
    return checkout.paymentId;
  }

  payment(checkoutId: string) {
    const checkout = this.checkouts.get(checkoutId)!;
    return {
      id: checkout.paymentId!,
      paymentType: 'DB',
      amount: '25.00',
      currency: 'EUR',
      ndc: checkoutId,
      ...(checkout.merchantTransactionId ? { merchantTransactionId: checkout.merchantTransactionId } : {}),
      result: { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" },
    };
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : String(init?.body ?? '');
    this.calls.push({ method, path: url.pathname, at: this.clock(), body });
    const fault = this.faults.shift();
    if (fault === 'hang') {
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }));
    }
    const answer = this.answer(method, url, body);
    if (fault === 'lost') throw new TypeError('fetch failed');
    if (fault === '502') return new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    return answer;
  };

  private answer(method: string, url: URL, body: string): Response {
    if (method === 'POST' && url.pathname === '/v1/checkouts') {
      const id = `${hex(32)}.uat01-vm-tx01`;
      const merchantTransactionId = new URLSearchParams(body).get('merchantTransactionId') ?? undefined;
      this.checkouts.set(id, { paid: false, consumed: false, ...(merchantTransactionId ? { merchantTransactionId } : {}) });
      return json(200, {
        result: { code: '000.200.100', description: 'successfully created checkout' },
        id,
        integrity: 'sha384-x',
        ndc: id,
      });
    }
    const status = /^\/v1\/checkouts\/([^/]+)\/payment$/.exec(url.pathname);
    if (method === 'GET' && status) {
      const checkout = this.checkouts.get(status[1]!);
      if (!checkout || checkout.consumed) return json(400, NOT_FOUND);
      if (!checkout.paid) return json(200, { result: { code: '000.200.000', description: 'transaction pending' }, ndc: status[1] });
      checkout.consumed = true;
      return json(200, this.payment(status[1]!));
    }
    if (method === 'GET' && url.pathname === '/v3/query') {
      const wanted = url.searchParams.get('merchantTransactionId');
      const payments = [...this.checkouts]
        .filter(([, each]) => each.paid && each.merchantTransactionId === wanted)
        .map(([id]) => this.payment(id));
      return json(200, { result: { code: '000.000.000', description: 'Request successfully processed' }, payments });
    }
    return json(404, { result: { code: '700.400.580', description: 'cannot find transaction' } });
  }
}
