// Billing's findings in the monthly information's review.csv (src/uvi/portal/findings.ts) speak of
// letters, not of a bill: no "billed", "Abrechnung" or "abgerechnet" for any finding the uvi shows
// (every not_billed code about a unit's meter or a main meter, whatever billing adds later, and the
// review codes it takes over), in English and German; billing's own words stay as they are.
import { describe, expect, it } from 'vitest';
import { flagMessage } from '../../src/billing/findings.js';
import { BILLING_SEVERITY, type Flag, type FlagCode } from '../../src/billing/types.js';
import { uviFlagMessage } from '../../src/uvi/portal/index.js';
import { shownFinding } from '../../src/uvi/verdict.js';

const BILL_WORDS = /bill(?!able)|Abrechnung|abgerechnet|abrechnen/i;
const scope = { property_id: 'p1', measuring_point_id: 'mp-1', device_id: 'd-1' };
const flag = (code: FlagCode, usage_unit_id: string | null, facts?: Record<string, string>): Flag => ({
  code,
  severity: BILLING_SEVERITY[code as keyof typeof BILLING_SEVERITY],
  ...scope,
  usage_unit_id,
  ...(facts ? { facts } : {}),
});

const notBilled = (Object.keys(BILLING_SEVERITY) as (keyof typeof BILLING_SEVERITY)[]).filter((c) => BILLING_SEVERITY[c] === 'not_billed');
const shown = [
  ...notBilled.flatMap((c) => [flag(c, 'u1'), flag(c, null)]),
  flag('ASSUMED_ZERO_BASELINE', 'u1', { serial: 'HKV-1', baseline_date: '2025-03-12' }),
  flag('NOT_SYSTEM_LINKED', 'u1'),
  flag('SHARE_SUM_MISMATCH', 'u1', { share_sum: '0.8' }),
  flag('UNKNOWN_ENUM_VALUE', 'u1', { field: 'status', value: 'estimated_by_ai' }),
  flag('UNKNOWN_ENUM_VALUE', 'u1', { field: 'unit', value: 'MWh' }),
].filter(shownFinding);

describe("the uvi's review.csv words for billing's findings", () => {
  it('covers every not_billed code the uvi refuses a meter for, and the review codes it shows', () => {
    expect(shown.length).toBeGreaterThan(2 * (notBilled.length - 2));
    // billing's words for them do speak of the bill: that is what the uvi must not copy
    expect(shown.filter((f) => BILL_WORDS.test(flagMessage(f, 'en'))).length).toBeGreaterThan(notBilled.length);
  });

  it.each(['en', 'de'] as const)('%s: no finding the uvi shows speaks of a bill', (lang) => {
    const billWords = shown.map((f) => [f.code, f.usage_unit_id, uviFlagMessage(f, lang)]).filter(([, , m]) => BILL_WORDS.test(m!));
    expect(billWords).toEqual([]);
  });

  it('a refused meter: what happens to the letters and what to do, for a unit’s meter and a main meter', () => {
    expect(uviFlagMessage(flag('REGISTER_BACKWARDS', 'u1'), 'en')).toBe(
      "Meter register runs backwards in the period: not used in the monthly information. The monthly information does not use this meter's values: in all 13 months the letter has no figure of this unit for this kind of consumption (shown as –, never as 0), and neither the Property's sums the meter is part of (such as the sum of the heat cost allocator units) nor the figures resting on them are formed. Have the metering service check and correct the meter's data, then run meterdata uvi again.",
    );
    expect(uviFlagMessage(flag('REGISTER_BACKWARDS', null), 'de')).toMatch(
      /^Zählerstand läuft im Zeitraum rückwärts: nicht in die Verbrauchsinformation übernommen\. Die Werte dieses Hauptzählers werden für die Verbrauchsinformation nicht verwendet: /,
    );
    expect(uviFlagMessage(flag('SEGMENT_OUTSIDE_RANGE', 'u1'), 'de')).toMatch(
      /^Zähler in den 13 Monaten nicht eingebaut: nicht in die Verbrauchsinformation übernommen\. /,
    );
  });

  it('the landlord’s findings keep their facts and say “before the letters are sent”', () => {
    const zero = flag('ASSUMED_ZERO_BASELINE', 'u1', { serial: 'HKV-1', baseline_date: '2025-03-12' });
    expect(uviFlagMessage(zero, 'de')).toMatch(/^Anfangsstand mit 0 angenommen \(Gerät: HKV-1, Stichtag: 12\.03\.2025\)\. .*vor dem Versand der Schreiben/);
    expect(uviFlagMessage(flag('NOT_SYSTEM_LINKED', 'u1'), 'en')).toContain('before the letters are sent');
  });
});
