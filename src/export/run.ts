// One export: the pipeline's driver (src/export/pipeline) with the export's steps
// (src/export/steps). Another run of the driver (the monthly information) brings its own.
import { stagePipeline, finishExport, type ExportDeps, type ExportSummary, type StagedExport } from './pipeline/index.js';
import { exportSteps } from './steps/index.js';

export { finishExport, type ExportDeps, type ExportSummary, type StagedExport } from './pipeline/index.js';
export { nameList } from './run-errors.js';

export async function runExport(deps: ExportDeps): Promise<ExportSummary> {
  return finishExport(await stageExport(deps), { signal: deps.signal, note: (line) => deps.reporter.note(line) });
}

/** The walk, billing and every CSV and spool, under temporary names (see StagedExport). */
export function stageExport(deps: ExportDeps): Promise<StagedExport> {
  return stagePipeline(deps, (who) => exportSteps(deps.args, who));
}
