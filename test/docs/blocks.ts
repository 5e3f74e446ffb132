/**
 * The fenced code blocks of README.md and docs/*.md, and what each says it is
 * by the HTML comment right before it:
 *   <!-- file: PROJECT/PATH -->   a complete file: test/user pastes it verbatim
 *                                 at PATH in a fresh PROJECT (node, static,
 *                                 vite-react, vite-vue) and runs it
 *   <!-- example: PATH -->        a fragment of the repository's file PATH,
 *                                 which its own test runs: whole top-level
 *                                 statements of it, so a truncated block fails
 *   <!-- illustrative: reason --> not checked, and why
 * Unmarked blocks are checked by their language (test/docs/code-blocks.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export type MarkerKind = 'file' | 'example' | 'illustrative';

export interface Block {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly text: string;
  readonly marker?: { kind: MarkerKind; value: string };
}

/** The fenced blocks of one Markdown text, with the HTML comment right before each, if any. */
export function blocksOf(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith(open[1]!) && line.trim() === open[1]);
    if (end < 0) throw new Error(`${file}:${i + 1}: a block that never closes`);
    let previous = i - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous--;
    const comment = /^<!--\s*(file|example|illustrative):\s*(.+?)\s*-->$/.exec(lines[previous]?.trim() ?? '');
    blocks.push({
      file,
      line: i + 1,
      lang: open[2]!,
      text: lines.slice(i + 1, end).join('\n') + '\n',
      ...(comment ? { marker: { kind: comment[1] as MarkerKind, value: comment[2]! } } : {}),
    });
    i = end;
  }
  return blocks;
}

const root = new URL('../../', import.meta.url).pathname;

/** README.md and every docs/*.md, as the repository holds them. */
export const DOCUMENTS = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Every block of every document. */
export const documentBlocks = (): Block[] => DOCUMENTS.flatMap((file) => blocksOf(file, readFileSync(join(root, file), 'utf8')));

/** The complete files the documents give for one fresh project, by path, each with the block it came from. */
export function projectFiles(project: string): Map<string, Block> {
  const files = new Map<string, Block>();
  for (const block of documentBlocks().filter((b) => b.marker?.kind === 'file')) {
    const [name, ...path] = block.marker!.value.split('/');
    if (name !== project) continue;
    if (files.has(path.join('/'))) throw new Error(`${block.file}:${block.line}: a second block for ${block.marker!.value}`);
    files.set(path.join('/'), block);
  }
  return files;
}

/**
 * Whether `fragment` is a run of whole top-level statements of the TypeScript
 * `source` (leading comments included): a block cut inside a function, or
 * missing its first or last line, is not; nor is one that uses a name an
 * import declaration of `source` brings in without showing that declaration
 * (pasted, it would not compile).
 */
export function isWholeStatements(source: string, fragment: string, fileName = 'file.ts'): boolean {
  const text = fragment.trimEnd();
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const statements = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind).statements;
  for (let at = source.indexOf(text); at >= 0; at = source.indexOf(text, at + 1)) {
    const end = at + text.length;
    const first = statements.findIndex((statement) => statement.getFullStart() <= at && at <= statement.getStart());
    const startsALine = at === 0 || source[at - 1] === '\n';
    const last = first >= 0 ? statements.findIndex((statement, index) => index >= first && statement.end === end) : -1;
    if (startsALine && last >= 0 && !usesUnshownImport(statements, statements.slice(first, last + 1))) return true;
  }
  return false;
}

/** Whether the `shown` statements refer to a name that an import declaration among `statements`, not shown, brings in. */
function usesUnshownImport(statements: readonly ts.Statement[], shown: readonly ts.Statement[]): boolean {
  const imported = new Set<string>();
  for (const statement of statements) {
    if (!ts.isImportDeclaration(statement) || shown.includes(statement)) continue;
    const clause = statement.importClause;
    if (clause?.name) imported.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) imported.add(bindings.name.text);
    else if (bindings) for (const element of bindings.elements) imported.add(element.name.text);
  }
  const refersToImport = (node: ts.Node): boolean =>
    (ts.isIdentifier(node) && imported.has(node.text) && !isMemberName(node)) || (ts.forEachChild(node, refersToImport) ?? false);
  return imported.size > 0 && shown.some(refersToImport);
}

/** An identifier that names a property or member (`a.name`, `{ name: … }`, `name()` in a class), not a binding in scope. */
function isMemberName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isQualifiedName(parent)) return parent.right === node;
  if (ts.isBindingElement(parent)) return parent.propertyName === node;
  const named =
    ts.isPropertyAccessExpression(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent) ||
    ts.isPropertySignature(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isGetAccessorDeclaration(parent) ||
    ts.isSetAccessorDeclaration(parent) ||
    ts.isEnumMember(parent) ||
    ts.isJsxAttribute(parent);
  return named && parent.name === node;
}
