/**
 * Styles of `<gw-checkout>`'s own chrome; the widget's `.wpwl-*` controls live
 * in the light DOM and take the page's CSS. Written readably: the build
 * minifies it (scripts/minify-templates.ts).
 */
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
  }

  :host([hidden]),
  [hidden] {
    display: none !important;
  }

  .status,
  .alert {
    display: flex;
    align-items: center;
    gap: var(--gw-checkout-gap, 0.5rem);
  }

  .spinner {
    flex: none;
    box-sizing: border-box;
    width: var(--gw-checkout-spinner-size, 1.25rem);
    height: var(--gw-checkout-spinner-size, 1.25rem);
    border: 0.15em solid var(--gw-checkout-spinner-track-color, rgb(0 0 0 / 0.15));
    border-top-color: var(--gw-checkout-spinner-color, currentColor);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }

  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation-duration: 3s;
    }
  }

  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }

  .alert {
    padding: var(--gw-checkout-alert-padding, 0.75rem 1rem);
    color: var(--gw-checkout-error-color, #7a1010);
    background: var(--gw-checkout-error-background, #fdecec);
    border-radius: var(--gw-checkout-radius, 0.25rem);
  }
`;
