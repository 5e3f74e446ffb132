/**
 * `gw-sandbox trigger …`: makes a running sandbox do what a merchant needs to
 * test (a notification, a late 3-D Secure completion, an expiry, a fault, time
 * passing) through its `/__sandbox/` controls over HTTP, like `stripe trigger`.
 * Each command prints one line; a failure prints why and exits non-zero.
 */
import { parseArgs } from 'node:util';
import { checkFault, isFaultRefusal } from './controls/faults.js';
import { DEFAULT_TOKEN } from './index.js';

export const TRIGGER_USAGE = `usage: gw-sandbox trigger <event> [--url http://127.0.0.1:8080] [--token TOKEN]
  notification <paymentId>                      notify the payment as it stands now (needs a notification URL)
  3ds-complete <paymentId> [--outcome approved|failed]   finish its 3-D Secure step now, late or not
  expire <checkoutId|paymentId>                 end a checkout's 30 minutes, or time out a payment's 3-D Secure step
  fault <path> --mode drop|hang|500 [--count n] the next n requests to the path (default 1; 0 clears)
  clock <seconds>                               move the sandbox clock forward`;

/** What a command asks of the sandbox, and how its answer reads as one line. */
interface Control {
  readonly path: string;
  readonly form: Record<string, string>;
  readonly describe: (body: ControlAnswer) => string;
}

interface ControlAnswer {
  result?: { code?: string; description?: string; parameterErrors?: { name: string; message?: string }[] };
  paymentResult?: { code: string; description?: string };
  notification?: { id: string; url: string };
  expiresAt?: string;
  faults?: { path: string; mode: string; count: string }[];
  now?: string;
}

class UsageError extends Error {}

const one = (positionals: readonly string[], what: string) => {
  if (positionals.length !== 1) throw new UsageError(`needs exactly one ${what}`);
  return encodeURIComponent(positionals[0]!);
};

/** A checkout id has a host part after a dot (`….sbx01-vm-tx01`); a payment id is 32 hex characters. */
const isCheckoutId = (id: string) => id.includes('.');

const outcomeLine = (body: ControlAnswer) => `${body.paymentResult?.code} ${body.paymentResult?.description ?? ''}`.trim();

function controlOf(
  event: string,
  positionals: readonly string[],
  values: { outcome?: string | undefined; mode?: string | undefined; count?: string | undefined },
): Control {
  switch (event) {
    case 'notification': {
      const id = one(positionals, 'payment id');
      return {
        path: `/payments/${id}/notify`,
        form: {},
        describe: (body) => `notification ${body.notification?.id} for payment ${positionals[0]} queued to ${body.notification?.url}`,
      };
    }
    case '3ds-complete': {
      const id = one(positionals, 'payment id');
      const outcome = values.outcome ?? 'approved';
      return {
        path: `/payments/${id}/three-d-secure`,
        form: { outcome },
        describe: (body) => `payment ${positionals[0]} 3-D Secure ${outcome}: ${outcomeLine(body)}`,
      };
    }
    case 'expire': {
      const id = one(positionals, 'checkout or payment id');
      if (isCheckoutId(positionals[0]!))
        return { path: `/checkouts/${id}/expire`, form: {}, describe: (body) => `checkout ${positionals[0]} expired at ${body.expiresAt}` };
      return {
        path: `/payments/${id}/expire`,
        form: {},
        describe: (body) => `payment ${positionals[0]} 3-D Secure step timed out: ${outcomeLine(body)}`,
      };
    }
    case 'fault': {
      if (positionals.length !== 1) throw new UsageError('needs exactly one gateway path, such as /v1/payments');
      // `500` is the platform-facing name of the sandbox's `error` fault: HTTP 500 without processing.
      const names: Record<string, string> = { drop: 'drop', hang: 'hang', 500: 'error' };
      const mode = names[values.mode ?? ''];
      if (!mode) throw new UsageError('--mode must be drop, hang or 500');
      // Checked here as the sandbox checks it, so a bad fault is a usage error before anything is sent.
      const fault = checkFault(positionals[0], mode, values.count ?? '1');
      if (isFaultRefusal(fault)) throw new UsageError(`${fault.name === 'count' ? '--count' : fault.name} ${fault.message}`);
      const count = String(fault.count);
      return {
        path: '/faults',
        form: { path: fault.path, mode: fault.mode, count },
        describe: () =>
          count === '0'
            ? `fault on ${positionals[0]} cleared`
            : `the next ${count} request(s) to ${positionals[0]} will ${values.mode === '500' ? 'answer HTTP 500' : values.mode}`,
      };
    }
    case 'clock': {
      if (positionals.length !== 1) throw new UsageError('needs the seconds to advance');
      return { path: '/clock', form: { advance: positionals[0]! }, describe: (body) => `sandbox clock now ${body.now}` };
    }
    default:
      throw new UsageError(event ? `unknown event ${event}` : 'needs an event');
  }
}

/** Why a control refused, from its answer. */
function refusalOf(status: number, body: ControlAnswer): string {
  const errors = body.result?.parameterErrors?.map((error) => `${error.name} ${error.message ?? ''}`.trim()).join('; ');
  return `the sandbox refused (HTTP ${status}, ${body.result?.code ?? 'no result code'}${errors ? `: ${errors}` : body.result?.description ? `: ${body.result.description}` : ''})`;
}

/** Runs `gw-sandbox trigger <args>`; resolves to the exit code: 0 done, 1 refused or unreachable, 2 bad usage. */
export async function runTrigger(
  args: readonly string[],
  output: { log(line: string): void; error(line: string): void } = console,
): Promise<number> {
  let control: Control;
  let url: string;
  let token: string;
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: {
        url: { type: 'string', default: 'http://127.0.0.1:8080' },
        token: { type: 'string', default: DEFAULT_TOKEN },
        outcome: { type: 'string' },
        mode: { type: 'string' },
        count: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    const [event = '', ...rest] = positionals;
    if (values.outcome !== undefined && event !== '3ds-complete') throw new UsageError('--outcome belongs to 3ds-complete');
    if ((values.mode !== undefined || values.count !== undefined) && event !== 'fault')
      throw new UsageError('--mode and --count belong to fault');
    control = controlOf(event, rest, values);
    url = values.url.replace(/\/+$/, '');
    token = values.token;
    if (!/^https?:\/\/[^/]+$/.test(url))
      throw new UsageError(`--url must be the sandbox's base URL, such as http://127.0.0.1:8080, not ${url}`);
  } catch (error) {
    output.error(`gw-sandbox trigger: ${(error as Error).message}\n${TRIGGER_USAGE}`);
    return 2;
  }
  let response: Response;
  try {
    response = await fetch(`${url}/__sandbox${control.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(control.form),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    output.error(`gw-sandbox trigger: cannot reach a sandbox at ${url} (${cause})`);
    return 1;
  }
  let body: ControlAnswer;
  try {
    body = (await response.json()) as ControlAnswer;
  } catch {
    output.error(`gw-sandbox trigger: ${url} answered HTTP ${response.status} without JSON: is it a gw-sandbox?`);
    return 1;
  }
  if (!response.ok) {
    output.error(`gw-sandbox trigger: ${refusalOf(response.status, body)}`);
    return 1;
  }
  output.log(control.describe(body));
  return 0;
}
