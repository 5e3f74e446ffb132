/**
 * The elements ship each developer message as its gist and a link to its
 * explanation in docs/messages.md (src/components/shared/messages.ts): every
 * link must land on an entry, and every entry must still be a message.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { explained } from '../../src/components/shared/messages.js';

const root = join(import.meta.dirname, '../..');
const sourcesUnder = (folder: string): string[] =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => readFileSync(join(root, folder, name), 'utf8'));

/** The id of every `explained('id', …)` in the elements' sources. */
const used = new Set(
  sourcesUnder('src/components').flatMap((text) => [...text.matchAll(/\bexplained\(\s*'([^']+)'/g)].map((match) => match[1]!)),
);
const documented = readFileSync(join(root, 'docs/messages.md'), 'utf8');
/** GitHub's anchor of each `### heading` (these headings are already lower-case words and dashes). */
const entries = [...documented.matchAll(/^### (.+)$/gm)].map((match) => match[1]!);

describe('developer messages: a gist in the code, the explanation in docs/messages.md', () => {
  it('finds the messages (the scan is not empty)', () => {
    assert.ok(used.size >= 10, `only ${used.size} explained(…) calls found`);
  });

  it('has an entry for every message the elements ship, and no entry for one they no longer ship', () => {
    assert.deepEqual([...used].sort(), [...entries].sort());
  });

  it('gives each entry a heading GitHub links to as written (one anchor per id)', () => {
    for (const entry of entries) assert.match(entry, /^[a-z0-9]+(-[a-z0-9]+)*$/, entry);
    assert.equal(new Set(entries).size, entries.length);
  });

  it('links the message to its entry on the repository', () => {
    assert.equal(
      explained('base-url', 'base-url must be an https URL'),
      'base-url must be an https URL (https://github.com/gw-elements/gw-elements/blob/main/docs/messages.md#base-url)',
    );
  });
});
