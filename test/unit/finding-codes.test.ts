// The catalogue of finding codes (src/findings) is assembled from where each code is declared:
// billing's own, each plausibility rule's file, each export step's. A rule added to rules.ts
// brings its codes and their severity; its texts must exist in both languages; no code may be
// claimed twice, whatever the severities.
import { describe, expect, it } from 'vitest';
import { flagText } from '../../src/billing/index.js';
import { joinCodes } from '../../src/billing/flags.js';
import { BILLING_SEVERITY, type CodeDeclaration, type FlagCode } from '../../src/billing/types.js';
import { STEP_CODES } from '../../src/export/steps/index.js';
import { DECLARATIONS, FLAG_CODES, FLAG_SEVERITY } from '../../src/findings/index.js';
import { RULES, RULE_SEVERITY, type PlausibilityRule } from '../../src/plausibility/index.js';

const declared: [string, CodeDeclaration][] = [
  ['billing', BILLING_SEVERITY],
  ...RULES.map((r, i): [string, CodeDeclaration] => [`rule ${i} (${r.scope})`, r.codes]),
  ...STEP_CODES.map((c, i): [string, CodeDeclaration] => [`step ${i}`, c]),
];

describe('the catalogue of finding codes', () => {
  it('every rule declares at least one code of its own', () => {
    expect(RULES.filter((r) => Object.keys(r.codes).length === 0)).toEqual([]);
  });

  it.each(declared)("holds every code %s declares, with that declaration's severity", (_, codes) => {
    for (const [code, severity] of Object.entries(codes)) {
      expect(FLAG_CODES).toContain(code);
      expect([code, FLAG_SEVERITY[code as FlagCode]]).toEqual([code, severity]);
    }
  });

  it('holds nothing else: its codes are exactly the declared ones, each once', () => {
    const all = declared.flatMap(([, codes]) => Object.keys(codes));
    expect(new Set(all).size).toBe(all.length);
    expect([...FLAG_CODES].sort()).toEqual([...all].sort());
    expect(DECLARATIONS).toHaveLength(declared.length);
  });

  it.each(declared)('%s: each code has a title and an explanation in English and German', (_, codes) => {
    for (const code of Object.keys(codes) as FlagCode[]) {
      const en = flagText(code, 'en');
      const de = flagText(code, 'de');
      for (const t of [en, de]) expect([code, t.title.length > 10, t.explanation.length > 60]).toEqual([code, true, true]);
      expect([code, de.title === en.title]).toEqual([code, false]);
    }
  });

  it('a code two rules claim fails the assembly, even with the same severity', () => {
    const zero: CodeDeclaration = RULES.find((r) => Object.hasOwn(r.codes, 'ZERO_CONSUMPTION'))!.codes;
    const twin: PlausibilityRule = { codes: { ZERO_CONSUMPTION: zero.ZERO_CONSUMPTION! }, scope: 'figure', check: () => ({ findings: [] }) };
    expect(() => joinCodes([...RULES, twin].map((r) => r.codes))).toThrow('finding code ZERO_CONSUMPTION is declared twice');
    expect(() => joinCodes([...DECLARATIONS, { ZERO_CONSUMPTION: 'info' }])).toThrow(/ZERO_CONSUMPTION/);
    expect(() => joinCodes([...DECLARATIONS, { UNIT_REF_MISSING: 'review' }])).toThrow(/UNIT_REF_MISSING/);
    expect(() => joinCodes([BILLING_SEVERITY, { DATA_GAP: 'review' }])).toThrow(/DATA_GAP/);
  });

  it("a new rule's codes join the catalogue in the list's order, after billing's", () => {
    const added: PlausibilityRule = { codes: { NEW_RULE_CODE: 'review' }, scope: 'property', check: () => ({ findings: [] }) };
    const table = joinCodes([BILLING_SEVERITY, ...[...RULES, added].map((r) => r.codes), ...STEP_CODES]);
    const steps = STEP_CODES.flatMap((c) => Object.keys(c));
    expect(Object.keys(table)).toEqual([...FLAG_CODES.filter((c) => !steps.includes(c)), 'NEW_RULE_CODE', ...steps]);
    expect(table.NEW_RULE_CODE).toBe('review');
  });

  it("the rules' table (a findings column's codes in the export) is the rules' declarations", () => {
    expect(RULE_SEVERITY).toEqual(Object.assign({}, ...RULES.map((r) => r.codes)));
    expect(Object.keys(RULE_SEVERITY).filter((c) => Object.hasOwn(BILLING_SEVERITY, c))).toEqual([]);
  });
});
