// Puts the panes captured by test/e2e/browse-tmux.test.ts (test/.tmp/browse-panes/*.txt,
// raw `tmux capture-pane -p` output) into docs/browse.md, in place of the ```text block
// after each `<!-- pane: NAME -->` marker. Run after the e2e test:
//   bash scripts/node24 vitest run test/e2e/browse-tmux.test.ts && node test/e2e/browse-doc-panes.mjs
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const docs = new URL('../../docs/browse.md', import.meta.url);
const panes = new URL('../.tmp/browse-panes/', import.meta.url);
const text = readFileSync(docs, 'utf8');
const missing = [];
// The block's old content is empty or ends with a newline before the closing fence.
const out = text.replace(/(<!-- pane: ([\w-]+) -->\n```text\n)(?:[\s\S]*?\n)??(```)/g, (all, head, name, tail) => {
  const file = new URL(`${name}.txt`, panes);
  if (!existsSync(file)) {
    missing.push(name);
    return all;
  }
  return `${head}${readFileSync(file, 'utf8').replace(/\n+$/, '')}\n${tail}`;
});
writeFileSync(docs, out);
if (missing.length) {
  console.error(`no capture for: ${missing.join(', ')} (kept the old text)`);
  process.exitCode = 1;
}
