// A Property without units is billed for the period of the Properties before it (stage.ts), while its
// comparison was fetched beside the period this computer's clock expects: on the last days of a month, or
// where the service's last completed month lies before the computer's, the two differ by a month. Before
// (round 19), that stopped an honest export at the unit-less Property (EXPORT_COMPARE_MISMATCH); now its
// plant meters are not compared, and a Property with units still refuses a comparison of another length.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import { parseExportArgs } from '../../src/export/options/index.js';
import { plausibilityStep, type AnswersWithComparison } from '../../src/export/steps/plausibility/index.js';
import { aPropertyInput, aUnitEntry, PROPERTY } from '../helpers/builders.js';

const who = { tenant_id: 't', tenant_name: 'T' } as never;
const eleven = { from: '2025-01-01', to: '2025-11-30' };
const ten = { from: '2026-01-01', to: '2026-10-31' };

async function findings(units: AnswersWithComparison['units']) {
  const args = parseExportArgs({ year: '2026', compare: '2025', out: '/tmp/md-unitless-out' }, '/tmp', {}, new Date('2026-11-29T12:00:00Z'));
  const step = await plausibilityStep(args, who);
  const answers = {
    property: { ...PROPERTY, tenant_id: 't', external_ref: null, addresses: [], usage_unit_count: units.length },
    units,
    plantPoints: [],
    points: [],
    comparison: { range: eleven, units: [], plantPoints: [] },
  } as unknown as AnswersWithComparison;
  const bill = billProperty(aPropertyInput({ range: ten, units }));
  return () => step.findings!({ answers, bill, range: ten });
}

describe('a comparison of another length beside the period the export bills', () => {
  it('a Property without units: its meters are not compared, the export goes on', async () => {
    const run = await findings([]);
    expect(run).not.toThrow();
  });

  it('a Property with units: refused, naming both periods', async () => {
    const run = await findings([aUnitEntry('WE 01', [])]);
    expect(run).toThrow(/the comparison covers 2025-01-01 to 2025-11-30 \(11 months\)/);
  });
});

describe('a Property without units whose comparison has another number of months', () => {
  it('says once, in both catalogues, why its plant meters were not compared', async () => {
    const result = (await findings([]))();
    const flags = result.flags ?? [];
    expect(flags.map((f) => [f.code, f.severity, f.facts])).toEqual([['COMPARISON_OTHER_LENGTH', 'info', { billed_months: '10', comparison_months: '11' }]]);
    expect(flagMessage(flags[0]!, 'en')).toMatch(
      /^Not compared: the comparison period has another number of months \(months billed: 10, months of the comparison period: 11\)\. .*plant-room and main meters are not compared/,
    );
    expect(flagMessage(flags[0]!, 'de')).toMatch(
      /^Kein Vergleich: Vergleichszeitraum mit anderer Monatszahl \(abgerechnete Monate: 10, Monate im Vergleichszeitraum: 11\)\. .*Technikraum- und Hauptzähler werden daher nicht verglichen/,
    );
  });
});
