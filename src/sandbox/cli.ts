/** `gw-sandbox`: starts the sandbox gateway from the command line, for tests and demos; `gw-sandbox trigger …` drives a running one. */
import { parseArgs } from 'node:util';
import type { PaymentBrand } from '../contract/brands.js';
import { DEFAULT_ENTITIES, DEFAULT_TOKEN, startSandbox, type SandboxEntity } from './index.js';
import { runTrigger, TRIGGER_USAGE } from './trigger-cli.js';

if (process.argv[2] === 'trigger') process.exit(await runTrigger(process.argv.slice(3)));

const USAGE = `usage: gw-sandbox [--host 127.0.0.1] [--port 8080] [--token TOKEN]... [--entity ENTITY_ID[:BRAND,BRAND...]]...
                  [--notification-url URL [--notification-secret HEX]]
  --port 0 picks a free port. Default token ${DEFAULT_TOKEN}.
  --entity takes the brands the entity is configured for (others answer 600.200.201); without them, every brand.
  Default entities: ${DEFAULT_ENTITIES.map((entity) => `${entity.id}:${entity.brands?.join(',')}`).join('\n                    ')}
  --notification-url sends encrypted notifications there; the secret (64 hex characters) is generated and printed when omitted.
${TRIGGER_USAGE}`;

function fail(message: string): never {
  console.error(`gw-sandbox: ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      token: { type: 'string', multiple: true },
      entity: { type: 'string', multiple: true },
      'notification-url': { type: 'string' },
      'notification-secret': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) fail(`--port must be 0 to 65535, not ${values.port}`);
// `ID` or `ID:BRAND,BRAND`; startSandbox checks the id and the brands.
const entities = (values.entity ?? []).map((entity): SandboxEntity => {
  const colon = entity.indexOf(':');
  if (colon < 0) return { id: entity };
  return {
    id: entity.slice(0, colon),
    brands: entity
      .slice(colon + 1)
      .split(',')
      .filter(Boolean) as PaymentBrand[],
  };
});
const notificationUrl = values['notification-url'];
const notificationSecret = values['notification-secret'];
if (notificationSecret !== undefined && notificationUrl === undefined) fail('--notification-secret needs --notification-url');
// The secret itself is never echoed in an error: it may be a real one typed by mistake.
if (notificationSecret !== undefined && !/^[0-9a-fA-F]{64}$/.test(notificationSecret))
  fail('--notification-secret must be 64 hex characters');

const sandbox = await startSandbox({
  host: values.host,
  port: Number(values.port),
  ...(values.token?.length ? { tokens: values.token } : {}),
  ...(entities.length ? { entities } : {}),
  ...(notificationUrl !== undefined
    ? { notifications: { url: notificationUrl, ...(notificationSecret ? { secret: notificationSecret } : {}) } }
    : {}),
}).catch((error: Error) => fail(error.message));

// The last guard: every request already answers HTTP 500 on a bug; an error escaping
// all of them (a timer, a stream event) is logged and the sandbox keeps serving.
process.on('uncaughtException', (error) => console.error('gw-sandbox: unexpected error', error));
process.on('unhandledRejection', (error) => console.error('gw-sandbox: unexpected error', error));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
