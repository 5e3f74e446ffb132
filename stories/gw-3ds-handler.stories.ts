/**
 * `<gw-3ds-handler>` in each of its states, with redirects from real pending
 * payments of the sandbox Storybook starts: the 3DS method, the challenge in
 * every EMVCo window size, completion, timeout and a refused (unsafe) URL.
 */
import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import 'gw-elements/3ds-handler';
// The Arabic stories show the element's own texts in Arabic.
import 'gw-elements/3ds-handler/translations/ar';
import type { ChallengeWindow } from 'gw-elements/server';
import { CARDS } from 'gw-elements/sandbox/test-cards';
import { createThreeDsRedirect, hangNextRequest, untilState } from './support/gateway.js';

interface HandlerArgs {
  'challenge-window': ChallengeWindow;
  'method-timeout': number;
  'challenge-timeout': number;
}

interface Loaded {
  redirect?: Record<string, any>;
}

const meta: Meta<HandlerArgs> = {
  title: 'Elements/gw-3ds-handler',
  component: 'gw-3ds-handler',
  args: { 'challenge-window': '02', 'method-timeout': 10_000, 'challenge-timeout': 600_000 },
  argTypes: {
    'challenge-window': { control: 'select', options: ['01', '02', '03', '04', '05'] },
  },
  render: (args, { loaded }) => html`<gw-3ds-handler
    challenge-window=${args['challenge-window']}
    method-timeout=${args['method-timeout']}
    challenge-timeout=${args['challenge-timeout']}
    .redirect=${(loaded as Loaded).redirect}
  ></gw-3ds-handler>`,
  parameters: {
    docs: {
      // Each story in its own frame, so the 3DS method story's held request cannot hold another story.
      story: { inline: false, iframeHeight: 520 },
      description: {
        component:
          "Runs the 3-D Secure step of a server-to-server payment. Your server creates the payment (`POST /v1/payments`); when the answer is pending (`000.200.000`) hand its `redirect` to the element. It posts the 3DS method into a hidden frame, shows the issuer's challenge in a frame of the EMVCo window size, and fires `gw-3ds-complete` when the shopper is back on your shopper result URL. Then read the payment on your server.",
      },
    },
  },
};
export default meta;

type Story = StoryObj<HandlerArgs>;

const element = (canvas: HTMLElement) => canvas.querySelector('gw-3ds-handler');

/** The hidden 3DS method frame is loading (the sandbox holds the method page back). */
export const Method: Story = {
  name: '3DS method',
  args: { 'method-timeout': 600_000 },
  loaders: [
    async () => {
      const redirect = await createThreeDsRedirect(CARDS.challenge);
      await hangNextRequest('/v1/threeDSecure/method');
      return { redirect };
    },
  ],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'method'),
};

const challengeIn = (window: ChallengeWindow): Story => ({
  args: { 'challenge-window': window },
  loaders: [async () => ({ redirect: await createThreeDsRedirect(CARDS.challengeNoMethod, window) })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'challenge'),
});

/** The issuer's challenge page (the sandbox's test ACS) in window 01, 250 × 400. */
export const Challenge01: Story = { name: 'Challenge 01 (250 × 400)', ...challengeIn('01') };
/** Window 02, 390 × 400 (the default). */
export const Challenge02: Story = { name: 'Challenge 02 (390 × 400)', ...challengeIn('02') };
/** Window 03, 500 × 600. */
export const Challenge03: Story = { name: 'Challenge 03 (500 × 600)', ...challengeIn('03') };
/** Window 04, 600 × 400. */
export const Challenge04: Story = { name: 'Challenge 04 (600 × 400)', ...challengeIn('04') };
/** Window 05, full screen (the frame fills its container). */
export const Challenge05: Story = { name: 'Challenge 05 (full screen)', ...challengeIn('05') };

/** A frictionless card: the ACS finishes without the shopper and `gw-3ds-complete` fires. */
export const Complete: Story = {
  loaders: [async () => ({ redirect: await createThreeDsRedirect(CARDS.frictionlessNoMethod) })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'complete'),
};

/** The shopper did not finish the challenge within `challenge-timeout` (here 1.5 seconds). */
export const Timeout: Story = {
  args: { 'challenge-timeout': 1500 },
  loaders: [async () => ({ redirect: await createThreeDsRedirect(CARDS.challengeNoMethod) })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'timeout'),
};

/** A redirect whose URL is not https: (or http: on localhost) is refused before anything is posted. */
export const UnsafeUrl: Story = {
  name: 'Unsafe URL',
  loaders: [async () => ({ redirect: { url: 'javascript:alert(document.domain)', parameters: [] } })],
  play: ({ canvasElement }) => untilState(element(canvasElement), 'error'),
};

/** Arabic, right to left: the page's `lang="ar" dir="rtl"` picks the element's texts and mirrors its layout. */
const rightToLeft: Story['decorators'] = [(story) => html`<div lang="ar" dir="rtl">${story()}</div>`];

/** The 3DS method in Arabic, right to left (the spinner on the right). */
export const MethodArabic: Story = { ...Method, name: '3DS method (ar, right to left)', decorators: rightToLeft };

/** The timeout alert in Arabic, right to left. */
export const TimeoutArabic: Story = { ...Timeout, name: 'Timeout (ar, right to left)', decorators: rightToLeft };
