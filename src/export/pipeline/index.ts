// The export's driver and the interface of its steps (step.ts); see docs/architecture.md.
export { aboutRows, dateTime, type AboutFacts } from './about.js';
export { finishExport } from './finish.js';
export { Slots } from './held.js';
export { stagePipeline, type StepsOf } from './stage.js';
export type { AboutLines, BilledProperty, EarlyShape, ExportStep, MarkingRow, RowShape, StepFindings } from './step.js';
export type { ExportDeps, ExportSummary, StagedExport } from './types.js';
