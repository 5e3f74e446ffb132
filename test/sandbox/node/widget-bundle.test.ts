/**
 * The widget script's two ways to the browser serve the same bytes: the package build's
 * dist/payment-widgets.js, which the published sandbox reads, and the bundle a sandbox running
 * from source makes when it starts (what every other test exercises). The published sandbox runs
 * from a copy of dist/ alone, with no node_modules within reach: zero runtime dependencies.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { bundleWidgetScript, WIDGET_SCRIPT_FILE } from '../../../src/sandbox/node/widget-bundle.js';

const built = new URL(`../../../dist/${WIDGET_SCRIPT_FILE}`, import.meta.url);

describe('the served widget script', () => {
  it('bundles to the same bytes every time, and the package build wrote exactly those (run npm run build after changing the widget)', () => {
    const fromSource = bundleWidgetScript();
    assert.deepEqual(bundleWidgetScript(), fromSource);
    assert.deepEqual(readFileSync(built), fromSource);
  });

  it('is one classic script (an import or export would not parse as a function body)', () => {
    assert.doesNotThrow(() => new Function(bundleWidgetScript().toString('utf8')));
  });

  const copy = mkdtempSync(join(tmpdir(), 'gw-published-sandbox-'));
  after(() => rmSync(copy, { recursive: true, force: true }));

  it('is served by the published sandbox, from a copy of dist/ alone, with its sha384 as the integrity', async () => {
    cpSync(new URL('../../../dist/', import.meta.url), join(copy, 'dist'), { recursive: true });
    const { startSandbox, DEFAULT_ENTITY_ID, DEFAULT_TOKEN } = (await import(
      pathToFileURL(join(copy, 'dist', 'sandbox.js')).href
    )) as typeof import('../../../src/sandbox/index.js');
    const sandbox = await startSandbox({ port: 0, quiet: true });
    try {
      const created = await fetch(`${sandbox.url}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
        body: new URLSearchParams({ entityId: DEFAULT_ENTITY_ID, amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }),
      });
      const { id, integrity } = (await created.json()) as { id: string; integrity: string };
      const served = Buffer.from(await (await fetch(`${sandbox.url}/v1/paymentWidgets.js?checkoutId=${id}`)).arrayBuffer());
      assert.deepEqual(served, readFileSync(built));
      assert.equal(integrity, `sha384-${createHash('sha384').update(served).digest('base64')}`);
    } finally {
      await sandbox.close();
    }
  });
});
