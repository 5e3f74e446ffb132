// The build's minifier of the elements' `css` and `html` templates (scripts/minify-templates.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minifyTemplates } from '../../scripts/minify-templates.js';

const minified = (code: string) => minifyTemplates(code, 'x.ts')?.code ?? code;

test('html: line-break whitespace is indentation (dropped between tags and around bindings), a space inside a tag or between words', () => {
  const source = `const t = html\`
    <div part="base"
      class="a">
      <span>Loading
        the form…</span>
      \${x ? html\`<b>yes</b>\` : nothing}
      <input value=\${v}
        name="n"
      />
    </div>
  \`;`;
  assert.equal(
    minified(source),
    'const t = html`<div part="base" class="a"><span>Loading the form…</span>${x ? html`<b>yes</b>` : nothing}<input value=${v} name="n"/></div>`;',
  );
});

test('html: whitespace without a line break and quoted attribute values are kept as written', () => {
  const source = 'const t = html`<p>a  <b>b</b> c</p><i title="x\n  y"></i>`;';
  assert.equal(minified(source), source);
});

test('css: minified by esbuild; bindings and other code untouched', () => {
  assert.equal(
    minified('const s = css`\n  :host {\n    display: block;\n  }\n`; const keep = `  a  `;'),
    'const s = css`:host{display:block}`; const keep = `  a  `;',
  );
  const withBinding = 'const s = css`\n  :host { color: ${c}; }\n`;';
  assert.equal(minified(withBinding), withBinding);
});

/** The original [line, column] of the first segment of each generated line (a small VLQ decoder). */
function firstSegments(mappings: string): ([number, number] | undefined)[] {
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const state = [0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    state[0] = 0;
    let first: [number, number] | undefined;
    for (const segment of line.split(',').filter(Boolean)) {
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = digits.indexOf(char);
        value += (digit & 31) << shift;
        shift += 5;
        if (!(digit & 32)) {
          values.push(value & 1 ? -(value >> 1) : value >> 1);
          value = 0;
          shift = 0;
        }
      }
      values.forEach((delta, index) => (state[index] = state[index]! + delta));
      first ??= [state[2]!, state[3]!];
    }
    return first;
  });
}

test('the source map points each output line back at its original line', () => {
  const source = 'const s = css`\n  :host {\n    display: block;\n  }\n`;\nexport const after = 1;\n';
  const result = minifyTemplates(source, 'x.ts')!;
  assert.equal(result.code, 'const s = css`:host{display:block}`;\nexport const after = 1;\n');
  const [first, second] = firstSegments(result.map.mappings);
  assert.deepEqual(first, [0, 0]);
  assert.deepEqual(second, [5, 0]);
});
