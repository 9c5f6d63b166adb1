// Entry point of the single executable (scripts/build-exe.mjs bundles it with esbuild and
// embeds it with Node's single executable application support). It hands the embedded
// copies of package.json, the templates and the letters' fonts to the CLI, prepares Ink's layout engine
// (its module needs top-level await, which a CommonJS bundle cannot have), then runs
// the same main() as bin/meterdata.js.
import { getAsset } from 'node:sea';
import { endWhenDrained, main } from '../cli.js';
import { useEmbeddedResources } from '../core/resources.js';
import { initYoga } from './yoga.js';

const text = (rel: string): string => getAsset(rel, 'utf8');

const bytes = (rel: string): Uint8Array => new Uint8Array(getAsset(rel));

useEmbeddedResources((JSON.parse(text('package.json')) as { version: string }).version, text, bytes);

// A failed write to stdout or stderr (a reader gone, a full disk) is the CLI's to handle: src/cli.ts, guardOutput.

void (async () => {
  // Only the terminal UI lays out with Yoga; --version and cron exports skip compiling it.
  if (process.argv.slice(2).some((a) => a === 'browse')) await initYoga();
  process.exitCode = await main(process.argv.slice(2));
  // as bin/meterdata.js: nothing left open keeps the process alive once it has said everything (src/core/process-end.ts)
  endWhenDrained();
})();
