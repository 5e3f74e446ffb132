// Angular components using both elements, checked by ngc with strictTemplates:
// the template lines marked expect-error must be exactly the lines it reports.
import { Component, CUSTOM_ELEMENTS_SCHEMA, ElementRef, input, output, viewChild } from '@angular/core';
import type { Gw3dsCompleteEvent, GwCheckout, GwReadyEvent, ThreeDsRedirect } from 'gw-elements';
import 'gw-elements';

@Component({
  selector: 'app-pay',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <gw-checkout #form [checkoutId]="checkout().id" [integrity]="checkout().integrity" base-url="https://eu-test.oppwa.com"
      shopper-result-url="https://shop.example/shop/result" (gw-ready)="shown($event)" (gw-error)="report($event)"
      (gw-before-submit)="termsAccepted() || $event.preventDefault()" (gw-expired)="expired.emit(form.checkoutId)"></gw-checkout>
    @if (redirect(); as redirect) {
      <gw-3ds-handler [redirect]="redirect" (gw-3ds-complete)="verified($event)"></gw-3ds-handler>
    }
  `,
})
export class PayComponent {
  checkout = input.required<{ id: string; integrity: string }>();
  redirect = input<ThreeDsRedirect>();
  expired = output<string | undefined>();
  element = viewChild.required<ElementRef<GwCheckout>>('form');
  termsAccepted() {
    return true; /* yours */
  }
  shown(event: GwReadyEvent) {
    console.info('the form is shown until', event.detail.expiresAt);
  }
  // Both elements fire gw-error: through the page-wide event map its detail is either element's.
  report(event: HTMLElementEventMap['gw-error']) {
    console.warn(event.detail.code, event.detail.message, this.element().nativeElement.state);
  }
  verified(event: Gw3dsCompleteEvent) {
    void fetch(`/api/card-payments/return?id=${event.detail.id}&resourcePath=${encodeURIComponent(event.detail.resourcePath)}`);
  }
}

@Component({
  selector: 'app-misuses',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <gw-3ds-handler (gw-3ds-complete)="shown($event)"></gw-3ds-handler> <!-- expect-error: gw-ready's handler does not take gw-3ds-complete -->
    <gw-checkout (gw-ready)="$event.detail.resourcePath"></gw-checkout> <!-- expect-error: gw-ready's detail has no resourcePath -->
    <gw-checkout #form (gw-expired)="form.widgetStyle = 'fancy'"></gw-checkout> <!-- expect-error: widgetStyle is card or plain -->
    <gw-3ds-handler #handler (gw-3ds-complete)="handler.methodTimeout = '10s'"></gw-3ds-handler> <!-- expect-error: methodTimeout is a number of milliseconds -->
  `,
})
export class MisusesComponent {
  shown(event: GwReadyEvent) {
    return event.detail.expiresAt;
  }
}
