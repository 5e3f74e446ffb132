/** The shop: pick coffee, check out. The server prices the cart and opens a checkout for it. */
import { html, render } from 'lit';
import { api } from '../lib/api.js';
import { shopConfig } from '../lib/config.js';
import { messageOf, money, mountPage, notice } from '../lib/layout.js';
import type { OrderView } from '../server/views.js';

const CART_KEY = 'gw-demo:cart';
const content = mountPage();
const config = await shopConfig();

const cart = new Map<string, number>(Object.entries(JSON.parse(sessionStorage.getItem(CART_KEY) ?? '{}') as Record<string, number>));
let failure = '';
let busy = false;

function setQuantity(sku: string, quantity: number): void {
  if (quantity > 0) cart.set(sku, Math.min(quantity, 20));
  else cart.delete(sku);
  sessionStorage.setItem(CART_KEY, JSON.stringify(Object.fromEntries(cart)));
  draw();
}

async function checkOut(): Promise<void> {
  busy = true;
  failure = '';
  draw();
  try {
    const { order } = await api<{ order: OrderView }>('POST', '/orders', 'Check out: create a checkout', {
      lines: [...cart].map(([sku, quantity]) => ({ sku, quantity })),
    });
    sessionStorage.removeItem(CART_KEY);
    location.assign(`/pay.html?order=${encodeURIComponent(order.id)}`);
  } catch (error) {
    failure = messageOf(error);
    busy = false;
    draw();
  }
}

function draw(): void {
  const lines = config.products.filter((product) => cart.has(product.sku));
  const totalCents = lines.reduce((sum, product) => sum + product.priceCents * (cart.get(product.sku) ?? 0), 0);
  render(
    html`
      <h1>Fresh coffee, paid safely</h1>
      <p class="lede">A demo shop on the gw-elements sandbox: add something to the cart and pay with a test card. The panel on the right shows every call the shop's server makes to the gateway.</p>
      <section aria-labelledby="products-title">
        <h2 id="products-title" class="visually-hidden">Products</h2>
        <ul class="grid plain-list" role="list">
          ${config.products.map(
            (product) => html`<li class="panel product">
              <h3>${product.name}</h3>
              <p>${product.description}</p>
              <span class="price">${money(product.priceCents, config.currency)}</span>
              <button type="button" class="secondary" @click=${() => setQuantity(product.sku, (cart.get(product.sku) ?? 0) + 1)}>Add to cart<span class="visually-hidden">: ${product.name}</span></button>
            </li>`,
          )}
        </ul>
      </section>
      <section class="panel" aria-labelledby="cart-title">
        <h2 id="cart-title">Your cart</h2>
        ${
          lines.length
            ? html`<table class="data">
                <thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col" class="num">Price</th></tr></thead>
                <tbody>
                  ${lines.map(
                    (product) => html`<tr>
                      <td>${product.name}</td>
                      <td>
                        <input type="number" min="0" max="20" class="narrow" .value=${String(cart.get(product.sku))} aria-label="Quantity of ${product.name}"
                          @change=${(event: Event) => setQuantity(product.sku, Number((event.target as HTMLInputElement).value))} />
                      </td>
                      <td class="num">${money(product.priceCents * (cart.get(product.sku) ?? 0), config.currency)}</td>
                    </tr>`,
                  )}
                </tbody>
                <tfoot><tr><th scope="row" colspan="2">Total</th><td class="num"><strong>${money(totalCents, config.currency)}</strong></td></tr></tfoot>
              </table>
              ${failure ? notice('bad', 'The checkout could not be opened', failure) : ''}
              <div class="actions"><button type="button" ?disabled=${busy} @click=${checkOut}>${busy ? 'Opening the checkout…' : 'Check out'}</button></div>`
            : html`<p class="muted">Your cart is empty.</p>`
        }
      </section>
    `,
    content,
  );
}

draw();
