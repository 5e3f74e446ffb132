/**
 * What a page pays for each browser entry: the entry bundled and minified as a
 * page's build would (esbuild, with the build's template minifier), gzipped at
 * level 9, with Lit left out ("own code") and with it. Shared by the size
 * benchmark (bench/components.bench.ts) and the byte-budget test
 * (test/components/entry-size.test.ts), so both measure the same bytes.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { esbuildMinifyTemplates } from './minify-templates.js';

const KB = 1024;

/**
 * Each browser entry and its byte budgets, gzip -9: `own` without Lit, `withLit` with it. A budget the
 * code does not meet yet has a `ceiling` (the bytes reached, rounded up to 64 B, which no change may exceed)
 * beside it; the ceilings rose once, by 192 B, for the preselected brand in `gw-before-submit` and the
 * missing-checkout-id hint, fell by about 400 B when developer messages became a gist and a link, and rose by 192 B
 * and 128 B for the fixes around a payment being sent (no expiry under it, no second press, the right pay button), a
 * changed `expires-at`, and a rendered element upgraded while its page is parsed (it waits for its markup); the
 * both-elements ceiling rose by 64 B more for the bound on a 3-D Secure redirect's preconditions, then both by 64 B
 * for a payment being sent kept from "expired" when the gateway refuses its checkout, and events naming the checkout shown;
 * then to 6,400 B and 10,368 B for four fixes to the adoption of a server-rendered checkout, and the second to 10,432 B
 * for three fixes to the 3-D Secure flow; then to 6,464 B and 10,496 B for four fixes with two elements of one checkout.
 */
export const ENTRIES = [
  {
    name: 'gw-elements/checkout',
    file: 'src/checkout.ts',
    own: { budget: 3 * KB, ceiling: 6464 },
    withLit: { budget: 9 * KB },
  },
  { name: 'gw-elements/3ds-handler', file: 'src/3ds-handler.ts' },
  { name: 'gw-elements (both)', file: 'src/index.ts', own: { budget: 6 * KB, ceiling: 10496 } },
] as const satisfies readonly {
  name: string;
  file: string;
  own?: { budget: number; ceiling?: number };
  withLit?: { budget: number; ceiling?: number };
}[];

/** Lit's packages: a page's bundle holds them once, whatever else uses them. */
const LIT = ['lit', 'lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*', '@lit/*', '@lit-labs/*'];

/** `file` bundled and minified as a page's build would; Lit external or included. */
export async function bundleEntry(file: string, withLit: boolean): Promise<string> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [esbuildMinifyTemplates()],
    external: withLit ? [] : LIT,
  });
  return result.outputFiles[0]!.text;
}

export const gzippedSize = (code: string): number => gzipSync(code, { level: 9 }).length;
