// `meterdata export`: flags, template and out folder are checked before any request;
// then sign-in, the walk and the files (src/export). Exit 0 also when values were not
// billed or need review (they are listed in review.csv); with --strict such a run
// ends with exit 6 (code EXPORT_FLAGS_STRICT) after all files were written.
import { ExitCode, toldInJson } from '../../core/errors.js';
import type { CommandContext } from '../context.js';
import type { ExportCommandFlags } from './index.js';
import { exportSingle, prepareExport } from '../../export/single.js';
import { strictFailure, summaryJson, summaryText } from '../../export/summary.js';

export async function run(opts: ExportCommandFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  if (opts.allProfiles === true || opts.profiles !== undefined) return (await import('../../export/portfolio/index.js')).runPortfolio(opts, io);
  const { args, template } = await prepareExport(opts, io);
  const summary = await exportSingle(args, template, io, ctx.connect);
  const failure = args.strict ? strictFailure(summary, template) : null;
  if (args.json) io.stdout.write(`${summaryJson(summary, failure)}\n`);
  if (!args.quiet) io.stderr.write(`${summaryText(summary, template)}\n`);
  // Its facts are in the summary object: --json prints one object, not a second for the failure.
  if (failure) throw args.json ? toldInJson(failure) : failure;
  return ExitCode.OK;
}
