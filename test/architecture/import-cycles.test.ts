/**
 * No runtime import cycle in src/ or demo/: files that import each other at
 * run time load in an order that depends on who is imported first, and a
 * change to one drags the other along. Read with the TypeScript compiler's own
 * parser (every import, re-export and dynamic import() of a relative path),
 * not by a regular expression. `import type` and `export type` are erased
 * from the JavaScript, so they are no arrow for the runtime check; under
 * `verbatimModuleSyntax` an `import { type A }` still loads its module, so it
 * is one. Both folders are held to more: no cycle even through type-only
 * imports (and `import('./x').T` types), so dependencies read one way (the
 * demo's most of all: merchants copy it).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourcesUnder(path);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: `./a.js` is `./a.ts` in the sources. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => /\.(ts|tsx|mts)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile());
}

/** The relative modules a file loads at run time, or with `types`, also those it names in type-only imports and `import()` types. */
export function importsOf(file: string, text: string = readFileSync(file, 'utf8'), { types = false } = {}): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && (types || !node.importClause?.isTypeOnly) && ts.isStringLiteral(node.moduleSpecifier))
      specifiers.push(node.moduleSpecifier.text);
    else if (
      ts.isExportDeclaration(node) &&
      (types || !node.isTypeOnly) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      specifiers.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    } else if (types && ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      specifiers.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((specifier) => resolveSpecifier(file, specifier)).filter((target): target is string => target !== undefined);
}

/** Every strongly connected group of more than one file (or a file importing itself): Tarjan's algorithm. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
}

describe('import cycles', () => {
  test('the check finds a cycle, a self-import and a longer loop, and takes an import type for no arrow', () => {
    const graph = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['c']],
      ['d', ['e']],
      ['e', ['f']],
      ['f', ['d']],
      ['g', ['a']],
    ]);
    assert.deepEqual(cyclesOf(graph), [['a', 'b'], ['c'], ['d', 'e', 'f']]);
    const here = fileURLToPath(import.meta.url);
    const text =
      "import type { A } from './import-cycles.test.js';\nimport { type B } from './import-cycles.test.js';\nexport type { C } from './import-cycles.test.js';\nawait import('./import-cycles.test.js');\nlet d: import('./import-cycles.test.js').D;";
    assert.deepEqual(importsOf(here, text), [here, here]);
    assert.deepEqual(importsOf(here, text, { types: true }), [here, here, here, here, here]);
  });

  const cyclesIn = (folder: string, types: boolean) => {
    const files = sourcesUnder(join(ROOT, folder));
    assert.ok(files.length > 10, `${folder}/ has its sources`);
    const graph = new Map(files.map((file) => [file, importsOf(file, undefined, { types })]));
    return cyclesOf(graph).map((cycle) => cycle.map((file) => relative(ROOT, file)).join(' <-> '));
  };

  for (const folder of ['src', 'demo']) {
    test(`no runtime import cycle in ${folder}/`, () => {
      const cycles = cyclesIn(folder, false);
      assert.deepEqual(cycles, [], `runtime import cycles:\n${cycles.join('\n')}`);
    });
  }

  for (const folder of ['src', 'demo'])
    test(`no import cycle in ${folder}/, type-only imports included`, () => {
      const cycles = cyclesIn(folder, true);
      assert.deepEqual(cycles, [], `import cycles (type-only imports included):\n${cycles.join('\n')}`);
    });
});
