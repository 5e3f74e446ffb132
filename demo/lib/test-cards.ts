/** The sandbox's test cards as a small table, so a person knows what to type. */
import { html, type TemplateResult } from 'lit';
import type { CardBehaviour, TestCard } from 'gw-elements/sandbox/test-cards';

const spaced = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/** The cards whose behaviour `accept` picks, with their description. */
export function testCardTable(cards: readonly TestCard[], accept: (behaviour: CardBehaviour) => boolean, caption: string): TemplateResult {
  return html`<details class="test-cards">
    <summary>${caption}</summary>
    <table class="data">
      <thead><tr><th scope="col">Card number</th><th scope="col">What the sandbox does</th></tr></thead>
      <tbody>
        ${cards.filter((card) => accept(card.behaviour)).map((card) => html`<tr><td><code>${spaced(card.number)}</code></td><td>${card.description}</td></tr>`)}
      </tbody>
    </table>
    <p class="muted">Any future expiry date and any 3-digit security code work.</p>
  </details>`;
}

/** A `<select>`'s options for the test cards `accept` picks. */
export function testCardOptions(
  cards: readonly TestCard[],
  accept: (behaviour: CardBehaviour) => boolean,
  selected: string,
): TemplateResult[] {
  return cards
    .filter((card) => accept(card.behaviour))
    .map(
      (card) =>
        html`<option value=${card.number} ?selected=${card.number === selected}>${spaced(card.number)} · ${card.description}</option>`,
    );
}
