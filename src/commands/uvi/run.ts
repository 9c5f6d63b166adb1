// `meterdata uvi`: flags, the --benchmark file and the out folder are checked before any
// request; then sign-in, the walk of the 13 months and the files (src/export/uvi.ts). Exit 0
// also when some units' letters are incomplete: review.csv lists them. --all-profiles and
// --profiles run it for every listed profile at once on the export's portfolio.
import { ExitCode } from '../../core/errors.js';
import { prepareUvi, runUvi, uviSummaryJson, uviSummaryText } from '../../export/uvi.js';
import type { CommandContext } from '../context.js';
import type { UviCommandFlags } from './index.js';

export async function run(opts: UviCommandFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  if (opts.allProfiles === true || opts.profiles !== undefined)
    return (await import('../../export/portfolio/index.js')).runPortfolio(opts, io, 'uvi', ctx.now());
  const prepared = await prepareUvi(opts, io, ctx.now());
  const summary = await runUvi(prepared, io, ctx.connect);
  if (prepared.args.json) io.stdout.write(`${uviSummaryJson(summary)}\n`);
  if (!prepared.args.quiet) io.stderr.write(`${uviSummaryText(summary)}\n`);
  return ExitCode.OK;
}
