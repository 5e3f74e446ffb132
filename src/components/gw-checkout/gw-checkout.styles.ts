/**
 * Styles of `<gw-checkout>`'s own chrome (the shared message look, under the
 * element's documented custom properties); the widget's `.wpwl-*` controls
 * live in the light DOM and take the page's CSS. Written readably: the build
 * minifies it (scripts/minify-templates.ts).
 */
import { css } from '@lit/reactive-element';
import { feedbackStyles } from '../shared/feedback.styles.js';

export const styles = [
  feedbackStyles,
  css`
    :host {
      display: block;
      --_gap: var(--gw-checkout-gap, 0.5rem);
      --_spinner-size: var(--gw-checkout-spinner-size, 1.25rem);
      --_spinner-color: var(--gw-checkout-spinner-color, currentColor);
      --_spinner-track-color: var(--gw-checkout-spinner-track-color, rgb(0 0 0 / 0.15));
      --_error-color: var(--gw-checkout-error-color, #7a1010);
      --_error-background: var(--gw-checkout-error-background, #fdecec);
      --_alert-padding: var(--gw-checkout-alert-padding, 0.75rem 1rem);
      --_radius: var(--gw-checkout-radius, 0.25rem);
    }
  `,
];
