/**
 * The look both elements give their own messages: a `role="status"` line with
 * a spinner, and a `role="alert"` box. Each element maps its public custom
 * properties (`--gw-checkout-…`, `--gw-3ds-…`) onto the private `--_…` ones
 * used here, so the two look alike and each keeps its own documented names.
 * Logical properties only: under `dir="rtl"` the spinner and text mirror.
 */
import { css } from '@lit/reactive-element';

export const feedbackStyles = css`
  :host([hidden]),
  [hidden] {
    display: none !important;
  }

  .status,
  .alert {
    display: flex;
    align-items: center;
    gap: var(--_gap);
  }

  .spinner {
    flex: none;
    box-sizing: border-box;
    inline-size: var(--_spinner-size);
    block-size: var(--_spinner-size);
    border: 0.15em solid var(--_spinner-track-color);
    border-block-start-color: var(--_spinner-color);
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
    padding: var(--_alert-padding);
    color: var(--_error-color);
    background: var(--_error-background);
    border-radius: var(--_radius);
  }
`;
