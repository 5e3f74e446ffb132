/**
 * Every fenced block of README.md and docs/*.md stays true: TypeScript is
 * type-checked against the sources (as `gw-elements` resolves them), HTML is
 * well-formed and uses only the elements and attributes custom-elements.json
 * declares, CSS only their parts and custom properties, shell commands only
 * npm scripts that exist and `gw-sandbox` flags the CLI accepts, JSON parses.
 * A block marked `<!-- example: path -->` must be whole top-level statements
 * of that file, verbatim, which its own test runs; one marked `<!-- file: … -->`
 * is a complete file that test/user pastes into a fresh project and runs. What cannot be checked is marked
 * `<!-- illustrative: reason -->`, or its language is listed below with why.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { TRIGGER_USAGE } from '../../src/sandbox/trigger-cli.js';
import { documentBlocks, DOCUMENTS, isWholeStatements, type Block } from './blocks.js';

const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Languages whose blocks no tool here can check, and why. */
const ILLUSTRATIVE_LANGUAGES: Record<string, string> = {
  '': 'diagrams and sample output, not code',
  http: 'a Content-Security-Policy header as the browser receives it; the policy is the one the demo pages are served under in the e2e tests',
  vue: 'a Vue single-file component; the Vue typings it relies on are checked by vue-tsc in test/types/vue',
};

const blocks = documentBlocks();
const where = (block: Block) => `${block.file}:${block.line}`;
const checked = (block: Block) => block.marker?.kind !== 'illustrative';

test('the documents have blocks to check (the extraction works)', () => {
  assert.ok(blocks.filter((block) => block.lang === 'ts').length > 20);
  assert.ok(DOCUMENTS.includes('docs/server.md'));
});

test('a block marked as an example is whole top-level statements of that file, verbatim', () => {
  for (const block of blocks.filter((b) => b.marker?.kind === 'example')) {
    const path = block.marker!.value;
    const file = read(path);
    assert.ok(file.includes(block.text.trimEnd()), `${where(block)}: not found verbatim in ${path}`);
    assert.ok(isWholeStatements(file, block.text, path), `${where(block)}: cut inside a statement of ${path} (a fragment shows whole declarations)`);
  }
});

test('the fragment check refuses a truncated block (a canary)', () => {
  const source = 'export function total(values: number[]) {\n  let sum = 0;\n  for (const value of values) sum += value;\n  return sum;\n}\n';
  assert.ok(isWholeStatements(source, source));
  assert.ok(!isWholeStatements(source, source.split('\n').slice(1).join('\n')), 'missing its first line');
  assert.ok(!isWholeStatements(source, source.split('\n').slice(0, -2).join('\n')), 'missing its last line');
});

test('a block marked as a complete file names a fresh project that test/user builds', () => {
  for (const block of blocks.filter((b) => b.marker?.kind === 'file')) {
    assert.match(block.marker!.value, /^(node|static|three-d-secure|vite-react|vite-vue)\/[\w./-]+$/, `${where(block)}: file: PROJECT/PATH`);
  }
});

test('a block marked illustrative says why', () => {
  for (const block of blocks.filter((b) => b.marker?.kind === 'illustrative')) assert.ok(block.marker!.value.length > 10, `${where(block)}: give a reason`);
});

test('every block is in a language this test checks, or listed as illustrative with a reason', () => {
  const languages = new Set(['ts', 'tsx', 'sh', 'html', 'css', 'json', ...Object.keys(ILLUSTRATIVE_LANGUAGES)]);
  for (const block of blocks.filter(checked)) assert.ok(languages.has(block.lang), `${where(block)}: \`\`\`${block.lang} is neither checked nor listed as illustrative`);
});

test('TypeScript blocks compile against the sources', () => {
  const directory = join(root, '.cache/doc-blocks');
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const names = new Map<string, Block>();
  for (const block of blocks.filter((b) => (b.lang === 'ts' || b.lang === 'tsx') && checked(b) && b.marker?.kind !== 'example' && b.marker?.kind !== 'file')) {
    const name = `${block.file.replace(/[/.]/g, '_')}_${block.line}.${block.lang}`;
    names.set(name, block);
    writeFileSync(join(directory, name), block.text);
  }
  const base = JSON.parse(read('tsconfig.json')) as { compilerOptions: { paths: Record<string, string[]> } };
  const paths = Object.fromEntries(Object.entries(base.compilerOptions.paths).map(([name, targets]) => [name, targets.map((target) => join('../..', target))]));
  writeFileSync(join(directory, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      ...base.compilerOptions, paths, plugins: [], jsx: 'react-jsx', types: ['node', 'react'], noUnusedLocals: false,
    },
    include: ['*.ts', '*.tsx', 'env.d.ts'],
  }, null, 2));
  // What a Vite app declares for import.meta.env, and the React typings the docs tell a React app to add.
  writeFileSync(join(directory, 'env.d.ts'), "import type {} from 'gw-elements/react';\ndeclare global { interface ImportMeta { readonly env: Record<string, string> } }\n");
  let output = '';
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', directory, '--noEmit', '--pretty', 'false'], { encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  // Point each error at its place in the Markdown file.
  const located = output.replace(/^(?:\.cache\/doc-blocks\/)?([\w-]+\.tsx?)\((\d+),(\d+)\)/gm, (whole, name: string, line: string) => {
    const block = names.get(name);
    return block ? `${block.file}:${block.line + Number(line)}` : whole;
  });
  assert.equal(located.trim(), '', `TypeScript blocks that do not compile:\n${located}`);
});

/** The `gw-sandbox` CLI's flags and trigger events, read from its usage texts. */
function sandboxCli() {
  const usage = read('src/sandbox/cli.ts') + TRIGGER_USAGE;
  const flags = new Set([...usage.matchAll(/--[a-z][a-z-]*/g)].map((match) => match[0]));
  const events = new Set([...TRIGGER_USAGE.matchAll(/^ {2}([a-z0-9-]+) /gm)].map((match) => match[1]!));
  return { flags, events };
}

test('shell blocks run only npm scripts that exist and gw-sandbox flags the CLI accepts', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const { flags, events } = sandboxCli();
  for (const block of blocks.filter((b) => b.lang === 'sh' && checked(b))) {
    for (const [index, raw] of block.text.split('\n').entries()) {
      const line = raw.replace(/\s#.*$/, '').replace(/^#.*$/, '');
      const at = `${block.file}:${block.line + 1 + index}`;
      for (const match of line.matchAll(/\bnpm (run|start|test|install)\b(?: ([\w:-]+))?/g)) {
        if (match[1] === 'run') assert.ok(scripts[match[2]!], `${at}: npm run ${match[2]} is not a script in package.json`);
        if (match[1] === 'start' || match[1] === 'test') assert.ok(scripts[match[1]], `${at}: npm ${match[1]}`);
      }
      const sandbox = /\bgw-sandbox\b(.*)$/.exec(line);
      if (sandbox) {
        for (const flag of sandbox[1]!.matchAll(/--[a-z][a-z-]*/g)) assert.ok(flags.has(flag[0]), `${at}: gw-sandbox has no ${flag[0]}`);
        const trigger = /^\s*trigger\s+(\S+)/.exec(sandbox[1]!);
        if (trigger) assert.ok(events.has(trigger[1]!), `${at}: gw-sandbox trigger has no event ${trigger[1]}`);
      }
    }
  }
});

interface Manifest { modules: { declarations?: { tagName?: string; attributes?: { name: string }[]; cssParts?: { name: string }[]; cssProperties?: { name: string }[] }[] }[] }
const elements = new Map(
  (JSON.parse(read('custom-elements.json')) as Manifest).modules.flatMap((module) => module.declarations ?? [])
    .filter((declaration) => declaration.tagName).map((declaration) => [declaration.tagName!, declaration]),
);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

test('HTML blocks are well-formed and use only declared elements and attributes', () => {
  type Node = DefaultTreeAdapterMap['node'];
  for (const block of blocks.filter((b) => b.lang === 'html' && checked(b))) {
    const walk = (node: Node) => {
      if ('tagName' in node) {
        const location = node.sourceCodeLocation;
        if (location && !VOID.has(node.tagName) && !location.endTag && !['html', 'head', 'body'].includes(node.tagName)) {
          assert.fail(`${block.file}:${block.line + location.startLine}: <${node.tagName}> is never closed`);
        }
        if (node.tagName.startsWith('gw-')) {
          const element = elements.get(node.tagName);
          assert.ok(element, `${where(block)}: <${node.tagName}> is not in custom-elements.json`);
          const declared = new Set((element.attributes ?? []).map((attribute) => attribute.name));
          for (const { name } of node.attrs) assert.ok(declared.has(name) || ['id', 'class', 'style', 'slot', 'part'].includes(name), `${where(block)}: <${node.tagName}> has no attribute ${name}`);
        }
      }
      const children = 'content' in node ? [node.content, ...node.childNodes] : 'childNodes' in node ? node.childNodes : [];
      for (const child of children) walk(child as Node);
    };
    walk(parseFragment(block.text, { sourceCodeLocationInfo: true }) as Node);
  }
});

test('CSS blocks style only declared parts and custom properties of the elements', () => {
  for (const block of blocks.filter((b) => b.lang === 'css' && checked(b))) {
    assert.equal(block.text.split('{').length, block.text.split('}').length, `${where(block)}: unbalanced braces`);
    for (const rule of block.text.matchAll(/(gw-[a-z0-9-]+)[^{]*\{([^}]*)\}/g)) {
      const element = elements.get(rule[1]!);
      assert.ok(element, `${where(block)}: ${rule[1]} is not in custom-elements.json`);
      const part = /::part\(([\w-]+)\)/.exec(rule[0]);
      if (part) assert.ok(element.cssParts?.some((p) => p.name === part[1]), `${where(block)}: ${rule[1]} has no part ${part[1]}`);
      for (const property of rule[2]!.matchAll(/(--[\w-]+)\s*:/g)) {
        assert.ok(element.cssProperties?.some((p) => p.name === property[1]), `${where(block)}: ${rule[1]} has no custom property ${property[1]}`);
      }
    }
  }
});

test('JSON blocks parse', () => {
  for (const block of blocks.filter((b) => b.lang === 'json' && checked(b))) assert.doesNotThrow(() => JSON.parse(block.text), where(block));
});
