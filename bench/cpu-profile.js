// Sums the self time of the CPU profiles one process wrote (`--cpu-prof --cpu-prof-dir=DIR`,
// one file per thread: main thread, the export's walk, the workbook workers) by thread kind,
// then by function and by module, so a profile of the portfolio run reads as a table:
//   MD_BENCH_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/run.js --only portfolio --sizes 16 --tag prof
//   node bench/cpu-profile.js /tmp/prof [--top 15]
// A thread's kind comes from the code it ran (the API client: the walks; else exceljs: a workbook worker).
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

const args = process.argv.slice(2);
const dir = args[0];
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 15;
if (!dir) {
  console.error('usage: node bench/cpu-profile.js <dir of .cpuprofile files> [--top N]');
  process.exit(2);
}

/** A module's short name: the package under node_modules, else the path under dist/ or node:internal. */
function moduleOf(url) {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const d = url.lastIndexOf('/dist/');
  if (d >= 0) return url.slice(d + 1);
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return url;
}

/** Self time in ms per node id: each sample's time delta goes to the node it sampled. */
function selfTimes(profile) {
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return self;
}

function summarise(profile) {
  const self = selfTimes(profile);
  const byFunction = new Map();
  const byModule = new Map();
  let total = 0;
  let idle = 0;
  const urls = new Set();
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    urls.add(url);
    if (functionName === '(idle)') {
      idle += ms;
      continue;
    }
    total += ms;
    const mod = functionName.startsWith('(') ? functionName : moduleOf(url);
    const fn = functionName.startsWith('(') ? functionName : `${functionName || '(anonymous)'} ${mod}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byModule.set(mod, (byModule.get(mod) ?? 0) + ms);
  }
  const all = [...urls].join('\n');
  // the walks' thread loads exceljs' helpers too, but only it runs the API client
  const kind = all.includes('/dist/api/') ? 'walks' : all.includes('node_modules/exceljs') ? 'workbook worker' : 'other';
  return { kind, total, idle, byFunction, byModule };
}

function add(into, from) {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
}

const kinds = new Map();
for (const name of (await readdir(dir)).filter((n) => n.endsWith('.cpuprofile')).sort()) {
  const s = summarise(JSON.parse(await readFile(path.join(dir, name), 'utf8')));
  const k = kinds.get(s.kind) ?? { threads: 0, total: 0, idle: 0, byFunction: new Map(), byModule: new Map() };
  k.threads++;
  k.total += s.total;
  k.idle += s.idle;
  add(k.byFunction, s.byFunction);
  add(k.byModule, s.byModule);
  kinds.set(s.kind, k);
}

const rows = (m, total) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `| ${v.toFixed(0)} ms | ${((100 * v) / total).toFixed(1)} % | \`${k}\` |`)
    .join('\n');
for (const [kind, k] of kinds) {
  console.log(`\n## ${kind}: ${k.threads} thread(s), ${(k.total / 1000).toFixed(2)} s busy, ${(k.idle / 1000).toFixed(2)} s idle\n`);
  console.log(`| self | share | module |\n| ---: | ---: | --- |\n${rows(k.byModule, k.total)}\n`);
  console.log(`| self | share | function |\n| ---: | ---: | --- |\n${rows(k.byFunction, k.total)}`);
}
