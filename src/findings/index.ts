// The catalogue of every finding code and its severity, assembled from where each is declared:
// billing's own (src/billing/types.ts), each plausibility rule's (its file in
// src/plausibility/rules/, listed in rules.ts) and each export step's (src/export/steps/index.ts).
// It sits above all three, so none of them imports it; a code two of them declare throws here.
import { flagMaker, joinCodes } from '../billing/flags.js';
import { BILLING_SEVERITY, type BillingCode, type FlagCode, type FlagSeverities } from '../billing/types.js';
import { STEP_CODES } from '../export/steps/index.js';
import { RULES } from '../plausibility/index.js';

/** What the catalogue is made of, in its order: billing's codes, the rules' in their list's order, the steps'. */
export const DECLARATIONS = [BILLING_SEVERITY, ...RULES.map((r) => r.codes), ...STEP_CODES] as const;

type KeysOf<T> = T extends unknown ? keyof T : never;
type Listed = BillingCode | KeysOf<(typeof RULES)[number]['codes']> | KeysOf<(typeof STEP_CODES)[number]>;
// FlagCode is what the declarations add to billing's type; this table is what they hold at run time.
// Both come from the same lists, and this fails typecheck if a code reached the one and not the other.
const exact: [FlagCode] extends [Listed] ? ([Listed] extends [FlagCode] ? true : never) : never = true;
void exact;

export const FLAG_SEVERITY = joinCodes(DECLARATIONS) as { readonly [C in FlagCode]: FlagSeverities[C] };
export const FLAG_CODES = Object.keys(FLAG_SEVERITY) as FlagCode[];

/** A flag of any code, with the catalogue's severity (for tests; a rule or a step makes its own with flagMaker). */
export const makeFlag = flagMaker(FLAG_SEVERITY);
