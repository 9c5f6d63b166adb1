#!/usr/bin/env node
// Tiny launcher: checks the Node.js version, then the compiled CLI does everything,
// including choosing the exit code. This file must stay parseable by old Node.js (no
// static import of the CLI: its modules need a newer Node before any line here runs).
// The default export only: a named import Node.js 20 lacks would fail before the check below.
import module from 'node:module';

// Node's own modules by require(), as in the bundle (scripts/bundle-cli.mjs): an import of
// node:fs reads every export of its namespace, which loads the lazy ones (fs/promises, streams).
const require = module.createRequire(import.meta.url);
const { readFileSync } = require('node:fs');
const path = require('node:path');

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const need = /(\d+)\.(\d+)\.(\d+)/.exec(pkg.engines.node).slice(1).map(Number);
const have = process.versions.node.split('.').map(Number);
const older = have[0] !== need[0] ? have[0] < need[0] : have[1] !== need[1] ? have[1] < need[1] : have[2] < need[2];
if (older) {
  process.stderr.write(
    'meterdata needs Node.js ' +
      need.join('.') +
      ' or newer, but this is Node.js ' +
      process.versions.node +
      ': install Node.js 24 LTS from https://nodejs.org, or use the single executable that needs no Node.js (see docs/install.md).\n',
  );
  process.exit(1);
}

// V8's compiled code for meterdata's modules, kept in the user's cache folder: compiling them
// is part of every start (bench/README.md, "Start-up"). Node.js checks each entry against its source
// and only reports (never throws) when the folder cannot be made or written: read-only or
// missing, meterdata runs as without it. NODE_COMPILE_CACHE, where set, decides instead.
// Not on /proc or /sys (XDG_CACHE_HOME or METERDATA_HOME there): Node's mkdir of it would never return, at full CPU.
const { dirs, onKernelFs } = await import('../dist/bundle/paths.js');
let compileCache = null;
try {
  compileCache = path.join(dirs().cache, 'compile-cache');
} catch {
  // no home folder to be found: the CLI says so (src/core/paths.ts HomeUnknownError)
}
if (compileCache && !onKernelFs(compileCache)) module.enableCompileCache?.(compileCache);

const { main, endWhenDrained } = await import('../dist/bundle/cli.js');

// A failed write to stdout or stderr (a reader gone, a full disk) is the CLI's to handle: src/cli.ts, guardOutput.

process.exitCode = await main(process.argv.slice(2));
// Said and done: nothing the CLI left open keeps the process alive, once stdout and stderr are written (src/core/process-end.ts).
endWhenDrained();
