/**
 * The model of `<gw-checkout>`, in real Chromium against the real sandbox and its widget, which
 * `checkout-element.browser.test.ts` runs in a single-page app (this test page) and
 * `checkout-element.rendered.browser.test.ts` on pages the server rendered. Two elements, reused across
 * mounts, over a pool of three checkouts. fast-check draws what a page and a shopper do (mount, unmount,
 * React StrictMode's synchronous re-mount, a new checkout id, a new `lang`, `reload()`, deadlines that pass, a
 * declined card, a card or Google Pay payment held open on its way and then declined by the gateway, a widget
 * script that fails to load) and in which order; nothing waits between commands unless a command says so, so loads
 * overlap unmounts and scripts still in flight (the stragglers).
 *
 * Invariants, after every command:
 * - one widget: at most one widget script, and it is the model's checkout (none when no element shows one);
 * - clean up: an element out of the page holds no form; one in the page holds at most one;
 * - a payment being sent is never cut off and its shopper never told "expired": the element stays
 *   `submitting` (`ready` for a wallet's, which pays in the browser's own sheet) with its form and script whatever
 *   else the page does (a new setting, `reload()`, a second element, its deadline passing) until the shopper is back
 *   on the form, where a new setting then applies;
 *   and no element ever goes from `submitting` to `expired` (the gateway reporting the checkout gone at submission,
 *   which the page test covers, is not drawn here: its checkouts are fresh);
 * - one payment of a checkout at a time: a press while the page's widget sends one of its checkout (another
 *   element's, or one whose element left the page while the widget stayed for the others) is refused, and its
 *   element stays on its form;
 * - events match states: `gw-ready` fires in `ready`, at most once per load; `gw-expired` in `expired`, once per expiry.
 * After `settle` (every load finished): each element is in the state the model says (`ready`, `submitting`,
 * `expired`, or `error` for a second checkout on the page or a payment under way), and a page with no
 * element has its own `wpwlOptions` back (none on a rendered page) and no `wpwl`; an element that loaded the
 * widget alone gave it its `lang`.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { assertInBrowser, nextTask, sleep } from '../support/browser-property.js';
import '../../src/components/gw-checkout/define.js';
import type { GwCheckout } from '../../src/components/gw-checkout/gw-checkout.js';
import type { GwErrorDetail } from '../../src/components/gw-checkout/events.js';
import { CARDS } from '../../src/sandbox/gateway/triggers.js';
import { WALLET_TOKENS } from '../../src/contract/wallet-stand-in.js';
import { merchantCall } from '../support/gateway.js';
import { renderCheckout } from '../../src/server/render-checkout.js';
import {
  createCheckout,
  pay,
  settingsFor,
  shopperResultUrl,
  until,
  widgetScripts,
  type Checkout,
} from '../components/gw-checkout/support.js';

const SLOTS = [0, 1] as const;
type Slot = (typeof SLOTS)[number];
const POOL = 3;
/**
 * How late a browser timer may fire on a busy 2-core machine (the browser tests run beside other stages): an expiry
 * this close to its deadline may or may not have happened.
 */
const TIMER_SLACK_MS = 1000;
const WIDGET_SCRIPT_PATH = '/v1/paymentWidgets.js';
/** The element's code, as a page loads it. */
const ELEMENT_MODULE = '/src/checkout.ts';

/** What the model says of one element: `live` is loading or ready; `conflict` is refused for the page's other checkout or its payment. */
type Status = 'out' | 'live' | 'paying' | 'walletPaying' | 'conflict' | 'expired' | 'failed';
/**
 * A payment of this element is being sent: by its card form (`paying`: the element shows `submitting`) or by a wallet
 * (`walletPaying`: the platform's wallets pay in the browser's own sheet, so the element stays `ready` and knows the
 * payment only by the wallet's disabled button). Either way it keeps its widget, takes no new setting and never expires.
 */
const sending = (status: Status) => status === 'paying' || status === 'walletPaying';

/**
 * `slot` waits on a payment of its checkout: its own, or one another element showing the same widget sends. Like a
 * payment of its own, it takes no new setting nor `reload()` and does not expire meanwhile.
 */
const paymentBeside = (model: Model, slot: Slot) =>
  sending(model.slots[slot]!.status) || (model.owners.has(slot) && [...model.owners].some((owner) => sending(model.slots[owner]!.status)));

interface SlotModel {
  connected: boolean;
  checkout: number | undefined;
  /** Absolute `Date.now()` of its `expires-at`; undefined: 30 minutes from its checkout id. */
  deadline: number | undefined;
  status: Status;
  /** Seen `ready` at the last settle, with nothing changed since: a shopper can pay. */
  readySeen: boolean;
  /** The settings its widget was loaded with (checkout and language): others set while paying wait for the form. */
  loaded: string | undefined;
  lang: string;
}

interface Model {
  slots: SlotModel[];
  /** The checkout the page's widget is for, and the elements sharing it. */
  active: number | undefined;
  owners: Set<Slot>;
  /** A fault on the widget script may still be pending: a load may fail with `script-load-failed`. */
  scriptFault: boolean;
  /** The element whose settings the widget was loaded with, while it is its only one; undefined once others joined. */
  loadedBy: Slot | undefined;
  /**
   * The page's widget is still sending a payment whose element left the page mid-payment (the others kept the widget):
   * until that widget is reloaded or unloaded, it sends no other payment of its checkout.
   */
  sendingUnshown: boolean;
}

interface ElementLog {
  ready: number;
  expired: number;
  /** The last gw-expired: its checkout, and the expiries counted when it fired. */
  announced?: { checkoutId: string; expiries: number };
  loads: number;
  expiries: number;
  errors: GwErrorDetail[];
  /** Transitions of the `state` attribute, as `old→new`. */
  transitions: string[];
}

/** The widget's globals on a page's window. */
type PageWindow = Window & { wpwl?: unknown; wpwlOptions?: object };

/** Where the elements live: this test page (a single-page app), or a page of its own the server rendered. */
interface Page {
  doc: Document;
  win: PageWindow;
  /** Where a mounted element goes. */
  container: HTMLElement;
  /** The page's own `wpwlOptions`, which the elements must put back (none on a rendered page: its inline script made them). */
  pageOptions: object | undefined;
  /** The element in the page's HTML (`renderCheckout`), if any: slot 0, shown from the start. */
  rendered?: GwCheckout;
  close(): void;
}

interface Real extends Page {
  elements: GwCheckout[];
  logs: ElementLog[];
  checkouts: Checkout[];
  observer: MutationObserver;
  /** Payments the page's fetch holds open, by the element that sent each (`PayHeldOpen`, `PayWallet`), until `BackOnForm` lets one go. */
  held: Map<Slot, HeldPayment>;
  /** Set by `PayHeldOpen` and `PayWallet`: the next payment the widget sends is held, and lands here. */
  holding: ((payment: HeldPayment) => void) | undefined;
  restoreFetch(): void;
}

/** A payment the widget sent that the page's network holds: the widget waits for its answer until `release()`. */
interface HeldPayment {
  /** Sends it on with a card (or wallet token) the gateway declines: the widget gets a real refusal, as from the bank. */
  release(): void;
}

// ---- The model's rules (what the element promises) ----

/** What the runs did, by command: the test fails if they never reached what it is for (a payment being sent). */
export const ran = new Map<string, number>();
const count = (name: string) => ran.set(name, (ran.get(name) ?? 0) + 1);

function leave(model: Model, slot: Slot): void {
  if (model.owners.delete(slot) && model.owners.size === 0) widgetGone(model);
  if (model.loadedBy === slot) model.loadedBy = undefined;
}

/** The page's widget is unloaded, and with it whatever it was sending. */
function widgetGone(model: Model): void {
  model.active = undefined;
  model.sendingUnshown = false;
}

/** A fresh attempt of `slot` with its settings, as the element's sync makes it. */
function attempt(model: Model, slot: Slot): void {
  const state = model.slots[slot]!;
  leave(model, slot);
  state.readySeen = false;
  if (state.deadline !== undefined && state.deadline <= Date.now()) {
    state.status = 'expired';
    return;
  }
  const underWay = [...model.owners].some((owner) => sending(model.slots[owner]!.status));
  if ((model.active !== undefined && model.active !== state.checkout) || underWay) {
    state.status = 'conflict';
    return;
  }
  // A joiner reloads the widget the others show (with the first one's settings, or its own when it is alone).
  for (const owner of model.owners) model.slots[owner]!.readySeen = false;
  model.sendingUnshown = false;
  model.loadedBy = model.owners.size ? undefined : slot;
  model.active = state.checkout;
  model.owners.add(slot);
  state.status = 'live';
  state.loaded = loadKeyOf(state);
}

/** What every element of the model offers: a wallet beside the cards. */
const BRANDS = ['GOOGLEPAY', 'VISA', 'MASTER'];
const WALLET_OPTIONS = { googlePay: { gatewayMerchantId: 'entity' } };

/** What makes a load of `state`'s element: its checkout and language (a deadline is no load setting). */
const loadKeyOf = (state: SlotModel) => `${state.checkout} ${state.lang}`;

/** A new load setting: applied now, or once a payment of its checkout being sent is back on the form. */
function settingsChanged(model: Model, slot: Slot): void {
  if (!paymentBeside(model, slot)) return attempt(model, slot);
  count('changed while paying');
}

/** Whether `slot`'s deadline has passed: true, false, or undefined while a late timer may still fire. */
function deadlinePassed(state: SlotModel, now = Date.now()): boolean | undefined {
  if (state.deadline === undefined || state.deadline > now) return false;
  return state.deadline <= now - TIMER_SLACK_MS ? true : undefined;
}

/**
 * Live elements whose deadline has surely passed have expired (and left the widget); so has one whose deadline
 * passed just now, within a late timer's slack, that the page shows expired already.
 */
function expireDue(model: Model, real: Real): void {
  for (const slot of SLOTS) {
    const state = model.slots[slot]!;
    const passed = deadlinePassed(state);
    if (paymentBeside(model, slot)) continue;
    if (state.status === 'live' && (passed === true || (passed === undefined && real.elements[slot]!.state === 'expired'))) {
      state.status = 'expired';
      state.readySeen = false;
      leave(model, slot);
    }
  }
}

// ---- The real page ----

function newLog(): ElementLog {
  return { ready: 0, expired: 0, loads: 0, expiries: 0, errors: [], transitions: [] };
}

/** This test page, as a single-page app: its own `wpwlOptions` (without a locale, so the element's `lang` sets the widget's). */
export function appPage(): Page {
  const container = document.createElement('main');
  container.lang = 'en';
  document.body.append(container);
  const pageOptions = { showLabels: true };
  const win = window as PageWindow;
  win.wpwlOptions = pageOptions;
  return {
    doc: document,
    win,
    container,
    pageOptions,
    close() {
      container.remove();
      delete win.wpwlOptions;
    },
  };
}

/**
 * A page the merchant's server rendered for `checkout` (`renderCheckout`), in a frame of its own so the HTML is
 * parsed as sent: the widget loads from the HTML, and the element's code arrives when the rendered page's script
 * loads it (`elementScript`), or later, when this page adds it once the widget is ready.
 */
export async function renderedPage(checkout: Checkout, codeArrives: 'with the page' | 'after the widget'): Promise<Page> {
  const { html } = renderCheckout(checkout, {
    baseUrl: checkout.baseUrl,
    shopperResultUrl,
    brands: BRANDS,
    widgetOptions: WALLET_OPTIONS,
    ...(codeArrives === 'with the page' ? { elementScript: ELEMENT_MODULE } : {}),
  });
  const frame = document.createElement('iframe');
  frame.title = 'rendered checkout';
  frame.srcdoc = `<!doctype html><html lang="en"><head><title>Pay</title></head><body><main>${html}</main></body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const doc = frame.contentDocument!;
  const win = frame.contentWindow as PageWindow;
  if (codeArrives === 'after the widget') {
    await until(() => !!doc.querySelector('gw-checkout .wpwl-control-cardNumber'), 'the rendered widget is shown', 10_000);
    const script = doc.createElement('script');
    script.type = 'module';
    script.src = ELEMENT_MODULE;
    doc.head.append(script);
  }
  // The model starts once the element's code is there: before it, nothing on the page could clean up.
  await win.customElements.whenDefined('gw-checkout');
  const rendered = doc.querySelector('gw-checkout') as GwCheckout;
  return { doc, win, container: doc.querySelector('main')!, pageOptions: undefined, rendered, close: () => frame.remove() };
}

function setUp(checkouts: Checkout[], page: Page): Real {
  const elements = SLOTS.map((slot) => (slot === 0 && page.rendered) || (page.doc.createElement('gw-checkout') as GwCheckout));
  const logs = SLOTS.map(() => newLog());
  elements.forEach((element, slot) => {
    const log = logs[slot]!;
    element.addEventListener('gw-ready', () => {
      expect(element.state, 'gw-ready fires in ready').to.equal('ready');
      log.ready++;
    });
    element.addEventListener('gw-expired', (event) => {
      expect(element.state, 'gw-expired fires in expired').to.equal('expired');
      record(observer.takeRecords());
      const again = log.announced?.checkoutId === event.detail.checkoutId && log.announced.expiries === log.expiries;
      expect(again, `slot ${slot}: gw-expired once per expiry of a checkout`).to.equal(false);
      log.announced = { checkoutId: event.detail.checkoutId, expiries: log.expiries };
      log.expired++;
    });
    element.addEventListener('gw-error', (event) => log.errors.push(event.detail as GwErrorDetail));
  });
  /** Records come in order: the value a record's change set is the next one's old value, or the current one. */
  const record = (records: MutationRecord[]) =>
    records.forEach((change, index) => {
      const log = logs[elements.indexOf(change.target as GwCheckout)]!;
      const next = records.slice(index + 1).find((later) => later.target === change.target);
      const to = next ? next.oldValue : (change.target as Element).getAttribute('state');
      if (change.oldValue === to) return;
      log.transitions.push(`${change.oldValue}→${to}`);
      if (to === 'loading') log.loads++;
      if (to === 'expired') log.expiries++;
    });
  const observer = new MutationObserver(record);
  for (const element of elements) observer.observe(element, { attributes: true, attributeFilter: ['state'], attributeOldValue: true });
  const real: Real = { ...page, elements, logs, checkouts, observer, held: new Map(), holding: undefined, restoreFetch: () => {} };
  holdPayments(real);
  return real;
}

/**
 * Puts itself in the page's `fetch` (the widget's requests go through it): while `real.holding` is set, the next
 * payment the widget sends is held there. The widget waits for its answer, as for a gateway slow to answer, and
 * its one-payment-at-a-time lock stays set, until the model releases it; then the gateway declines it and the widget
 * takes the shopper back to its form. The page unloading the widget aborts it, as the network would.
 */
function holdPayments(real: Real): void {
  const { win } = real;
  const pageFetch = win.fetch;
  win.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const take = real.holding;
    if (!take || init?.method !== 'POST' || !url.endsWith('/widget/payments')) return pageFetch.call(win, input, init);
    real.holding = undefined;
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      take({
        release() {
          const body = new URLSearchParams(init.body as URLSearchParams);
          if (body.has('card.number')) body.set('card.number', CARDS.declined);
          // A wallet's payment: its stand-in token that the bank declines.
          for (const [name, value] of body) if (value === WALLET_TOKENS.approved) body.set(name, WALLET_TOKENS.declined);
          pageFetch.call(win, input, { ...init, body }).then(resolve, reject);
        },
      });
    });
  };
  real.restoreFetch = () => (win.fetch = pageFetch);
}

function apply(real: Real, model: Model, slot: Slot): void {
  const state = model.slots[slot]!;
  const checkout = real.checkouts[state.checkout!]!;
  Object.assign(real.elements[slot]!, settingsFor(checkout), {
    brands: BRANDS,
    options: WALLET_OPTIONS,
    expiresAt: state.deadline === undefined ? undefined : new Date(state.deadline),
  });
}

/**
 * What the model learns from the page before each step: a widget script the pending fault made fail (every
 * element sharing it failed with it, and it failed before any deadline could pass, as a failed element has none),
 * then the deadlines that surely passed.
 */
function catchUp(model: Model, real: Real): void {
  const failed = SLOTS.some((slot) => {
    const element = real.elements[slot]!;
    return (
      model.slots[slot]!.status === 'live' && element.state === 'error' && real.logs[slot]!.errors.at(-1)?.code === 'script-load-failed'
    );
  });
  if (model.scriptFault && failed) {
    model.scriptFault = false;
    for (const owner of model.owners) Object.assign(model.slots[owner]!, { status: 'failed', readySeen: false });
    model.owners.clear();
    model.loadedBy = undefined;
    widgetGone(model);
  }
  expireDue(model, real);
}

/** The checkout id in the page's widget script, if there is one. */
function scriptCheckout(doc: Document): string | null | undefined {
  const [script] = widgetScripts(doc);
  return script ? new URL(script.src).searchParams.get('checkoutId') : undefined;
}

async function checkInvariants(model: Model, real: Real): Promise<void> {
  await nextTask();
  catchUp(model, real);
  const scripts = widgetScripts(real.doc);
  expect(scripts.length, 'at most one widget script').to.be.at.most(1);
  if (model.active === undefined) expect(scripts, 'no widget script without an element showing a checkout').to.have.length(0);
  else if (scripts.length)
    expect(scriptCheckout(real.doc), "the widget is the model's checkout").to.equal(real.checkouts[model.active]!.id);
  for (const slot of SLOTS) {
    const element = real.elements[slot]!;
    const log = real.logs[slot]!;
    const forms = element.querySelectorAll('form.paymentWidgets').length;
    if (!element.isConnected) expect(forms, `slot ${slot} out of the page holds no form`).to.equal(0);
    else expect(forms, `slot ${slot} holds at most one form`).to.be.at.most(1);
    expect(log.ready, `slot ${slot}: gw-ready at most once per load`).to.be.at.most(log.loads);
    expect(log.expired, `slot ${slot}: every expiry announced`).to.be.at.least(log.expiries);
    expect(log.transitions, `slot ${slot}: never from submitting to expired`).to.not.include('submitting→expired');
    const { status } = model.slots[slot]!;
    if (sending(status)) {
      const shown = status === 'paying' ? 'submitting' : 'ready';
      expect(element.state, `slot ${slot}: a payment being sent stays ${shown}`).to.equal(shown);
      expect(forms, `slot ${slot}: a payment being sent keeps its form`).to.equal(1);
      expect(scripts, `slot ${slot}: a payment being sent keeps its widget`).to.have.length(1);
    }
  }
}

/** Waits until no element in the page is loading, then holds each to the model's state. */
async function settle(model: Model, real: Real): Promise<void> {
  const connected = SLOTS.filter((slot) => model.slots[slot]!.connected);
  await until(() => connected.every((slot) => real.elements[slot]!.state !== 'loading'), 'every load finished', 12_000);
  // A deadline that passed just now may still be firing: wait it out so each state is certain.
  for (const slot of connected) {
    const deadline = model.slots[slot]!.deadline;
    if (deadline !== undefined && deadlinePassed(model.slots[slot]!) === undefined) await sleep(deadline + TIMER_SLACK_MS - Date.now());
  }
  await until(() => connected.every((slot) => real.elements[slot]!.state !== 'loading'), 'every load finished', 12_000);
  await nextTask();
  catchUp(model, real);
  for (const slot of connected) {
    const state = model.slots[slot]!;
    const element = real.elements[slot]!;
    const expected = {
      live: 'ready',
      paying: 'submitting',
      walletPaying: 'ready',
      conflict: 'error',
      expired: 'expired',
      failed: 'error',
      out: undefined,
    }[state.status];
    expect(element.state, `slot ${slot} (${state.status})`).to.equal(expected);
    if (state.status === 'conflict') expect(real.logs[slot]!.errors.at(-1)?.code).to.equal('widget-error');
    if (element.state === 'ready' || element.state === 'submitting')
      expect(element.querySelectorAll('.wpwl-control-cardNumber'), `slot ${slot}: one card form`).to.have.length(1);
    state.readySeen = element.state === 'ready';
  }
  // The widget speaks the language of the element that loaded it: a new `lang` reached it (once off the payment).
  const owner = model.loadedBy;
  if (owner !== undefined && model.owners.size === 1 && model.slots[owner]!.status === 'live' && real.elements[owner]!.state === 'ready') {
    const options = real.win.wpwlOptions as { locale?: string } | undefined;
    expect(options?.locale, `slot ${owner}: the widget's locale`).to.equal(model.slots[owner]!.lang);
  }
  if (!connected.length) {
    const { win } = real;
    await until(() => !('wpwl' in win) && win.wpwlOptions === real.pageOptions, "the page's globals are back", 12_000);
    expect(widgetScripts(real.doc)).to.have.length(0);
  }
}

// ---- Commands ----

type Command = fc.AsyncCommand<Model, Real>;
const deadlines = fc.oneof(
  { weight: 3, arbitrary: fc.constant<number | undefined>(undefined) },
  { weight: 2, arbitrary: fc.integer({ min: 250, max: 1500 }) },
  { weight: 1, arbitrary: fc.constant(-1000) },
);
const deadlineAt = (offset: number | undefined) => (offset === undefined ? undefined : Date.now() + offset);

class Mount implements Command {
  constructor(
    readonly slot: Slot,
    readonly checkout: number,
    readonly offset: number | undefined,
  ) {}
  check = (model: Readonly<Model>) => !model.slots[this.slot]!.connected;
  async run(model: Model, real: Real) {
    catchUp(model, real);
    const state = model.slots[this.slot]!;
    Object.assign(state, { connected: true, checkout: this.checkout, deadline: deadlineAt(this.offset) });
    apply(real, model, this.slot);
    real.container.append(real.elements[this.slot]!);
    attempt(model, this.slot);
    await checkInvariants(model, real);
  }
  toString = () => `mount(${this.slot}, checkout ${this.checkout}, expires ${this.offset ?? 'later'})`;
}

class Unmount implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.connected;
  async run(model: Model, real: Real) {
    catchUp(model, real);
    real.elements[this.slot]!.remove();
    const paying = sending(model.slots[this.slot]!.status);
    Object.assign(model.slots[this.slot]!, { connected: false, status: 'out', readySeen: false });
    leave(model, this.slot);
    // Its payment goes on in the widget the others keep.
    if (paying && model.active !== undefined) model.sendingUnshown = true;
    await checkInvariants(model, real);
  }
  toString = () => `unmount(${this.slot})`;
}

/** React StrictMode: unmounted and mounted again in one task. Nothing changes. */
class StrictRemount implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.connected;
  async run(model: Model, real: Real) {
    catchUp(model, real);
    const element = real.elements[this.slot]!;
    const loads = real.logs[this.slot]!.loads;
    element.remove();
    real.container.append(element);
    await checkInvariants(model, real);
    expect(real.logs[this.slot]!.loads, 'a synchronous re-mount loads nothing').to.equal(loads);
  }
  toString = () => `strictRemount(${this.slot})`;
}

class SwitchCheckout implements Command {
  constructor(
    readonly slot: Slot,
    readonly checkout: number,
    readonly offset: number | undefined,
  ) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.connected && model.slots[this.slot]!.checkout !== this.checkout;
  async run(model: Model, real: Real) {
    catchUp(model, real);
    Object.assign(model.slots[this.slot]!, { checkout: this.checkout, deadline: deadlineAt(this.offset) });
    apply(real, model, this.slot);
    settingsChanged(model, this.slot);
    await checkInvariants(model, real);
  }
  toString = () => `switch(${this.slot}, checkout ${this.checkout}, expires ${this.offset ?? 'later'})`;
}

/** The app changes the element's language, which is also the widget's locale: a load setting. */
class ChangeLang implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.connected;
  async run(model: Model, real: Real) {
    catchUp(model, real);
    const state = model.slots[this.slot]!;
    state.lang = state.lang === 'de' ? 'fr' : 'de';
    real.elements[this.slot]!.lang = state.lang;
    settingsChanged(model, this.slot);
    await checkInvariants(model, real);
  }
  toString = () => `lang(${this.slot})`;
}

class Reload implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.connected;
  async run(model: Model, real: Real) {
    catchUp(model, real);
    real.elements[this.slot]!.reload();
    // Never while a payment of its checkout is being sent: not even later, once it is back on the form.
    if (paymentBeside(model, this.slot)) count('reload while paying');
    else attempt(model, this.slot);
    await checkInvariants(model, real);
  }
  toString = () => `reload(${this.slot})`;
}

class Settle implements Command {
  check = () => true;
  async run(model: Model, real: Real) {
    await settle(model, real);
    await checkInvariants(model, real);
  }
  toString = () => 'settle';
}

class Wait implements Command {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await sleep(this.ms);
    catchUp(model, real);
    await checkInvariants(model, real);
  }
  toString = () => `wait(${this.ms} ms)`;
}

/**
 * A shopper waits for the form (a settle), then pays: true when the element is
 * ready to take the card (it may have expired, failed or been refused instead).
 */
async function shopperWaits(model: Model, real: Real, slot: Slot, margin: number): Promise<boolean> {
  await settle(model, real);
  const state = model.slots[slot]!;
  return state.readySeen && state.status === 'live' && (state.deadline === undefined || state.deadline > Date.now() + margin);
}

/**
 * The page's one widget is sending a payment: another element's (even one whose own checkout setting changed
 * meanwhile, and waits), or one whose element left the page while the widget stayed for the others. A press here
 * (in that widget: a live element shows it) is refused before anything is sent or asked (one payment per checkout
 * at a time), and this element stays on its form.
 */
async function refusedWhileAnotherSends(model: Model, real: Real, slot: Slot, card: string): Promise<boolean> {
  const shown = model.slots.some((other, index) => index !== slot && sending(other.status));
  if (!shown && !model.sendingUnshown) return false;
  count('refused while another sends');
  const element = real.elements[slot]!;
  pay(element, card);
  expect(element.state, 'a press while another element sends this checkout is refused').to.equal('ready');
  await checkInvariants(model, real);
  return true;
}

/** A shopper pays with a card the gateway declines: back on the form, ready (or expired, if its deadline passed meanwhile). */
class PayDeclined implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.status === 'live';
  async run(model: Model, real: Real) {
    if (await shopperWaits(model, real, this.slot, 0)) {
      if (await refusedWhileAnotherSends(model, real, this.slot, CARDS.declined)) return;
      count('payDeclined');
      const element = real.elements[this.slot]!;
      pay(element, CARDS.declined);
      expect(element.state).to.equal('submitting');
      await until(() => element.state !== 'submitting', 'back on the form after the decline', 10_000);
      const state = model.slots[this.slot]!;
      if (deadlinePassed(state) !== false) {
        // Back on the form after its deadline: it expires at its next look, within a second.
        await until(() => element.state === 'expired', 'expired once back on the form', 3_000);
        Object.assign(state, { status: 'expired', readySeen: false });
        leave(model, this.slot);
      } else expect(element.state).to.equal('ready');
    }
    await checkInvariants(model, real);
  }
  toString = () => `payDeclined(${this.slot})`;
}

/** A shopper pays and the payment is held open on its way (no answer yet): from here the element must not let go of it. */
class PayHeldOpen implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.status === 'live';
  async run(model: Model, real: Real) {
    if (await shopperWaits(model, real, this.slot, 100)) {
      if (await refusedWhileAnotherSends(model, real, this.slot, CARDS.approved)) return;
      count('payHeldOpen');
      const element = real.elements[this.slot]!;
      let held: HeldPayment | undefined;
      real.holding = (payment) => (held = payment);
      pay(element, CARDS.approved);
      expect(element.state).to.equal('submitting');
      await until(() => held !== undefined, 'the payment sent', 3_000);
      real.held.set(this.slot, held!);
      Object.assign(model.slots[this.slot]!, { status: 'paying', readySeen: false });
    }
    await checkInvariants(model, real);
  }
  toString = () => `payHeldOpen(${this.slot})`;
}

/** The element's Google Pay button, which the widget disables while that wallet's payment is sent. */
const walletButton = (element: GwCheckout) => element.querySelector<HTMLButtonElement>('button.wpwl-google-pay-button');

/**
 * A shopper pays with the wallet, alone on the widget, and the payment is held open on its way: the element stays
 * `ready` (it cannot see the wallet's sheet) yet must keep the payment as a card payment is kept.
 */
class PayWallet implements Command {
  constructor(readonly slot: Slot) {}
  check = (model: Readonly<Model>) => model.slots[this.slot]!.status === 'live';
  async run(model: Model, real: Real) {
    const alone = () => model.owners.size === 1 && model.owners.has(this.slot);
    if ((await shopperWaits(model, real, this.slot, 100)) && alone()) {
      const element = real.elements[this.slot]!;
      if (model.sendingUnshown) {
        // The widget still sends the payment of an element that left: the wallet opens no sheet, pays nothing.
        count('wallet refused while another sends');
        walletButton(element)!.click();
        expect(real.doc.querySelector('dialog.wpwl-wallet-sheet') === null, 'no wallet sheet').to.equal(true);
        return checkInvariants(model, real);
      }
      count('payWallet');
      let held: HeldPayment | undefined;
      real.holding = (payment) => (held = payment);
      walletButton(element)!.click();
      real.doc.querySelector<HTMLButtonElement>('dialog.wpwl-wallet-sheet .wpwl-wallet-sheet-approve')!.click();
      await until(() => held !== undefined, 'the wallet payment sent', 3_000);
      real.held.set(this.slot, held!);
      expect(walletButton(element)!.disabled, 'the wallet is disabled while its payment is sent').to.equal(true);
      Object.assign(model.slots[this.slot]!, { status: 'walletPaying', readySeen: false });
    }
    await checkInvariants(model, real);
  }
  toString = () => `payWallet(${this.slot})`;
}

/**
 * The payment held open goes on to the gateway, which declines it: the widget takes the shopper back to the form
 * (its pay button enabled again, its one-payment lock lifted). The shopper is back on the form, where a setting changed meanwhile now applies, and a deadline passed meanwhile expires it.
 */
class BackOnForm implements Command {
  /** `relang`: the page sets a new `lang` just before (a framework re-rendering mid-payment), which must wait. */
  constructor(
    readonly slot: Slot,
    readonly relang: boolean,
  ) {}
  check = (model: Readonly<Model>) => sending(model.slots[this.slot]!.status);
  async run(model: Model, real: Real) {
    const element = real.elements[this.slot]!;
    const state = model.slots[this.slot]!;
    const wallet = state.status === 'walletPaying';
    if (this.relang) await new ChangeLang(this.slot).run(model, real);
    // Settings changed while paying (and not changed back) are waiting: they apply now, with a new load.
    const waiting = loadKeyOf(state) !== state.loaded;
    count(`back on the form${wallet ? ' from a wallet' : ''}${waiting ? ', settings waiting' : ''}`);
    const loads = real.logs[this.slot]!.loads;
    real.held.get(this.slot)!.release();
    real.held.delete(this.slot);
    if (wallet) await until(() => walletButton(element)?.disabled === false, 'the wallet usable again', 10_000);
    else await until(() => element.state !== 'submitting', 'back on the form', 10_000);
    Object.assign(state, { status: 'live', readySeen: false });
    if (waiting) {
      attempt(model, this.slot);
      // Off a card payment the element sees the pay button come back at once. Off a wallet's it sees it at its next
      // look, within a second, and then loads anew, or leaves `ready` (its deadline may have passed meanwhile).
      const expiredFirst = () => element.state === 'expired' && deadlinePassed(state) !== false;
      if (wallet) await until(() => real.logs[this.slot]!.loads > loads || element.state !== 'ready', "the element's next look", 3_000);
      else await nextTask();
      if (state.status === 'live' && !(wallet && expiredFirst()))
        expect(real.logs[this.slot]!.loads, 'the waiting setting applies now: a new load').to.be.above(loads);
    }
    if (state.status === 'live' && deadlinePassed(state) !== false) {
      // Past its deadline: it expires at its next look, within a second.
      await until(() => element.state === 'expired', 'expired once back on the form', 3_000);
      Object.assign(state, { status: 'expired', readySeen: false });
      leave(model, this.slot);
    }
    await checkInvariants(model, real);
  }
  toString = () => `backOnForm(${this.slot}${this.relang ? ', after a new lang' : ''})`;
}

/** The next request for the widget script fails (HTTP 500), as a CDN outage would. */
class ScriptFails implements Command {
  check = (model: Readonly<Model>) => !model.scriptFault;
  async run(model: Model, real: Real) {
    const fault = await merchantCall('POST', '/__sandbox/faults', { path: WIDGET_SCRIPT_PATH, mode: 'error', count: '1' });
    expect(fault.status).to.equal(200);
    model.scriptFault = true;
    await checkInvariants(model, real);
  }
  toString = () => 'scriptFails';
}

const slots = fc.constantFrom<Slot>(...SLOTS);
const checkoutIndex = fc.integer({ min: 0, max: POOL - 1 });
/** What a page and its shoppers do, weighted so that most runs reach a payment being sent. */
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(slots, checkoutIndex, deadlines).map(([slot, checkout, offset]) => new Mount(slot, checkout, offset)) },
  { weight: 2, arbitrary: slots.map((slot) => new Unmount(slot)) },
  { weight: 1, arbitrary: slots.map((slot) => new StrictRemount(slot)) },
  {
    weight: 2,
    arbitrary: fc.tuple(slots, checkoutIndex, deadlines).map(([slot, checkout, offset]) => new SwitchCheckout(slot, checkout, offset)),
  },
  { weight: 2, arbitrary: slots.map((slot) => new ChangeLang(slot)) },
  { weight: 2, arbitrary: slots.map((slot) => new Reload(slot)) },
  { weight: 2, arbitrary: fc.constant(new Settle()) },
  { weight: 2, arbitrary: fc.integer({ min: 100, max: 1200 }).map((ms) => new Wait(ms)) },
  { weight: 2, arbitrary: slots.map((slot) => new PayDeclined(slot)) },
  { weight: 3, arbitrary: slots.map((slot) => new PayHeldOpen(slot)) },
  { weight: 2, arbitrary: slots.map((slot) => new PayWallet(slot)) },
  { weight: 4, arbitrary: fc.tuple(slots, fc.boolean()).map(([slot, relang]) => new BackOnForm(slot, relang)) },
  { weight: 1, arbitrary: fc.constant(new ScriptFails()) },
);

async function tearDown(real: Real): Promise<void> {
  real.restoreFetch();
  real.observer.disconnect();
  for (const element of real.elements) element.remove();
  await merchantCall('POST', '/__sandbox/faults', { path: WIDGET_SCRIPT_PATH, mode: 'error', count: '0' });
  await until(() => !('wpwl' in real.win) && widgetScripts(real.doc).length === 0, 'the widget unloaded', 12_000);
  real.close();
}

/** The model of a fresh page: nothing shown, or the rendered element (slot 0) showing the first checkout. */
function initialModel(page: Page): Model {
  const model: Model = {
    slots: SLOTS.map(() => ({
      connected: false,
      checkout: undefined,
      deadline: undefined,
      status: 'out',
      readySeen: false,
      loaded: undefined,
      lang: 'en',
    })),
    active: undefined,
    owners: new Set(),
    scriptFault: false,
    loadedBy: undefined,
    sendingUnshown: false,
  };
  if (page.rendered) {
    Object.assign(model.slots[0]!, { connected: true, checkout: 0, status: 'live' });
    model.slots[0]!.loaded = loadKeyOf(model.slots[0]!);
    model.active = 0;
    model.owners.add(0);
    model.loadedBy = 0;
  }
  return model;
}

/** Runs the model `runs` times on pages `openPage` makes; fails with the counterexample and the invariant it broke. */
export async function runModel(openPage: (checkout: Checkout) => Promise<Page>, runs: number): Promise<void> {
  await assertInBrowser(
    fc.asyncProperty(fc.array(command, { minLength: 8, maxLength: 20 }), async (sequence) => {
      const checkouts = await Promise.all(Array.from({ length: POOL }, () => createCheckout()));
      const page = await openPage(checkouts[0]!);
      const real = setUp(checkouts, page);
      const model = initialModel(page);
      try {
        await fc.asyncModelRun(() => ({ model, real }), sequence);
        await settle(model, real);
      } finally {
        await tearDown(real);
      }
    }),
    { numRuns: runs },
  );
}
