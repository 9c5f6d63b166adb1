// What the driver is given and what it hands back: plain data, so the two halves of an
// export (stage.ts, finish.ts) can run in different threads.
import type { ApiClient } from '../../api/contracts.js';
import type { Severity } from '../../billing/types.js';
import type { JournalHandle } from '../journal/index.js';
import type { ExportArgs } from '../options/index.js';
import type { FileEntry, OutputFormat, RenderAhead, StagedOutput } from '../output/index.js';
import type { Reporter } from '../progress.js';
import type { Template } from '../output/index.js';
import type { Slots } from './held.js';

export interface ExportDeps {
  api: ApiClient;
  args: ExportArgs;
  template: Template;
  /** dirs().state: the journal lives under exports/ there. */
  stateDir: string;
  reporter: Reporter;
  toolVersion: string;
  signal?: AbortSignal;
  now?: () => Date;
  /** Caps the Properties held in memory across several exports (the portfolio export); none: at most two. */
  slots?: Slots;
  /** A run's own output formats, every one of them written (the monthly information's); none: those --format names from the export's registry. */
  formats?: readonly OutputFormat[];
  /** Renders the workbook's table rows while the walk goes on (the portfolio's workbook workers). */
  renderAhead?: RenderAhead;
  /** false: each Property is billed and written at its end only (tests compare the bytes both ways); default: units as they come. */
  streamUnits?: boolean;
}

export interface ExportSummary {
  out: string;
  files: FileEntry[];
  /** The effective range the service answered for (widened, capped at the last completed month). */
  range: { from: string; to: string };
  /** The range asked for, widened to whole months: `range` ends earlier when the service shortened it. */
  requested: { from: string; to: string };
  /** Measuring points with any values in the range (each once); 0 means nothing could be billed. */
  pointsWithData: number;
  tenant: string;
  exportedAt: string;
  resumed: boolean;
  counts: { properties: number; units: number; measuring_points: number; plant_points: number; rows: Record<string, number> };
  flags: Record<Severity, number>;
  /** Findings per flag code, e.g. { MISSING_VALUE: 2 }. */
  codes: Record<string, number>;
  requests: number;
}

/**
 * An export whose data is all fetched, billed and written to temporary files, with its
 * journal still locked: `finishExport` writes the workbook and puts the files in place.
 * Plain data, so the two halves can run in different threads.
 */
export interface StagedExport {
  output: StagedOutput;
  journal: JournalHandle;
  /** The manifest without its file list (which finishExport adds last). */
  manifest: Record<string, unknown>;
  summary: Omit<ExportSummary, 'files'>;
}
