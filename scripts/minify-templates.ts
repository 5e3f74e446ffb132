/**
 * The elements' `css` and `html` tagged templates are written readably and
 * minified here, at build time: by the Vite library build (`viteMinifyTemplates`)
 * by the size benchmark's esbuild bundle (`esbuildMinifyTemplates`) and by the
 * browser tests (`testRunnerMinifyTemplates`), so all three measure, test and
 * ship the same bytes. CSS goes through esbuild's CSS minifier;
 * in HTML, whitespace that holds a line break is indentation: dropped between
 * tags and around bindings (as JSX does), one space inside a tag or between words.
 */
import { readFile } from 'node:fs/promises';
import { transformSync, type Plugin as EsbuildPlugin } from 'esbuild';
import ts from 'typescript';
import type { Plugin as VitePlugin } from 'vite';

/** Stands for a binding (`${…}`) while an HTML template's text is scanned; never in our markup. */
const BINDING = '\u0000';

function minifyCss(text: string): string {
  const minified = transformSync(text, { loader: 'css', minify: true }).code.trim();
  // Must stay valid template text: no backtick, no `${`, no escape.
  return /[`\\]|\$\{/.test(minified) ? text : minified;
}

function minifyHtml(parts: readonly string[]): string[] {
  const text = parts.join(BINDING);
  let out = '';
  let inTag = false;
  let quote = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === quote) quote = '';
      out += char;
      continue;
    }
    if (/\s/.test(char)) {
      let end = index;
      while (end < text.length && /\s/.test(text[end]!)) end++;
      const run = text.slice(index, end);
      index = end - 1;
      if (!run.includes('\n')) {
        out += run;
        continue;
      }
      const before = out.at(-1) ?? BINDING;
      const after = text[end] ?? BINDING;
      if (inTag) out += after === '>' || after === '/' ? '' : ' ';
      else if (!['>', BINDING].includes(before) && !['<', BINDING].includes(after)) out += ' ';
      continue;
    }
    if (inTag && (char === '"' || char === "'")) quote = char;
    else if (char === '<') inTag = true;
    else if (char === '>') inTag = false;
    out += char;
  }
  return out.split(BINDING);
}

/** One replacement of original text [start, end). */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The raw text of each literal part of a template: the characters between its delimiters. */
function literalRanges(template: ts.TemplateLiteral, source: ts.SourceFile): [number, number][] {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return [[template.getStart(source) + 1, template.end - 1]];
  const parts = [template.head, ...template.templateSpans.map((span) => span.literal)];
  // A head or a middle ends with `${`, a tail with a backtick; each starts after a backtick or `}`.
  return parts.map((part) => [part.getStart(source) + 1, part.end - (ts.isTemplateTail(part) ? 1 : 2)]);
}

function templateEdits(code: string, fileName: string): Edit[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'css' || node.tag.text === 'html')) {
      const ranges = literalRanges(node.template, source);
      const raw = ranges.map(([start, end]) => code.slice(start, end));
      // CSS with bindings is left as written: esbuild cannot read it.
      const minified = node.tag.text === 'html' ? minifyHtml(raw) : raw.length === 1 ? [minifyCss(raw[0]!)] : raw;
      ranges.forEach(([start, end], index) => {
        if (minified[index] !== raw[index]) edits.push({ start, end, text: minified[index]! });
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edits.sort((a, b) => a.start - b.start);
}

const VLQ = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = '';
  do {
    const digit = rest & 31;
    rest >>>= 5;
    out += VLQ[rest ? digit | 32 : digit];
  } while (rest);
  return out;
}

/**
 * Applies `edits` and maps the result back to `code`: a segment at each output
 * line start and after each edit (what magic-string's default maps give).
 */
function applyEdits(
  code: string,
  edits: readonly Edit[],
  fileName: string,
): { code: string; map: { version: 3; sources: string[]; sourcesContent: string[]; names: never[]; mappings: string } } {
  const position = (offset: number) => {
    const before = code.slice(0, offset);
    const line = before.split('\n').length - 1;
    return { line, column: offset - (before.lastIndexOf('\n') + 1) };
  };
  let out = '';
  const lines: string[][] = [[]];
  let last = { line: 0, column: 0 };
  let lastGeneratedColumn = 0;
  const mark = (originalOffset: number) => {
    const original = position(originalOffset);
    const generatedColumn = out.length - (out.lastIndexOf('\n') + 1);
    const segments = lines.at(-1)!;
    const relativeColumn = generatedColumn - (segments.length ? lastGeneratedColumn : 0);
    segments.push(vlq(relativeColumn) + 'A' + vlq(original.line - last.line) + vlq(original.column - last.column));
    last = original;
    lastGeneratedColumn = generatedColumn;
  };
  /** Copies code[from, to) and starts a segment on each line it begins. */
  const copy = (from: number, to: number) => {
    mark(from);
    for (let offset = from; offset < to; offset++) {
      out += code[offset];
      if (code[offset] === '\n') {
        lines.push([]);
        if (offset + 1 < to) mark(offset + 1);
      }
    }
  };
  let cursor = 0;
  for (const edit of edits) {
    copy(cursor, edit.start);
    mark(edit.start);
    for (const char of edit.text) {
      out += char;
      if (char === '\n') lines.push([]);
    }
    cursor = edit.end;
  }
  copy(cursor, code.length);
  return {
    code: out,
    map: {
      version: 3,
      sources: [fileName],
      sourcesContent: [code],
      names: [],
      mappings: lines.map((segments) => segments.join(',')).join(';'),
    },
  };
}

/** The module with its `css` and `html` templates minified, or undefined when it has none. */
export function minifyTemplates(code: string, fileName: string) {
  if (!/\b(?:css|html)`/.test(code)) return undefined;
  const edits = templateEdits(code, fileName);
  return edits.length ? applyEdits(code, edits, fileName) : undefined;
}

const COMPONENT_SOURCE = /[\\/]src[\\/]components[\\/].*\.ts$/;

/** For the Vite library build: the components' templates, minified before the TypeScript is compiled. */
export function viteMinifyTemplates(): VitePlugin {
  return {
    name: 'gw-minify-templates',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      return COMPONENT_SOURCE.test(id) ? minifyTemplates(code, id) : undefined;
    },
  };
}

/** For an esbuild bundle of the components (the size benchmark). */
export function esbuildMinifyTemplates(): EsbuildPlugin {
  return {
    name: 'gw-minify-templates',
    setup(build) {
      build.onLoad({ filter: COMPONENT_SOURCE }, async ({ path }) => {
        const code = await readFile(path, 'utf8');
        return { contents: minifyTemplates(code, path)?.code ?? code, loader: 'ts' };
      });
    },
  };
}

/** For @web/test-runner: the tests run the markup that ships. Put it before the TypeScript plugin. */
export function testRunnerMinifyTemplates(): {
  name: string;
  transform(context: { path: string; body: unknown }): { body: string } | undefined;
} {
  return {
    name: 'gw-minify-templates',
    transform(context) {
      if (!COMPONENT_SOURCE.test(context.path) || typeof context.body !== 'string') return undefined;
      const minified = minifyTemplates(context.body, context.path);
      return minified ? { body: minified.code } : undefined;
    },
  };
}
