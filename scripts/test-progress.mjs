/**
 * A node:test reporter for scripts/test.mjs's watchdog: one line per file or
 * test that starts (`run`) or ends (`done`), so a stage that stalls can be
 * reported by the file (and test) it stalled in. Written to a file, never to
 * the console; the spec reporter stays the one people read.
 */
export default async function* progress(source) {
  for await (const event of source) {
    const { file, name } = event.data ?? {};
    if (file === undefined) continue;
    if (event.type === 'test:dequeue') yield `run\t${file}\t${name}\n`;
    else if (event.type === 'test:complete') yield `done\t${file}\t${name}\n`;
  }
}
