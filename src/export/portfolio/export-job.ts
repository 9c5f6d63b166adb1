// The export's job in the portfolio (portfolio-job.ts): each profile an ordinary export into
// <out>/<profile>/ (the bytes of `meterdata export --profile P --out <out>/P`), and --strict
// as that export's exit 6 when its files hold findings.
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import type { Io } from '../../core/io.js';
import { identity, parseExportArgs, type ExportArgs } from '../options/index.js';
import { checkNotLinked, checkOutDir, singleRunIn } from '../folder/index.js';
import { finalNames, findingsPlace, loadTemplate } from '../output/index.js';
import type { JobOutcome, PortfolioJob } from './portfolio-job.js';
import { filesKey } from './files-key.js';
import type { ProfileResult } from './portfolio-summary.js';
import { t } from './texts-portfolio.js';

export async function exportJob(opts: Record<string, unknown>, io: Io): Promise<PortfolioJob> {
  const base = parseExportArgs({ ...opts, profile: undefined }, io.cwd, io.env);
  const template = await loadTemplate(base.template, io.cwd);
  const { profile: _p, ...shared } = identity(base);
  return {
    out: base.out,
    quiet: base.quiet,
    json: base.json,
    singleIn: () => singleRunIn(base.out, 'export', finalNames(template, base.formats)),
    // Beyond the folder's identity, what changes the files: the language of their texts and the
    // --unit-refs content (erp_ref), so a kept folder is what this run would write.
    recordKey: { out: base.out, ...shared, ...filesKey(base) },
    writesWorkbooks: true,
    argsFor: (profile) => ({ ...base, profile, out: path.join(base.out, profile) }),
    check: (args) => (checkNotLinked(base.out, args.out), checkOutDir(args.out, identity(args), finalNames(template, args.formats), args)),
    async run(args, profileIo, profileShared): Promise<JobOutcome> {
      const { exportProfile } = await import('../single.js');
      const summary = await exportProfile(args, template, profileIo, profileShared);
      return { summary, ...verdict(args, summary) };
    },
    // --strict judges a kept folder's findings as it judges a fresh export's
    rejudge(args, kept): ProfileResult {
      const { error: _earlier, ...rest } = kept;
      return kept.summary ? { ...rest, ...verdict(args, { files: [], ...kept.summary }) } : kept;
    },
  };

  function verdict(args: ExportArgs, summary: Pick<JobOutcome['summary'], 'flags' | 'files'>): Omit<JobOutcome, 'summary'> {
    const attention = summary.flags.not_billed + summary.flags.review;
    if (!args.strict || attention === 0) return { exitCode: ExitCode.OK };
    return {
      exitCode: ExitCode.NEEDS_REVIEW,
      error: {
        code: 'EXPORT_FLAGS_STRICT',
        message: t.strict({ n: attention }),
        hint: t.strictHint({ place: findingsPlace(summary, template) ?? t.theFiles, out: args.out }),
      },
    };
  }
}
