// <gw-3ds-handler>'s challenge window sizes and its accessibility in every state, against the real sandbox.
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import { sandboxUrl } from '/__gw/sandbox.js';
import '../../../src/components/gw-3ds-handler/define.js';
import type { Gw3dsHandler } from '../../../src/components/gw-3ds-handler/gw-3ds-handler.js';
import { CARDS } from '../../../src/sandbox/gateway/triggers.js';
import { clickInFrame, pendingThreeDsPayment, withHangingMethod } from '../../support/three-ds.js';

const ACS = `${sandboxUrl}/v1/threeDSecure/execute`;

/** A challenge straight to the sandbox's ACS with an unknown session: it answers a page, enough to size and inspect the frame. */
const unknownSession = { url: ACS, parameters: [{ name: 'threeDSSessionData', value: 'unknown' }] };

async function challengeShown(el: Gw3dsHandler): Promise<HTMLIFrameElement> {
  const started = oneEvent(el, 'gw-3ds-challenge-start');
  el.redirect = unknownSession;
  await started;
  return el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part~="challenge-frame"]')!;
}

afterEach(() => fixtureCleanup());

/** What the element shows the shopper in its own regions, by part. */
function shown(el: Gw3dsHandler, part: string): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~="${part}"]`);
}

/** The element's own challenge frame, so a click never lands in a frame a replaced or parallel flow left behind. */
const challengeFrameName = (el: Gw3dsHandler) => el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part~="challenge-frame"]')!.name;

describe('<gw-3ds-handler> challenge window', () => {
  for (const [size, width, height] of [
    ['01', 250, 400],
    ['02', 390, 400],
    ['03', 500, 600],
    ['04', 600, 400],
  ] as const) {
    it(`sizes the challenge frame ${width}x${height} for challenge-window ${size}`, async () => {
      const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-window=${size}></gw-3ds-handler>`);
      const frame = await challengeShown(el);
      const box = frame.getBoundingClientRect();
      expect([box.width, box.height]).to.deep.equal([width, height]);
    });
  }

  it('fills the width and the viewport height for challenge-window 05 (full screen)', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-window="05"></gw-3ds-handler>`);
    const frame = await challengeShown(el);
    const box = frame.getBoundingClientRect();
    expect(box.width).to.equal(el.shadowRoot!.querySelector('[part="container"]')!.clientWidth);
    expect(box.height).to.equal(window.innerHeight);
  });

  for (const value of ['', '06', '2', 'full', '00']) {
    it(`falls back to 02 for challenge-window "${value}"`, async () => {
      const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-window=${value}></gw-3ds-handler>`);
      const started = oneEvent(el, 'gw-3ds-challenge-start');
      const frame = await challengeShown(el);
      expect(el.effectiveChallengeWindow).to.equal('02');
      expect((await started).detail.challengeWindow).to.equal('02');
      expect(frame.getBoundingClientRect().width).to.equal(390);
    });
  }

  it('uses 02 when the attribute is absent, and lets the page override the size with custom properties', async () => {
    const el = await fixture<Gw3dsHandler>(
      html`<gw-3ds-handler style="--gw-3ds-frame-width: 321px; --gw-3ds-frame-height: 234px"></gw-3ds-handler>`,
    );
    expect(el.challengeWindow).to.equal('02');
    const frame = await challengeShown(el);
    const box = frame.getBoundingClientRect();
    expect([box.width, box.height]).to.deep.equal([321, 234]);
  });

  it('scrolls its container when the page caps its height below the frame', async () => {
    const el = await fixture<Gw3dsHandler>(
      html`<gw-3ds-handler challenge-window="03" style="--gw-3ds-container-max-height: 200px"></gw-3ds-handler>`,
    );
    await challengeShown(el);
    const container = el.shadowRoot!.querySelector<HTMLElement>('[part="container"]')!;
    expect(container.clientHeight).to.equal(200);
    expect(container.scrollHeight).to.be.greaterThan(200);
    expect(getComputedStyle(container).overflowY).to.equal('auto');
  });

  it('shows the container only during the challenge', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler></gw-3ds-handler>`);
    const container = el.shadowRoot!.querySelector<HTMLElement>('[part="container"]')!;
    expect(getComputedStyle(container).display).to.equal('none');
    await challengeShown(el);
    expect(getComputedStyle(container).display).to.equal('block');
    el.cancel();
    expect(getComputedStyle(container).display).to.equal('none');
  });
});

describe('<gw-3ds-handler> accessibility (axe) in every state', () => {
  it('idle', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler></gw-3ds-handler>`);
    expect(el.state).to.equal('idle');
    await expect(el).to.be.accessible();
  });

  it('method: the hidden frame is out of the accessibility tree and the tab order', async () => {
    const { body } = await pendingThreeDsPayment(CARDS.challenge);
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler method-timeout="5000"></gw-3ds-handler>`);
    el.redirect = await withHangingMethod(body.redirect);
    await el.updateComplete;
    expect(el.state).to.equal('method');
    const methodFrame = el.shadowRoot!.querySelector<HTMLIFrameElement>('.method-frames iframe')!;
    expect(methodFrame.tabIndex).to.equal(-1);
    expect(methodFrame.closest('[aria-hidden="true"]')).to.not.equal(null);
    await el.updateComplete;
    // The shopper is told what is going on while the hidden method runs.
    expect(shown(el, 'status')!.getAttribute('role')).to.equal('status');
    expect(shown(el, 'status')!.textContent).to.contain('Checking your card with your bank');
    expect(getComputedStyle(shown(el, 'spinner')!).display).to.not.equal('none');
    await expect(el).to.be.accessible();
  });

  it('challenge: the frame has an accessible name (the label attribute)', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler label="Bestätigung Ihrer Karte"></gw-3ds-handler>`);
    const frame = await challengeShown(el);
    expect(frame.title).to.equal('Bestätigung Ihrer Karte');
    expect(el.shadowRoot!.activeElement, 'focus moves to the challenge').to.equal(frame);
    await expect(el).to.be.accessible();
    el.label = 'Vérification de votre carte';
    await el.updateComplete;
    expect(frame.title).to.equal('Vérification de votre carte');
  });

  it('complete', async () => {
    const { body } = await pendingThreeDsPayment(CARDS.challengeNoMethod);
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler></gw-3ds-handler>`);
    const started = oneEvent(el, 'gw-3ds-challenge-start');
    el.redirect = body.redirect;
    await started;
    const complete = oneEvent(el, 'gw-3ds-complete');
    await clickInFrame(ACS, 'Complete authentication', challengeFrameName(el));
    await complete;
    expect(el.state).to.equal('complete');
    await el.updateComplete;
    expect(shown(el, 'status')!.textContent).to.contain('Card verification finished');
    expect(shown(el, 'spinner')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('error', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler></gw-3ds-handler>`);
    const error = oneEvent(el, 'gw-error');
    el.redirect = { url: 'javascript:void 0', parameters: [] };
    await error;
    expect(el.state).to.equal('error');
    await el.updateComplete;
    expect(shown(el, 'error')!.getAttribute('role')).to.equal('alert');
    expect(shown(el, 'error')!.textContent).to.contain('Your card could not be verified');
    expect(shown(el, 'status')!.textContent!.trim()).to.equal('');
    await expect(el).to.be.accessible();
  });

  it('timeout', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-timeout="200"></gw-3ds-handler>`);
    const error = oneEvent(el, 'gw-error');
    el.redirect = unknownSession;
    await error;
    expect(el.state).to.equal('timeout');
    await el.updateComplete;
    expect(shown(el, 'timeout')!.getAttribute('role')).to.equal('alert');
    expect(shown(el, 'timeout')!.textContent).to.contain('timed out');
    expect(shown(el, 'error')).to.equal(null);
    await expect(el).to.be.accessible();
  });
});

describe('<gw-3ds-handler> messages: slots, parts and the console', () => {
  it('shows nothing of its own while idle', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler></gw-3ds-handler>`);
    expect(shown(el, 'status')!.textContent!.trim()).to.equal('');
    expect(el.getBoundingClientRect().height).to.equal(0);
  });

  it("puts the page's own content in place of each default message", async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler challenge-timeout="200">
      <p slot="error">Bitte versuchen Sie es erneut.</p>
      <p slot="timeout">Zeit abgelaufen.</p>
    </gw-3ds-handler>`);
    const error = oneEvent(el, 'gw-error');
    el.redirect = unknownSession;
    await error;
    await el.updateComplete;
    const slot = shown(el, 'timeout')!.querySelector('slot')!;
    expect(slot.assignedElements().map((node) => node.textContent)).to.deep.equal(['Zeit abgelaufen.']);
    await expect(el).to.be.accessible();
  });

  it('lets the page style a message through its part and custom properties', async () => {
    const style = document.createElement('style');
    style.textContent = 'gw-3ds-handler.styled::part(error) { outline: 3px solid rgb(1, 2, 3); }';
    document.head.append(style);
    try {
      const el = await fixture<Gw3dsHandler>(
        html`<gw-3ds-handler class="styled" style="--gw-3ds-error-background: rgb(4, 5, 6)"></gw-3ds-handler>`,
      );
      const error = oneEvent(el, 'gw-error');
      el.redirect = { url: 'javascript:void 0', parameters: [] };
      await error;
      await el.updateComplete;
      const alert = shown(el, 'error')!;
      expect(getComputedStyle(alert).outlineColor).to.equal('rgb(1, 2, 3)');
      expect(getComputedStyle(alert).backgroundColor).to.equal('rgb(4, 5, 6)');
    } finally {
      style.remove();
    }
  });

  it('tells the developer on the console what gw-error says', async () => {
    const el = await fixture<Gw3dsHandler>(html`<gw-3ds-handler></gw-3ds-handler>`);
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const error = oneEvent(el, 'gw-error');
      el.redirect = { url: 'javascript:void 0', parameters: [] };
      const { detail } = await error;
      expect(logged).to.have.length(1);
      expect(logged[0]![0]).to.equal(`<gw-3ds-handler>: ${detail.message}`);
      expect(logged[0]![1]).to.equal(el);
    } finally {
      console.error = original;
    }
  });
});
