// Solid pages with both elements: the lines marked @ts-expect-error must stay errors (tsc checks it).
import type { Gw3dsHandler, ThreeDsRedirect } from 'gw-elements';
import 'gw-elements';

declare const termsAccepted: () => boolean, refetchCheckout: () => void; // yours

export function Pay(props: { checkout: { id: string; integrity: string }; redirect?: ThreeDsRedirect }) {
  let handler: Gw3dsHandler | undefined;
  return (
    <>
      <gw-checkout
        checkoutId={props.checkout.id}
        integrity={props.checkout.integrity}
        baseUrl="https://eu-test.oppwa.com"
        shopperResultUrl={`${location.origin}/shop/result`}
        prop:options={{ labels: { submit: 'Pay 12.00 EUR' } }}
        on:gw-before-submit={(event) => {
          if (!termsAccepted()) event.preventDefault();
        }}
        on:gw-error={(event) => console.warn(event.detail.code, event.detail.attribute)}
        on:gw-expired={() => refetchCheckout()}
      />
      <gw-3ds-handler
        ref={handler}
        redirect={props.redirect}
        challengeWindow="05"
        on:gw-3ds-complete={{
          once: true,
          handleEvent: (event) =>
            fetch(`/api/card-payments/return?id=${event.detail.id}&resourcePath=${encodeURIComponent(event.detail.resourcePath)}`),
        }}
        on:gw-error={(event) => event.detail.code === 'challenge-timeout' && handler?.label}
      />
    </>
  );
}

export function Misuses() {
  return (
    <>
      {/* @ts-expect-error widgetStyle is card or plain */}
      <gw-checkout widgetStyle="fancy" />
      {/* @ts-expect-error prop:methodTimeout is a number of milliseconds */}
      <gw-3ds-handler prop:methodTimeout="10s" />
      {/* @ts-expect-error redirect is the gateway's redirect object */}
      <gw-3ds-handler redirect="https://acs.example" />
      {/* @ts-expect-error <gw-3ds-handler>'s gw-error codes are its own */}
      <gw-3ds-handler on:gw-error={(event) => event.detail.code === 'missing-attribute'} />
      {/* @ts-expect-error gw-3ds-complete's detail has no checkoutId */}
      <gw-3ds-handler on:gw-3ds-complete={(event) => event.detail.checkoutId} />
      {/* @ts-expect-error gw-ready's detail has no resourcePath */}
      <gw-checkout on:gw-ready={(event) => event.detail.resourcePath} />
    </>
  );
}
