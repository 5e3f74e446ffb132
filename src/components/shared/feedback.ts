/**
 * The feedback both elements draw the same way (styled by feedback.styles.ts):
 * a busy message with its spinner, and an alert, each replaceable by the slot
 * of its name and styleable as the part of the same name.
 */
import { html } from 'lit/html.js';

/** A busy message with its spinner, inside the slot `name` (the page's own content replaces both). */
export const busyMessage = (name: string, text: string) => html`
  <slot name=${name}>
    <span class="spinner" part="spinner"></span>
    <span>${text}</span>
  </slot>
`;

/** An alert announced when it appears, as part `name`, its text replaceable by the slot `name`. */
export const alertMessage = (name: string, text: string) => html`
  <div class="alert" part=${name} role="alert">
    <slot name=${name}>${text}</slot>
  </div>
`;
