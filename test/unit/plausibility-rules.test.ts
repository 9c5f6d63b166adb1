// The plausibility rules as a list (src/plausibility/rules.ts): every rule file is in the
// list the review runs, a rule added to the list needs nothing else from the review, and a
// rule resting on German law names its paragraph in its own file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFlag } from '../../src/billing/flags.js';
import { RULES, reviewProperty, type CurrentFigure, type PlausibilityRule } from '../../src/plausibility/index.js';
import { ROOT } from '../helpers/bin.js';

const RULES_DIR = path.join(ROOT, 'src/plausibility/rules');
const P = '00000000-0000-4000-8000-000000000001';
const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const fig = (over: Partial<CurrentFigure> = {}): CurrentFigure => ({
  kind: 'unit',
  property_id: P,
  property_name: 'Haus',
  usage_unit_id: uid(100),
  usage_unit_name: 'WE 01',
  unit_type: 'residential',
  measuring_point_id: null,
  metric: 'heat',
  unit: 'kWh',
  value: '100',
  flags: [],
  area_m2: 50,
  active_whole_range: true,
  estimated_value: '0',
  ...over,
});
const opts = { threshold: '25', range: { from: '2025-01-01', to: '2025-12-31' } };

describe('the list of plausibility rules', () => {
  it('has every rule file of src/plausibility/rules, once', async () => {
    const files = readdirSync(RULES_DIR).filter((f) => f.endsWith('.ts'));
    const exported: unknown[] = [];
    for (const f of files) {
      const mod = (await import(path.join(RULES_DIR, f))) as Record<string, unknown>;
      const rules = Object.values(mod).filter((v): v is PlausibilityRule => typeof v === 'object' && v !== null && 'check' in v && 'scope' in v);
      expect(rules, `${f} exports one rule`).toHaveLength(1);
      exported.push(rules[0]);
    }
    expect(new Set(RULES)).toEqual(new Set(exported));
    expect(RULES).toHaveLength(files.length);
  });

  it('a rule added to the list is run: its findings go to review.csv and mark the rows it names, figure findings row by row', () => {
    const current = [1, 2].map((i) => fig({ usage_unit_id: uid(i), value: '0' }));
    const everyRow: PlausibilityRule = {
      codes: {},
      scope: 'figure',
      check: (ctx) => ({
        findings: ctx.keys.map((k) => ({
          code: 'DATA_GAP',
          flag: makeFlag('DATA_GAP', { property_id: P, usage_unit_id: ctx.current.get(k)!.usage_unit_id, measuring_point_id: null, device_id: null }),
          marks: [k],
        })),
      }),
    };
    const wholeProperty: PlausibilityRule = {
      codes: {},
      scope: 'property',
      check: (ctx) => ({
        findings: [
          {
            code: 'SHARE_SUM_MISMATCH',
            flag: makeFlag('SHARE_SUM_MISMATCH', { property_id: P, usage_unit_id: null, measuring_point_id: null, device_id: null }),
            marks: [ctx.keys[1]!],
          },
        ],
      }),
    };
    const out = reviewProperty({ current, devices: [], comparison: null }, opts, [wholeProperty, ...RULES, everyRow]);
    expect(out.flags.map((f) => [f.code, f.usage_unit_id])).toEqual([
      ['ZERO_CONSUMPTION', uid(1)],
      ['DATA_GAP', uid(1)],
      ['ZERO_CONSUMPTION', uid(2)],
      ['DATA_GAP', uid(2)],
      ['SHARE_SUM_MISMATCH', null],
    ]);
    expect(out.rows.map((r) => r.checks)).toEqual([
      ['DATA_GAP', 'ZERO_CONSUMPTION'],
      ['DATA_GAP', 'SHARE_SUM_MISMATCH', 'ZERO_CONSUMPTION'],
    ]);
  });

  it('a rule resting on German law names its paragraph in its file', () => {
    const text = (f: string) => readFileSync(path.join(RULES_DIR, f), 'utf8');
    expect(text('estimated-area.ts')).toContain('§ 9a Abs. 2 HeizkostenV');
    expect(text('calibration.ts')).toMatch(/MessEV Anlage 7[\s\S]*§ 34 Abs\. 2 MessEV/);
  });
});
