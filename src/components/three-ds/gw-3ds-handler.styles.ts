/** Styles of `<gw-3ds-handler>`: the challenge frame at its EMVCo window size, in a container that scrolls. */
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
  }

  :host([hidden]),
  .method-frames,
  :host(:not([state='challenge'])) .container {
    display: none;
  }

  /* Some ACS pages ignore the requested size: the container scrolls instead of clipping them. */
  .container {
    box-sizing: border-box;
    max-width: 100%;
    max-height: var(--gw-3ds-container-max-height, none);
    overflow: auto;
    -webkit-overflow-scrolling: touch;
    background: var(--gw-3ds-container-background, transparent);
    padding: var(--gw-3ds-container-padding, 0);
  }

  .frame {
    display: block;
    box-sizing: border-box;
    width: var(--gw-3ds-frame-width, var(--_window-width));
    height: var(--gw-3ds-frame-height, var(--_window-height));
    max-width: 100%;
    margin: 0 auto;
    border: var(--gw-3ds-frame-border, 0);
    border-radius: var(--gw-3ds-frame-border-radius, 0);
    background: var(--gw-3ds-frame-background, #fff);
  }

  /* EMVCo challenge window sizes (customer.browser.challengeWindow), width x height. */
  .frame[data-window='01'] {
    --_window-width: 250px;
    --_window-height: 400px;
  }
  .frame[data-window='02'] {
    --_window-width: 390px;
    --_window-height: 400px;
  }
  .frame[data-window='03'] {
    --_window-width: 500px;
    --_window-height: 600px;
  }
  .frame[data-window='04'] {
    --_window-width: 600px;
    --_window-height: 400px;
  }
  .frame[data-window='05'] {
    --_window-width: 100%;
    --_window-height: var(--gw-3ds-full-height, 100vh);
  }
`;
