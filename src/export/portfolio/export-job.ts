// The export's job in the portfolio (portfolio-job.ts): each profile an ordinary export into
// <out>/<profile>/ (the bytes of `meterdata export --profile P --out <out>/P`), and --strict
// as that export's exit 6 when its files hold findings.
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import type { Io } from '../../core/io.js';
import { identity, parseExportArgs } from '../options/index.js';
import { checkOutDir, MANIFEST } from '../folder/index.js';
import { finalNames, findingsPlace, loadTemplate } from '../output/index.js';
import type { JobOutcome, PortfolioJob } from './portfolio-job.js';
import { t } from './texts-portfolio.js';

export async function exportJob(opts: Record<string, unknown>, io: Io): Promise<PortfolioJob> {
  const base = parseExportArgs({ ...opts, profile: undefined }, io.cwd, io.env);
  const template = await loadTemplate(base.template, io.cwd);
  const { profile: _p, ...shared } = identity(base);
  return {
    out: base.out,
    quiet: base.quiet,
    json: base.json,
    singleManifest: path.join(base.out, MANIFEST),
    recordKey: { out: base.out, ...shared },
    writesWorkbooks: true,
    argsFor: (profile) => ({ ...base, profile, out: path.join(base.out, profile) }),
    check: (args) => checkOutDir(args.out, identity(args), finalNames(template, args.formats), args),
    async run(args, profileIo, profileShared): Promise<JobOutcome> {
      const { exportProfile } = await import('../single.js');
      const summary = await exportProfile(args, template, profileIo, profileShared);
      const attention = summary.flags.not_billed + summary.flags.review;
      if (!args.strict || attention === 0) return { summary, exitCode: ExitCode.OK };
      return {
        summary,
        exitCode: ExitCode.NEEDS_REVIEW,
        error: {
          code: 'EXPORT_FLAGS_STRICT',
          message: t.strict({ n: attention }),
          hint: t.strictHint({ place: findingsPlace(summary, template) ?? t.theFiles, out: args.out }),
        },
      };
    },
  };
}
