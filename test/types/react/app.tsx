// A React 19 page with both elements: the lines marked @ts-expect-error must stay errors (tsc checks it).
import type { ThreeDsRedirect } from 'gw-elements';

export function Pay({ checkoutId, redirect }: { checkoutId: string; redirect: ThreeDsRedirect }) {
  return (
    <>
      <gw-checkout
        checkoutId={checkoutId}
        integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"
        baseUrl="https://gateway.example"
        shopperResultUrl="https://shop.example/result"
        widgetStyle="plain"
        expiresAt={new Date()}
        options={{ locale: 'de' }}
        ongw-ready={(event) => event.detail.expiresAt.getTime()}
        ongw-before-submit={(event) => event.preventDefault()}
        ongw-error={(event) => event.detail.code === 'missing-attribute' && event.detail.attribute}
      />
      <gw-3ds-handler
        redirect={redirect}
        challengeWindow="05"
        methodTimeout={10_000}
        challengeTimeout={600_000}
        label="Card check"
        ongw-3ds-challenge-start={(event) => event.detail.challengeWindow}
        ongw-3ds-complete={(event) => event.detail.resourcePath}
        ongw-error={(event) => event.detail.code === 'challenge-timeout'}
        className="three-ds"
      />
      <gw-checkout
        brands={['MADA', 'VISA', 'MASTER', 'APPLEPAY', 'STC_PAY']}
        options={{
          brandDetection: true,
          brandDetectionType: 'binlist',
          brandDetectionPriority: ['MADA', 'VISA', 'MASTER'],
          applePay: {
            displayName: 'Shop',
            total: { label: 'Shop' },
            supportedNetworks: ['mada', 'visa'],
            merchantCapabilities: ['supports3DS'],
          },
          googlePay: { gatewayMerchantId: '8ac7a4c79394bdc801939736f17e063d' },
        }}
      />
      {/* @ts-expect-error brands are the platform's names */}
      <gw-checkout brands={['VISAA']} />
      {/* @ts-expect-error brands is a list, not the attribute's string */}
      <gw-checkout brands="VISA MASTER" />
      {/* @ts-expect-error googlePay needs gatewayMerchantId, the entity id */}
      <gw-checkout options={{ googlePay: { merchantId: 'shop' } }} />
      {/* @ts-expect-error applePay's merchantCapabilities are Apple's names */}
      <gw-checkout options={{ applePay: { merchantCapabilities: ['3DS'] } }} />
      {/* @ts-expect-error widgetStyle is card or plain */}
      <gw-checkout widgetStyle="fancy" />
      {/* @ts-expect-error methodTimeout is a number of milliseconds */}
      <gw-3ds-handler methodTimeout="10s" />
      {/* @ts-expect-error redirect is the gateway's redirect object */}
      <gw-3ds-handler redirect="https://acs.example" />
      {/* @ts-expect-error <gw-3ds-handler>'s gw-error codes are its own */}
      <gw-3ds-handler ongw-error={(event) => event.detail.code === 'missing-attribute'} />
      {/* @ts-expect-error gw-3ds-complete's detail has no checkoutId */}
      <gw-3ds-handler ongw-3ds-complete={(event) => event.detail.checkoutId} />
    </>
  );
}
