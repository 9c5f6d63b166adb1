// What the contract asks to put to the landlord (billing rules 6 and 7) reaches the uvi's review.csv:
// a meter not linked to a heating or water system (is_system_linked: false) and a replacement
// allocator's start value assumed to be 0. Both get billing's check row, in words for a letter; the meter's
// figures stay in the letters (information, not a bill) and in the Property's sums.
import { describe, expect, it } from 'vitest';
import { uviFlagMessage } from '../../src/uvi/portal/index.js';
import { aSegment } from '../helpers/builders.js';
import { flat, metered, plantHeat, reviewed, unit } from '../helpers/uvi-billed.js';
import { cumulative, n, point, readings, series } from '../helpers/uvi-fixtures.js';

// WE 01's allocator replaced on 12 March 2025; the new one's start value was not recorded and is taken as 0.
function replacedAssumedZero() {
  const old = cumulative(1000, flat(50)).slice(0, 4);
  const removed = series(1000, [...old, ...Array<null>(9).fill(null)], {
    deinstalled_at: '2025-03-12',
    period_consumption: { end_value: old[3]!, billable_value: old[3]! - 1000, weighted_billable_value: undefined, status: 'measured' },
  });
  const installed = aSegment({
    installed_at: '2025-03-12',
    baseline_value: 0,
    baseline_date: '2025-03-12',
    baseline_origin: 'assumed_zero',
    readings: readings([...Array<null>(4).fill(null), ...cumulative(0, flat(50).slice(4))]),
    period_consumption: { end_value: 450, billable_value: 450, weighted_billable_value: undefined, status: 'measured' },
  });
  return point('hca', [removed, installed]);
}

const heating = (r: ReturnType<typeof reviewed>, i: number, at = 12) => r.r.units[i]!.services.find((s) => s.service === 'HEATING')!.months[at]!;

describe("billing's findings for the landlord in the uvi's review.csv", () => {
  it('a meter not linked to a heating system: a check row in words for a letter, its figures kept in the letter and the sums', () => {
    const r = reviewed(
      [unit('WE 01', [metered('hca', flat(50), 1, { is_system_linked: false })]), unit('WE 02', [metered('hca', flat(50))])],
      [plantHeat('p1', flat(1000))],
    );
    const flag = r.bill.flags.find((f) => f.code === 'NOT_SYSTEM_LINKED')!;
    for (const lang of ['en', 'de'] as const) {
      const row = r.review(lang).find((x) => x.code === 'NOT_SYSTEM_LINKED');
      expect(row).toMatchObject({ letter: 'check', usage_unit_name: 'WE 01', message: uviFlagMessage(flag, lang) });
      expect(row!.message).not.toMatch(/bill(?!able)|Abrechnung|abgerechnet/i);
    }
    expect(r.review('de').find((x) => x.code === 'NOT_SYSTEM_LINKED')!.message).toContain('keiner Heizungs- oder Wasseranlage zugeordnet');
    // the plant's 1,000 kWh by 50 of 100 units (no warm water): WE 01's allocator still counts
    expect([n(heating(r, 0).kwh), n(heating(r, 1).kwh)]).toEqual([500, 500]);
  });

  it('a start value assumed to be 0: a check row in words for a letter, the month it starts marked estimated', () => {
    const r = reviewed([unit('WE 01', [replacedAssumedZero()]), unit('WE 02', [metered('hca', flat(50))])], [plantHeat('p1', flat(1000))]);
    const flag = r.bill.flags.find((f) => f.code === 'ASSUMED_ZERO_BASELINE')!;
    for (const lang of ['en', 'de'] as const) {
      const row = r.review(lang).find((x) => x.code === 'ASSUMED_ZERO_BASELINE');
      expect(row).toMatchObject({ letter: 'check', usage_unit_name: 'WE 01', message: uviFlagMessage(flag, lang) });
      expect(row!.message).not.toMatch(/bill(?!able)|Abrechnung|abgerechnet/i);
    }
    expect(r.review('de').find((x) => x.code === 'ASSUMED_ZERO_BASELINE')!.message).toContain('Anfangsstand mit 0 angenommen');
    // March 2025 (the 12th to the 31st from 0: 50 units) is estimated; November is WE 01's 50 of 100 units
    expect([n(heating(r, 0, 4).kwh), heating(r, 0, 4).estimated]).toEqual([500, true]);
    expect([n(heating(r, 0).kwh), heating(r, 0).estimated]).toEqual([500, false]);
  });

  it('a linked meter with a recorded start value gets neither row', () => {
    const r = reviewed([unit('WE 01', [metered('hca', flat(50))]), unit('WE 02', [metered('hca', flat(50))])], [plantHeat('p1', flat(1000))]);
    const codes = r.review('en').map((x) => x.code);
    expect([codes.includes('NOT_SYSTEM_LINKED'), codes.includes('ASSUMED_ZERO_BASELINE')]).toEqual([false, false]);
  });
});
