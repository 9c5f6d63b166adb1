// Entry point of the single executable (scripts/build-exe.mjs bundles it with esbuild and
// embeds it with Node's single executable application support). It hands the embedded
// copies of package.json, the templates and the letters' fonts to the CLI, prepares Ink's layout engine
// (its module needs top-level await, which a CommonJS bundle cannot have), then runs
// the same main() as bin/meterdata.js.
import { getAsset } from 'node:sea';
import { main } from '../cli.js';
import { useEmbeddedResources } from '../core/resources.js';
import { initYoga } from './yoga.js';

const text = (rel: string): string => getAsset(rel, 'utf8');

const bytes = (rel: string): Uint8Array => new Uint8Array(getAsset(rel));

useEmbeddedResources((JSON.parse(text('package.json')) as { version: string }).version, text, bytes);

// The reader of the output went away (`meterdata --help | head`, a log reader that died: EPIPE) or the
// terminal did (an ssh session dropped, the window closed: EIO): the messages go with it, not the run,
// which ends with the status its work gives (a SIGHUP that came along: 130, nothing half-written, locks
// freed). Exiting here once ended an export mid-walk with 0 and nothing written. Once a stream has
// failed, its later writes fail too and are dropped the same way.
const gone = new Set();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'EIO' || gone.has(stream)) {
      gone.add(stream);
      return;
    }
    throw e;
  });
}

void (async () => {
  // Only the terminal UI lays out with Yoga; --version and cron exports skip compiling it.
  if (process.argv.slice(2).some((a) => a === 'browse')) await initYoga();
  process.exitCode = await main(process.argv.slice(2));
})();
