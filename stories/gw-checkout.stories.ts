/**
 * `<gw-checkout>` in each of its states, against the sandbox Storybook starts
 * (.storybook/main.ts, through the sandbox's merchant proxy). Each story's play function waits for the
 * state it shows, so the story test fails when a state cannot be reached.
 */
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import 'gw-elements/checkout';
// The Arabic stories show the element's own texts in Arabic.
import 'gw-elements/checkout/translations/ar';
import type { WpwlOptions } from 'gw-elements';
import {
  createCheckout,
  createOneClickCheckout,
  hangNextRequest,
  MADA_ENTITY_ID,
  shopperResultUrl,
  untilState,
  type StoryCheckout,
} from './support/gateway.js';

interface CheckoutArgs {
  brands: string;
  locale: string;
  'widget-style': 'card' | 'plain';
}

interface Loaded {
  checkout?: StoryCheckout;
  /** Epoch milliseconds for `expires-at`, when the story sets it. */
  expiresAt?: number;
  /** wpwlOptions for the element's `options`, when the story sets them. */
  options?: WpwlOptions;
}

const meta: Meta<CheckoutArgs> = {
  title: 'Elements/gw-checkout',
  component: 'gw-checkout',
  args: { brands: 'VISA MASTER', locale: 'en', 'widget-style': 'card' },
  argTypes: {
    'widget-style': { control: 'inline-radio', options: ['card', 'plain'] },
    locale: { control: 'inline-radio', options: ['en', 'de', 'ar'] },
  },
  render: (args, { loaded }) => {
    const { checkout, expiresAt, options } = loaded as Loaded;
    return html`<gw-checkout
      checkout-id=${ifDefined(checkout?.id)}
      integrity=${ifDefined(checkout?.integrity)}
      base-url=${ifDefined(checkout?.baseUrl)}
      shopper-result-url=${shopperResultUrl()}
      brands=${args.brands}
      locale=${args.locale}
      widget-style=${args['widget-style']}
      expires-at=${ifDefined(expiresAt)}
      .options=${options}
    ></gw-checkout>`;
  },
  parameters: {
    docs: {
      // The gateway's widget serves one checkout per document: each story gets its own frame.
      story: { inline: false, iframeHeight: 460 },
      description: {
        component:
          "The gateway's hosted card form for one checkout. Your server creates the checkout (`POST /v1/checkouts`) and hands the page its `id` and `integrity`; the element loads the widget script, renders the form and reports what happens as `gw-*` events. The access token never reaches the page.",
      },
    },
  },
};
export default meta;

type Story = StoryObj<CheckoutArgs>;

const element = (canvas: HTMLElement) => canvas.querySelector('gw-checkout');

// Ready first: the docs page opens on its first story, and a ready form says what the element is for.
/** The card form, ready for the shopper. Try `4200 0000 0000 0000` with any future expiry. */
export const Ready: Story = {
  loaders: [async () => ({ checkout: await createCheckout() })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'ready'),
};

/** The widget is loading its checkout from the gateway (here the sandbox holds that answer back). */
export const Loading: Story = {
  loaders: [
    async () => {
      const checkout = await createCheckout();
      await hangNextRequest(`/v1/checkouts/${checkout.id}/widget`);
      return { checkout };
    },
  ],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'loading'),
};

/** No checkout yet: the element waits for `checkout-id`. */
export const Idle: Story = {
  play: ({ canvasElement }) => untilState(element(canvasElement), 'idle'),
};

/** The German widget in the plain layout. */
export const ReadyGermanPlain: Story = {
  name: 'Ready (de, plain)',
  args: { locale: 'de', 'widget-style': 'plain' },
  loaders: [async () => ({ checkout: await createCheckout() })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'ready'),
};

/** Arabic, right to left: the page's `lang="ar" dir="rtl"` picks the element's texts and mirrors its layout. */
const rightToLeft: Story['decorators'] = [(story) => html`<div lang="ar" dir="rtl">${story()}</div>`];

/** The Arabic widget, laid out right to left; the card number, expiry and CVV stay left to right. */
export const ReadyArabic: Story = {
  name: 'Ready (ar, right to left)',
  args: { locale: 'ar' },
  decorators: rightToLeft,
  loaders: [async () => ({ checkout: await createCheckout() })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'ready'),
};

/**
 * A one-click checkout: your server creates it with the shopper's saved cards
 * (`registrations[n].id`) and the widget lists them (brand, last 4, expiry)
 * above the new-card form. Pay now with the chosen card, or enter another.
 */
export const SavedCards: Story = {
  name: 'Saved cards (one-click)',
  parameters: { docs: { story: { iframeHeight: 640 } } },
  loaders: [async () => ({ checkout: await createOneClickCheckout() })],
  play: async ({ canvasElement }) => {
    const checkout = element(canvasElement);
    await untilState(checkout, 'ready');
    // `ready` comes after the saved cards are in the page.
    const listed = checkout?.querySelectorAll('input.wpwl-control-registration[type=radio]').length;
    if (listed !== 2) throw new Error(`the widget lists ${listed} saved cards, not 2`);
  },
};

/** The shopper pressed pay and the gateway has not answered yet (the sandbox holds the answer back). */
export const Submitting: Story = {
  loaders: [
    async () => {
      const checkout = await createCheckout();
      await hangNextRequest(`/v1/checkouts/${checkout.id}/widget/payments`);
      return { checkout };
    },
  ],
  play: async ({ canvasElement }) => {
    const checkout = element(canvasElement);
    await untilState(checkout, 'ready');
    const fill = (field: string, value: string) => {
      const input = checkout!.querySelector<HTMLInputElement>(`.wpwl-control-${field}`);
      if (!input) throw new Error(`the widget has no ${field} field`);
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    fill('cardNumber', '4200000000000000');
    fill('expiry', `12/${String(new Date().getFullYear() + 2).slice(2)}`);
    fill('cvv', '123');
    fill('cardHolder', 'Jane Jones');
    // As the shopper does: the pay button of the widget's card form.
    checkout!.querySelector<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.click();
    await untilState(checkout, 'submitting');
  },
};

/** A setting is wrong (here `base-url` is missing): nothing is loaded, `gw-error` says what to fix. */
export const Failed: Story = {
  name: 'Error',
  render: (args) =>
    html`<gw-checkout checkout-id="8ac7a4c9123456789" integrity="sha384-placeholder" shopper-result-url=${shopperResultUrl()} brands=${args.brands}></gw-checkout>`,
  play: ({ canvasElement }) => untilState(element(canvasElement), 'error'),
};

/**
 * The checkout's 30 minutes ran out while the form was open. `expires-at` is
 * when your server's checkout expires (its creation + 30 minutes); here it is
 * 2 seconds after the story starts.
 */
export const Expired: Story = {
  loaders: [async () => ({ checkout: await createCheckout(), expiresAt: Date.now() + 2000 })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'expired'),
};

/** The expired alert in Arabic, right to left (the element's own text, from its `lang`). */
export const ExpiredArabic: Story = { ...Expired, name: 'Expired (ar, right to left)', args: { locale: 'ar' }, decorators: rightToLeft };

/** The wallet options a KSA shop sets: MADA told apart by BIN before VISA and MASTER, and Apple Pay's sheet. */
const KSA_OPTIONS: WpwlOptions = {
  brandDetection: true,
  brandDetectionType: 'binlist',
  brandDetectionPriority: ['MADA', 'VISA', 'MASTER'],
  applePay: {
    displayName: 'Storybook Shop',
    total: { label: 'Storybook Shop' },
    countryCode: 'SA',
    supportedNetworks: ['mada', 'visa', 'masterCard'],
    merchantCapabilities: ['supports3DS'],
  },
};

/**
 * Wallets and MADA on the MADA entity: the Apple Pay button (the sandbox's stand-in sheet, never a
 * real wallet), STC Pay's stand-in flow (any `05xxxxxxxx`, then one-time password `123456`
 * approves, `000000` declines) and the card form, which switches to MADA for `4464 0400 0000 0007`.
 */
export const WalletsAndMada: Story = {
  name: 'Wallets and MADA',
  args: { brands: 'APPLEPAY STC_PAY MADA' },
  parameters: { docs: { story: { iframeHeight: 720 } } },
  loaders: [async () => ({ checkout: await createCheckout('30.00', MADA_ENTITY_ID), options: KSA_OPTIONS })],
  play: async ({ canvasElement }) => {
    const checkout = element(canvasElement);
    await untilState(checkout, 'ready');
    for (const selector of ['.wpwl-apple-pay-button', '.wpwl-stcPay', '.wpwl-control-cardNumber']) {
      if (!checkout!.querySelector(selector)) throw new Error(`the widget shows no ${selector}`);
    }
  },
};

/**
 * Google Pay beside the VISA/MASTER card form on the card entity. With binlist detection a MADA
 * card (`4464 0400 0000 0007`) is steered off this form, as KSA shops keep MADA cards on their MADA entity.
 */
export const GooglePayAndCards: Story = {
  name: 'Google Pay and cards (MADA steered off)',
  args: { brands: 'GOOGLEPAY VISA MASTER' },
  loaders: [
    async () => ({
      checkout: await createCheckout(),
      options: {
        ...KSA_OPTIONS,
        googlePay: { gatewayMerchantId: 'the card entity', merchantName: 'Storybook Shop' },
      } satisfies WpwlOptions,
    }),
  ],
  play: async ({ canvasElement }) => {
    const checkout = element(canvasElement);
    await untilState(checkout, 'ready');
    const number = checkout!.querySelector<HTMLInputElement>('.wpwl-control-cardNumber')!;
    number.value = '4464040000000007';
    number.dispatchEvent(new Event('input', { bubbles: true }));
    if (number.getAttribute('aria-invalid') !== 'true') throw new Error('a MADA card was not steered off the VISA/MASTER form');
  },
};
