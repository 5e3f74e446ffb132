/**
 * The feedback both elements draw the same way (styled by feedback.styles.ts),
 * in plain DOM (a page does not carry lit-html for a few nodes): a busy message
 * with its spinner, a plain message, or an alert, each replaceable by the slot
 * of its name; the alert is also the part of that name.
 */

/** An element with its attributes and children. */
export function tag(name: string, attributes: Record<string, string>, ...children: (Node | string)[]): HTMLElement {
  const element = document.createElement(name);
  for (const [attribute, value] of Object.entries(attributes)) element.setAttribute(attribute, value);
  element.append(...children);
  return element;
}

/** Where an element shows its one message: the `role="status"` region, and the node an alert goes before. */
export interface Feedback {
  readonly status: Element;
  readonly alertBefore: Element;
  key?: string | undefined;
  node?: Element | undefined;
}

/**
 * Shows message `name` with `text` (`busy`: spinner and text in the status region; `plain`: the text
 * there; `alert`: a `role="alert"` box), or none when `name` is undefined. The node is replaced only
 * when the message or its text changes: an alert drawn again would be announced again.
 */
export function showFeedback(feedback: Feedback, name: string | undefined, text = '', kind: 'busy' | 'plain' | 'alert' = 'alert'): void {
  const key = name && `${kind} ${name} ${text}`;
  if (feedback.key === key) return;
  feedback.key = key;
  feedback.node?.remove();
  feedback.node = undefined;
  if (!name) return;
  const slot = tag(
    'slot',
    { name },
    ...(kind === 'busy' ? [tag('span', { class: 'spinner', part: 'spinner' }), tag('span', {}, text)] : [text]),
  );
  if (kind === 'alert') feedback.alertBefore.before((feedback.node = tag('div', { class: 'alert', part: name, role: 'alert' }, slot)));
  else feedback.status.append((feedback.node = slot));
}
