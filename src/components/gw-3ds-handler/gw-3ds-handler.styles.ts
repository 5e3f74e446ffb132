/**
 * Styles of `<gw-3ds-handler>`: the shared message look for the method,
 * complete, error and timeout states, and the challenge frame at its EMVCo
 * window size (`--_w` x `--_h`, set per `data-window`), in a container that
 * scrolls because some ACS pages ignore the requested size. Logical properties,
 * so `dir="rtl"` mirrors it (the EMVCo width is the inline size). Written readably:
 * the build minifies it (scripts/minify-templates.ts).
 */
import { css } from '@lit/reactive-element';
import { feedbackStyles } from '../shared/feedback.styles.js';

export const styles = [
  feedbackStyles,
  css`
    :host {
      display: block;
      --_gap: var(--gw-3ds-gap, 0.5rem);
      --_spinner-size: var(--gw-3ds-spinner-size, 1.25rem);
      --_spinner-color: var(--gw-3ds-spinner-color, currentColor);
      --_spinner-track-color: var(--gw-3ds-spinner-track-color, rgb(0 0 0 / 0.15));
      --_error-color: var(--gw-3ds-error-color, #7a1010);
      --_error-background: var(--gw-3ds-error-background, #fdecec);
      --_alert-padding: var(--gw-3ds-alert-padding, 0.75rem 1rem);
      --_radius: var(--gw-3ds-radius, 0.25rem);
    }

    .method-frames,
    :host(:not([state='challenge'])) .container {
      display: none;
    }

    .container {
      box-sizing: border-box;
      max-inline-size: 100%;
      max-block-size: var(--gw-3ds-container-max-height, none);
      overflow: auto;
      background: var(--gw-3ds-container-background, transparent);
      padding: var(--gw-3ds-container-padding, 0);
    }

    .frame {
      display: block;
      box-sizing: border-box;
      inline-size: var(--gw-3ds-frame-width, var(--_w));
      block-size: var(--gw-3ds-frame-height, var(--_h));
      max-inline-size: 100%;
      margin-block: 0;
      margin-inline: auto;
      border: var(--gw-3ds-frame-border, 0);
      border-radius: var(--gw-3ds-frame-border-radius, 0);
      background: var(--gw-3ds-frame-background, #fff);
    }

    [data-window='01'] {
      --_w: 250px;
      --_h: 400px;
    }

    [data-window='02'] {
      --_w: 390px;
      --_h: 400px;
    }

    [data-window='03'] {
      --_w: 500px;
      --_h: 600px;
    }

    [data-window='04'] {
      --_w: 600px;
      --_h: 400px;
    }

    [data-window='05'] {
      --_w: 100%;
      --_h: var(--gw-3ds-full-height, 100vh);
    }
  `,
];
