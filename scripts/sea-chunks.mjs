// The single executable's bundle in two parts (scripts/build-exe.mjs): its script holds only
// what a start runs, and each command's code is an asset compiled when that command is first
// imported. V8 deserializes and runs the whole script at every start: with every command in it
// (4.3 MB: Ink, exceljs, pdfkit, the sandbox) that cost 28 ms of CPU, about what the whole CLI
// costs a start from a clone (bench/README.md, "Start-up").
// esbuild splits src/sea/main.ts into ES module chunks (a lazy import() is a chunk); each
// chunk is turned into CommonJS (its imports become require() calls of the other chunks),
// and the script carries a small loader that runs a chunk once, from the script or an asset.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startupOf } from './bundle-cli.mjs';

/**
 * As in scripts/bundle-cli.mjs: every module of src outside the start-up, and those of it also
 * imported lazily, import the entry. All run after the entry, so the import changes nothing
 * when they run; it gives all the start-up's modules the same entries, hence one chunk.
 */
function startupInOneChunk(entry, startup) {
  return {
    name: 'meterdata-sea-startup-chunk',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (a) => {
        if (startup.modules.has(a.path) && !startup.lazy.has(a.path)) return undefined;
        const src = readFileSync(a.path, 'utf8');
        return { contents: `${src}\nimport ${JSON.stringify(entry)};\n`, loader: a.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

/** Runs chunk `id` once with its exports; a chunk not in the script is the asset chunks/<id>. */
const LOADER = `"use strict";
const __mdDone = {};
function __mdRequire(id) {
  if (!id.startsWith("./")) return require(id);
  if (__mdDone[id]) return __mdDone[id].exports;
  const module = (__mdDone[id] = { exports: {} });
  const run = __mdChunks[id] ?? require("node:vm").runInThisContext("(function (exports, require, module) {" + require("node:sea").getAsset("chunks/" + id.slice(2), "utf8") + "\\n})", { filename: "meterdata-sea:/embedded/" + id.slice(2) });
  run.call(module.exports, module.exports, __mdRequire, module);
  return module.exports;
}
`;

/**
 * The executable's script (its text) and the chunks to embed as assets ({ 'chunks/<name>': code });
 * `options` are build-exe's esbuild settings, `out` the script's path.
 */
export async function bundleInChunks(esbuild, { root, entry, out, options }) {
  const common = {
    ...options,
    absWorkingDir: root,
    entryPoints: { main: entry },
    format: 'esm',
    splitting: true,
    outdir: path.join(path.dirname(out), 'chunks'),
    metafile: true,
  };
  delete common.outfile;
  const first = await esbuild.build({ ...common, write: false });
  const startup = startupOf(first.metafile, entry);
  const result = await esbuild.build({ ...common, write: false, plugins: [...options.plugins, startupInOneChunk(entry, startup)] });
  const main = result.outputFiles.find((f) => path.basename(f.path) === 'main.js');
  // what main.js imports statically is the start-up: in the script, so the code cache holds it
  const inScript = new Set([
    'main.js',
    ...result.metafile.outputs[path.relative(root, main.path)].imports
      .filter((i) => i.kind === 'import-statement' && !i.external)
      .map((i) => path.basename(i.path)),
  ]);
  const defs = [];
  const assets = {};
  for (const f of result.outputFiles) {
    const name = path.basename(f.path);
    // import() of a chunk becomes a require() too (the executable has no files to import); the
    // bundling above warned already, and not about the packages' code, which a transform would
    const cjs = (
      await esbuild.transform(f.text, {
        format: 'cjs',
        loader: 'js',
        minify: options.minify,
        target: options.target,
        supported: { 'dynamic-import': false },
        logLevel: 'error',
      })
    ).code;
    if (inScript.has(name)) defs.push(`${JSON.stringify(`./${name}`)}: function (exports, require, module) {\n${cjs}\n}`);
    else assets[`chunks/${name}`] = cjs;
  }
  const script = `${LOADER}const __mdChunks = {\n${defs.join(',\n')}\n};\n__mdRequire("./main.js");\n`;
  return { script, assets, inScript: [...inScript] };
}
