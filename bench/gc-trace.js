// `--trace-gc` output of one export (MD_BENCH_NODE_ARGS=--trace-gc, MD_BENCH_STDOUT) summed by
// isolate: scavenges, mark-compacts, the heap's peak before a collection and its size after
// the last mark-compact, and the time spent in each kind. The walks' isolate is the one whose
// first collection comes first after the main thread's (the workbook workers start later).
//   node bench/gc-trace.js /tmp/trace.txt.p16
import { readFileSync } from 'node:fs';

const line =
  /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep)\S*\s+([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, pooled: [\d.]+ MB, ([\d.]+) \/ ([\d.]+) ms/;
const isolates = new Map();
for (const text of readFileSync(process.argv[2], 'utf8').split('\n')) {
  const m = line.exec(text);
  if (!m) continue;
  const [, id, at, kind, before, , after] = m;
  const s = isolates.get(id) ?? { first: Number(at), scavenges: 0, markCompacts: 0, peak: 0, afterFull: [], ms: { minor: 0, full: 0 } };
  isolates.set(id, s);
  const full = kind.startsWith('Mark');
  if (full) (s.markCompacts++, s.afterFull.push(Number(after)));
  else s.scavenges++;
  s.ms[full ? 'full' : 'minor'] += Number(m[8]);
  s.peak = Math.max(s.peak, Number(before));
}
const rows = [...isolates].sort((a, b) => b[1].peak - a[1].peak);
for (const [id, s] of rows)
  console.log(
    `${id}: ${s.scavenges} scavenges (${s.ms.minor.toFixed(0)} ms), ${s.markCompacts} mark-compacts (${s.ms.full.toFixed(0)} ms in the pause), heap peak ${s.peak.toFixed(1)} MB, after each mark-compact ${s.afterFull.map((x) => x.toFixed(0)).join(' ')} MB`,
  );
