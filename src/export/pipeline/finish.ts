// The end of an export: the About sheet, the manifest and the summary once every Property is
// written (closeRun), then the workbook and every file put in place at once (finishExport).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CONTRACT_VERSION } from '../../api/types.js';
import { refusalWords } from '../../core/disk.js';
import { ExitCode, isMeterdataError, MeterdataError } from '../../core/errors.js';
import { runText as rt } from '../texts-run.js';
import { checkNotOtherCommand, commandRoot, takeCommitLock } from '../folder/index.js';
import { Journal, markCommitting, takenOverReason, unmark } from '../journal/index.js';
import { expectedRange, identity } from '../options/index.js';
import { completeOutput, discardOutput, writeWorkbookHere, type OutputSet, type WorkbookWriter } from '../output/index.js';
import { unfinished } from '../run-errors.js';
import { aboutRows } from './about.js';
import type { Run } from './stage.js';
import type { Tally } from './tally.js';
import type { ExportSummary, StagedExport } from './types.js';

/** Every Property is written: the output set is closed under temporary names, the journal handed over. */
export async function closeRun(run: Run, output: OutputSet, tally: Tally, range: { from: string; to: string } | null): Promise<StagedExport> {
  const { deps, journal, properties } = run;
  const { args } = deps;
  const { counts, flags } = tally;
  // Without a unit answer (plant-room points only) nothing echoed a range: this computer's clock caps it.
  const effective = range ?? expectedRange(args.from, args.to, new Date());
  const requested = { from: args.from, to: args.to };
  const exportedAt = journal.meta.startedAt;
  const scope = journal.meta.propertyScope;
  const lines = run.steps.map((s) => s.about?.() ?? {});
  const about = aboutRows(
    {
      tenant: journal.meta.tenantName,
      scope: scope === 'all' ? 'all' : scope.map((id) => properties.find((p) => p.id === id)?.name ?? id),
      // --property narrows the export below the connection's scope: say which ones the files hold.
      exported: args.propertyIds.length > 0 ? properties.map((p) => p.name) : null,
      range: effective,
      contract: CONTRACT_VERSION,
      exportedAt,
      toolVersion: deps.toolVersion,
      template: run.template.name,
      counts,
      flags,
    },
    [...lines.flatMap((l) => l.facts ?? []), ...lines.flatMap((l) => l.checks ?? [])],
  );
  const rows = Object.fromEntries(Object.entries(output.rows)) as Record<string, number>;
  const staged = await output.stage(about, new Date(exportedAt));
  deps.reporter.end();
  return {
    output: staged,
    journal: journal.handOver(),
    manifest: {
      tool: 'meterdata',
      version: deps.toolVersion,
      contract: CONTRACT_VERSION,
      identity: identity(args),
      tenant: { id: journal.meta.tenantId, name: journal.meta.tenantName },
      range: effective,
      requested_range: requested,
      exported_at: exportedAt,
      counts: { ...counts, rows },
      flags,
    },
    summary: {
      out: args.out,
      range: effective,
      requested,
      pointsWithData: tally.pointsWithData,
      tenant: journal.meta.tenantName,
      exportedAt,
      resumed: journal.resumed,
      counts: { ...counts, rows },
      flags,
      codes: tally.codes,
      requests: deps.api.stats().requests,
    },
  };
}

/**
 * Writes billing.xlsx (with `writeWorkbook`, by default in this thread) and the manifest,
 * renames everything into place and removes the journal. On failure nothing is put
 * under a final name and the journal stays for a re-run.
 */
export async function finishExport(
  staged: StagedExport,
  opts: {
    writeWorkbook?: WorkbookWriter;
    signal?: AbortSignal | undefined;
    held?: () => void;
    slot?: () => Promise<() => void>;
    /** A line for the user: this run waits for another's commit (commit-lock.ts). */
    note?: (line: string) => void;
  } = {},
): Promise<ExportSummary> {
  const { summary } = staged;
  // This thread holds the run's folders now: it touches their locks, and another run taking one over stops the workbook at once.
  const lost = new AbortController();
  Journal.keep(staged.journal, (e) => lost.abort(e));
  // a Ctrl-C during the workbook or any finishing pass: nothing is committed
  const signal = opts.signal ? AbortSignal.any([opts.signal, lost.signal]) : lost.signal;
  let free: (() => void) | undefined;
  let marked = false;
  const markId = randomUUID();
  try {
    // A portfolio's profile waits here for a workbook slot, its locks touched: a wait of minutes left them silent for another host to take over.
    free = await opts.slot?.();
    const write = opts.writeWorkbook ?? writeWorkbookHere;
    const files = await completeOutput(
      staged.output,
      (files) => ({ ...staged.manifest, files }),
      (input) => write(input, signal),
      undefined,
      signal,
      {
        held: () => {
          Journal.checkHeld(staged.journal.insideLocks);
          opts.held?.(); // a portfolio's profile: its root as well
          // an export and a uvi run started together into nested folders each passed this at their start
          const id = staged.manifest.identity as Record<string, unknown>;
          const root = commandRoot(staged.output.dir, id);
          checkNotOtherCommand(root, root === staged.output.dir ? 'export' : 'uvi');
        },
        // the journal lies in the state folder's exports folder, where the account's commit lock is
        lock: () => takeCommitLock(path.dirname(staged.journal.dir), signal, undefined, opts.note),
        starting: async () => {
          marked = true; // before the write: a mark written but not synced is taken back as well
          await markCommitting(staged.journal.dir, markId);
        },
        lastLook: () => {
          Journal.checkHeld(staged.journal.insideLocks);
          if (lost.signal.aborted) throw lost.signal.reason;
        },
        unmark: async () => {
          marked = !(await unmark(staged.journal.dir, markId));
        },
      },
    );
    // committed: a journal that cannot be removed is told as such, never as files not put in place (round 63 Y3)
    await Journal.release(staged.journal, true).catch((e: unknown) => Promise.reject(new JournalLeft(e)));
    return { ...summary, files };
  } catch (caught) {
    if (caught instanceof JournalLeft) throw journalLeft(caught.cause, staged.journal.dir, summary.out);
    const e: unknown = takenOverReason(signal) ?? caught;
    // The temporary files' names are the new holder's too: a run that lost its folder removes none of them.
    if (!isMeterdataError(e) || e.code !== 'EXPORT_OUT_TAKEN_OVER') await discardOutput(staged.output).catch(() => undefined);
    await Journal.release(staged.journal, false);
    // a journal still marked (its renames had begun) is not resumed: the same command fetches afresh
    throw unfinished(e, summary.out, opts.signal, (staged.manifest.identity as { template?: unknown } | undefined)?.template, marked);
  } finally {
    free?.();
  }
}

/** The journal's removal after the commit failed: the files are in place. */
class JournalLeft extends Error {
  constructor(override readonly cause: unknown) {
    super('journal left');
  }
}

function journalLeft(e: unknown, dir: string, out: string): MeterdataError {
  const why = refusalWords(e);
  return new MeterdataError(rt.journalLeft({ out, dir, why }), {
    code: 'EXPORT_WRITE_FAILED',
    exitCode: ExitCode.UNEXPECTED,
    hint: rt.journalLeftHint({ dir }),
    cause: e,
  });
}
