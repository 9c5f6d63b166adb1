// The steps of an export, in the order their findings are listed in review.csv and their
// changes applied to a row: the one place that names them (see pipeline/step.ts).
import type { WhoAmI } from '../../api/types.js';
import type { CodeDeclaration, DeclaredCodes } from '../../billing/types.js';
import type { ExportArgs } from '../options/index.js';
import type { ExportStep } from '../pipeline/index.js';
import { placesStep } from './places/index.js';
import { plausibilityStep } from './plausibility/index.js';
import { unitRefCodes, unitRefsStep } from './unit-refs/index.js';
import { unknownValueFlags, unknownValuesStep } from './unknown-values/index.js';
import { uviStep, type UviStepOptions } from './uvi/index.js';

export { uviFindings, uviFormats, uviTemplate, type UviCounts, type UviStepOptions } from './uvi/index.js';

/** The finding codes of the steps that raise codes of their own, each declared in its step. */
export const STEP_CODES = [unitRefCodes] as const satisfies readonly CodeDeclaration[];

// The steps' codes join billing's FlagCode (as the plausibility rules' do, src/plausibility/rules.ts).
declare module '../../billing/types.js' {
  interface FlagSeverities extends DeclaredCodes<(typeof STEP_CODES)[number]> {}
}

export async function exportSteps(args: ExportArgs, who: WhoAmI): Promise<ExportStep[]> {
  return [placesStep, unknownValuesStep, await plausibilityStep(args, who), ...(args.unitRefs ? [unitRefsStep(args.unitRefs)] : [])];
}

/**
 * The monthly information's steps: the computation and its files; --unit-refs gives each letter its ERP number.
 * Its review.csv takes the unknown values the export's unknown-values step finds (the uvi writes no export review.csv).
 */
export function uviSteps(args: ExportArgs, o: Omit<UviStepOptions, 'erpRef' | 'unknownValues'>) {
  const refs = new Map((args.unitRefs?.entries ?? []).map(([id, ref]) => [id, ref]));
  return [uviStep({ ...o, erpRef: (id) => refs.get(id.toLowerCase()) ?? null, unknownValues: unknownValueFlags })];
}
