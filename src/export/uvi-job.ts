// `meterdata uvi --all-profiles` / `--profiles`: the monthly information as the portfolio's job
// (portfolio/portfolio-job.ts). Each profile an ordinary `meterdata uvi --profile P --out <out>/P`
// into <out>/<profile>/<month>/; the portfolio runs them at once with its display, summary, record
// and exit codes.
import path from 'node:path';
import { ExitCode } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { identity } from './options/index.js';
import { checkNotLinked, singleRunIn } from './folder/index.js';
import { filesKey, sha256, type PortfolioJob } from './portfolio/index.js';
import type { ExportSummary } from './run.js';
import { uviRunTexts as t } from './texts-uvi.js';
import { checkUviOut, parseUvi, runUvi, uviNames, uviRoot, type UviFlags, type UviSummary } from './uvi.js';

export async function uviJob(opts: UviFlags, io: Io, now: Date): Promise<PortfolioJob> {
  const base = await parseUvi({ ...opts, profile: undefined }, io, now);
  const root = uviRoot(opts, io);
  const { profile: _p, ...shared } = identity(base.args);
  return {
    out: root,
    quiet: base.args.quiet,
    json: base.args.json,
    // A single run's month folder, of any month: its profiles' folders must not be mixed into it.
    singleIn: () => singleRunIn(root, 'uvi', uviNames(base)),
    // Beyond the folder's identity, what changes the letters and tables: the export's (language,
    // --unit-refs) and the computation's inputs, so a kept month folder is what this run would write.
    recordKey: {
      command: 'uvi',
      out: root,
      ...shared,
      ...filesKey(base.args),
      ww_temperature: base.inputs.wwTemperature,
      benchmark: sha256(JSON.stringify(base.inputs.benchmark)),
      ...(base.inputs.plantMeters ? { plant_meters: sha256(JSON.stringify(base.inputs.plantMeters.entries)) } : {}),
    },
    writesWorkbooks: false,
    words: { exported: t.portfolioWritten, kept: t.portfolioKept, finished: t.portfolioFinished, singleInOut: t.portfolioSingleInOut },
    argsFor: (profile) => ({ ...base.args, profile, out: path.join(root, profile, base.inputs.month) }),
    check: (args) => (checkNotLinked(root, args.out), checkUviOut({ ...base, args })),
    async run(args, profileIo, { reporter, slots, held }) {
      const summary = await runUvi({ ...base, args }, profileIo, undefined, { reporter, slots, ...(held ? { held } : {}) });
      return { summary: asProfileSummary(summary), exitCode: ExitCode.OK };
    },
  };
}

/**
 * The portfolio's line and summary row count findings as the export's review.csv does: here the
 * units whose letter is missing or incomplete (the monthly review.csv). Billing's findings the uvi
 * takes over (a meter it refuses, an unknown value) are lines of that file too, but are counted only
 * through the letters they leave incomplete: the line counts letters to fix, not meters.
 */
function asProfileSummary(s: UviSummary): ExportSummary {
  return { ...s, flags: { not_billed: 0, review: s.incomplete, info: 0 }, codes: {} };
}
