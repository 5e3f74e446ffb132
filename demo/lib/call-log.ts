/**
 * The "gateway calls" panel every demo page shows: what the merchant server
 * sent to the gateway and what came back, newest first. Kept in
 * sessionStorage so a flow that spans pages (cart, payment, result) reads as one.
 */
import { html, nothing, render } from 'lit';
import type { GatewayCall } from '../server/call-recorder.js';
import { toneOf } from './tone.js';

interface LoggedStep {
  readonly label: string;
  readonly page: string;
  readonly at: string;
  readonly calls: readonly GatewayCall[];
}

const STORAGE_KEY = 'gw-demo:calls';
const MAX_STEPS = 40;

function readSteps(): LoggedStep[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? (stored as LoggedStep[]) : [];
  } catch {
    return [];
  }
}

let panel: HTMLElement | undefined;

/** Adds one step (a page action and the gateway calls it caused) to the log. */
export function logCalls(label: string, calls: readonly GatewayCall[]): void {
  const steps = [{ label, page: location.pathname, at: new Date().toLocaleTimeString(), calls }, ...readSteps()].slice(0, MAX_STEPS);
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(steps));
  if (panel) renderLog(panel);
}

const callView = (call: GatewayCall) => html`
  <li class="call">
    <details>
      <summary>
        <span class="method">${call.method}</span>
        <code class="path">${call.path.split('?')[0]}</code>
        ${
          call.resultCode
            ? html`<span class="code ${toneOf(call.resultKind)}" title=${call.resultDescription}>${call.resultCode}</span>`
            : html`<span class="code bad">no answer</span>`
        }
      </summary>
      <p class="call-meta">HTTP ${call.status || '—'} · ${call.ms} ms · ${call.resultKind.replaceAll('_', ' ')}${call.resultDescription ? html` · ${call.resultDescription}` : nothing}</p>
      <table class="params">
        <caption class="visually-hidden">Parameters sent</caption>
        <tbody>
          ${Object.entries(call.params).map(([name, value]) => html`<tr><th scope="row">${name}</th><td>${value}</td></tr>`)}
        </tbody>
      </table>
    </details>
  </li>
`;

function renderLog(target: HTMLElement): void {
  const steps = readSteps();
  render(
    html`
      <div class="log-head">
        <h2 id="api-log-title">Gateway calls</h2>
        <button type="button" class="link" ?hidden=${!steps.length} @click=${() => {
          sessionStorage.removeItem(STORAGE_KEY);
          renderLog(target);
        }}>Clear</button>
      </div>
      <p class="hint">What the shop's server sent to the gateway. Card numbers and security codes are masked; the access token never leaves the server.</p>
      ${
        steps.length
          ? html`<ol class="steps">
            ${steps.map(
              (step) => html`<li class="step">
                <p class="step-label"><strong>${step.label}</strong> <span class="muted">${step.at}</span></p>
                <ol class="calls">${step.calls.map(callView)}</ol>
              </li>`,
            )}
          </ol>`
          : html`<p class="empty">No calls yet. Start a flow and watch them appear here.</p>`
      }
    `,
    target,
  );
}

/** The calls the shop's server made while rendering this page (one of the payment pages it renders), added to the log once. */
function logPageCalls(): void {
  const block = document.getElementById('page-calls');
  if (!block) return;
  block.remove();
  const { label, calls } = JSON.parse(block.textContent ?? '') as { label: string; calls: GatewayCall[] };
  logCalls(label, calls);
}

/** Renders the log into `target` and keeps it current. */
export function mountCallLog(target: HTMLElement): void {
  panel = target;
  logPageCalls();
  renderLog(target);
}
