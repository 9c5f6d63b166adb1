// Inclusive CPU time (self and everything it called) of the named functions in the CPU profiles one
// process wrote (`--cpu-prof --cpu-prof-dir=DIR`), per thread, from the profile's call tree; where
// bench/cpu-profile.js sums self time, this says what a step costs as a whole (a font subset's
// `embed`, a letter's `renderLetter`). A function counts once per sample however deep it recurs.
//   node bench/cpu-inclusive.js /tmp/prof embed renderLetter _decode
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const [dir, ...names] = process.argv.slice(2);
if (!dir || names.length === 0) {
  console.error('usage: node bench/cpu-inclusive.js <dir of .cpuprofile files> <function name>…');
  process.exit(2);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url, lineNumber } = byId.get(cur).callFrame;
      if (!names.includes(functionName)) continue;
      const key = `${functionName} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  console.log(`\n## ${file}: ${(total / 1000).toFixed(0)} ms sampled\n\n| inclusive | function |\n| ---: | --- |`);
  for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1])) console.log(`| ${(us / 1000).toFixed(0)} ms | \`${key}\` |`);
}
