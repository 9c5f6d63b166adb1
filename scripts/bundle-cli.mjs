// Second half of `npm run build`: the CLI that bin/meterdata.js starts, bundled from tsc's
// dist/ into dist/bundle/ by esbuild. Loading a module costs Node's loader more than its
// code costs V8 (bench/README.md, "Start-up"): --help loads three files of meterdata's
// instead of 66. Each command's handler stays a chunk loaded when that command runs, so
// --help still loads no Ink, exceljs or pdfkit; the packages stay in node_modules.
// dist/ stays as tsc wrote it: the tests import it, and the worker threads load their
// modules from it (core/isolate.ts), so a worker runs what it ran before.
// Writes dist/bundle/inputs.json too: which of dist/'s modules each file holds, for
// test/e2e/startup.test.ts to tell what a start loaded.
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outdir = path.join(dist, 'bundle');
const CLI = path.join(dist, 'cli.js');
// Every start parses its flags with commander: bundled in, it is a part of the one chunk
// rather than seven modules more. The other packages stay in node_modules.
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const EXTERNAL = Object.keys(dependencies)
  .filter((d) => d !== 'commander')
  .flatMap((d) => [d, `${d}/*`]);

const COMMON = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: EXTERNAL,
  // errors take their name from their class (core/errors.ts: new.target.name)
  keepNames: true,
  // tsc's maps are read in, so a stack trace maps back to src/*.ts as dist/'s do
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  // for builtinsByRequire: a require() in each file of the bundle
  banner: { js: "import { createRequire as __meterdataRequire } from 'node:module';\nconst require = __meterdataRequire(import.meta.url);" },
};

const BUILTIN = new Set(builtinModules);

/**
 * Node's own modules taken with require(), not import: an import of a built-in builds its
 * namespace, reading every export, which loads what each lazy one stands for (node:util its
 * argument parser and diff, node:fs/promises its watchers and readline): about 16 ms of CPU
 * at every start against 4 for the same modules required (bench/README.md, "Start-up").
 * Each export the bundle uses is read once from the required module; the rest are never
 * read (unused, they are dropped), nor is any property descriptor, which also loads them.
 * LAZY ones, which a start imports but never calls (commander's spawn for subcommands it
 * runs as programs, which meterdata has none of; the files' fs/promises), are only required
 * at their first use: their functions are wrappers, their default export a proxy that reads.
 */
const LAZY = new Set(['child_process', 'fs/promises']);

function builtinModule(name, require) {
  const bare = name.replace(/^node:/, '');
  const mod = require(name);
  const names = Object.keys(mod).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default');
  const lines = [`let m; const mod = () => (m ??= require(${JSON.stringify(name)}));`];
  if (!LAZY.has(bare)) {
    lines.push('mod();', 'export default m;');
    for (const k of names) {
      // fs.promises is node:fs/promises: the lazy one
      const lazy = [...LAZY].find((l) => mod[k] === require(l));
      lines.push(lazy ? `export { default as ${k} } from 'node:${lazy}';` : `export const ${k} = /* @__PURE__ */ (() => m.${k})();`);
    }
    return lines.join('\n');
  }
  lines.push('export default /* @__PURE__ */ new Proxy({}, { get: (_, k) => mod()[k], has: (_, k) => k in mod() });');
  for (const k of names) {
    // a class (capitalised, by Node's convention) stays itself: `new` and instanceof need it
    if (typeof mod[k] === 'function' && /^[a-z]/.test(k)) lines.push(`export function ${k}(...a) { return mod().${k}(...a); }`);
    else lines.push(`export const ${k} = /* @__PURE__ */ (() => mod().${k})();`);
  }
  return lines.join('\n');
}

/** All built-ins as above, or (`lazyOnly`, for the single executable's CommonJS bundle, which requires them anyway) only the LAZY ones. */
export function builtinsByRequire({ lazyOnly = false } = {}) {
  return {
    name: 'meterdata-builtins-by-require',
    setup(b) {
      const require = createRequire(import.meta.url);
      b.onResolve({ filter: /^[a-z_]/ }, (a) => {
        if (!a.path.startsWith('node:') && !BUILTIN.has(a.path)) return undefined;
        if (a.kind === 'require-call' || (lazyOnly && !LAZY.has(a.path.replace(/^node:/, '')))) return { path: a.path, external: true };
        return { path: a.path, namespace: 'builtin-by-require' };
      });
      b.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (a) => ({ contents: builtinModule(a.path, require), loader: 'js' }));
    },
  };
}

/**
 * A module's import.meta.url names its file in dist/, as if it had not been bundled: the
 * package's files (package.json, templates, fonts) are found from there, and the worker
 * threads are handed dist/'s modules (isolate-worker.js, the export's stageInWorker …).
 * Every chunk lies directly in dist/bundle/, so one relative path serves all of them.
 *
 * esbuild splits what several entries share by the set of entries that reach it, and takes
 * every dynamic import for an entry: the start-up's modules would land in a chunk for each
 * set of handlers that uses them (18 files for --help). A command's modules, and what any
 * module imports lazily, are only ever loaded after the CLI's: each of them importing the
 * CLI changes nothing when it runs, and puts all the start-up's modules into one chunk.
 */
function distPlugin(startup) {
  return {
    name: 'meterdata-dist',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (a) => {
        if (!a.path.startsWith(dist + path.sep)) return undefined;
        let src = readFileSync(a.path, 'utf8');
        const rel = path.relative(outdir, a.path).split(path.sep).join('/');
        src = src.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
        // appended, not prepended: tsc's source map stays line for line
        if (startup && (!startup.modules.has(a.path) || startup.lazy.has(a.path))) src += `\nimport ${JSON.stringify(CLI)};\n`;
        return { contents: src, loader: 'js' };
      });
    },
  };
}

/** The start-up (`entry` and its static imports, from an esbuild metafile), and those of its modules also imported lazily. */
export function startupOf(metafile, entry) {
  const seen = new Set();
  const visit = (rel) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    for (const i of metafile.inputs[rel].imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(path.relative(root, entry).split(path.sep).join('/'));
  const lazy = Object.values(metafile.inputs).flatMap((m) => m.imports.filter((i) => i.kind === 'dynamic-import' && seen.has(i.path)).map((i) => i.path));
  const abs = (list) => new Set([...list].map((rel) => path.join(root, rel)));
  return { modules: abs(seen), lazy: abs(lazy) };
}

/** The modules the CLI loads before any command runs. */
async function startupModules(esbuild) {
  const r = await esbuild.build({
    ...COMMON,
    entryPoints: [CLI],
    splitting: true,
    write: false,
    metafile: true,
    plugins: [builtinsByRequire(), distPlugin(null)],
  });
  return startupOf(r.metafile, CLI);
}

async function bundleCli() {
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  // bin/meterdata.js needs the cache folder before the CLI's modules compile: paths.js on its own
  // (it keeps no state, so its copy in the CLI's chunk is no second one of anything)
  await esbuild.build({ ...COMMON, entryPoints: { paths: 'dist/core/paths.js' }, plugins: [builtinsByRequire(), distPlugin(null)] });
  const startup = await startupModules(esbuild);
  const result = await esbuild.build({
    ...COMMON,
    entryPoints: { cli: CLI },
    splitting: true,
    metafile: true,
    plugins: [builtinsByRequire(), distPlugin(startup)],
  });
  const inputs = { 'paths.js': ['dist/core/paths.js'] };
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.js')) inputs[path.basename(file)] = Object.keys(out.inputs).sort();
  }
  writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify(inputs, null, 1) + '\n');
  return { files: Object.keys(inputs).length, startup: startup.modules.size };
}

// Run as a script (scripts/build-exe.mjs and sea-chunks.mjs import from it).
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  const { files, startup } = await bundleCli();
  process.stderr.write(`build: dist/bundle holds the CLI in ${files} files, the ${startup} modules of its start in one\n`);
}
