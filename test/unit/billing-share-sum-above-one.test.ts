// A shared meter whose copies' unit_share sum above 1 (1 and 1) was billed 200 % (100 to each of
// WE 01 and WE 02 for a meter that measured 100) with only SHARE_SUM_MISMATCH (review). Above 1 the
// units together would pay for more than the meter measured: not billed in any unit that carries
// it, SHARE_SUM_ABOVE_ONE (not_billed). A sum below 1 over-bills nobody and stays a review.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import { aPropertyInput, aUnitEntry, sharedCopies } from '../helpers/builders.js';

const billed = (shares: number[]) => {
  const units = sharedCopies(100, shares).map((c, i) => aUnitEntry(`WE 0${i + 1}`, [c]));
  return billProperty(aPropertyInput({ units }));
};

describe("a shared meter's shares across its units", () => {
  it('summing above 1 is billed in none of them, with a not_billed finding on each copy', () => {
    const bill = billed([1, 1]);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0', '0']);
    expect(bill.flags.filter((f) => f.measuring_point_id !== null).map((f) => [f.code, f.severity])).toEqual([
      ['SHARE_SUM_ABOVE_ONE', 'not_billed'],
      ['SHARE_SUM_ABOVE_ONE', 'not_billed'],
    ]);
    expect(flagMessage(bill.flags[0]!, 'de')).toMatch(/^Anteile eines gemeinsamen Zählers ergeben mehr als 100 %: nicht abgerechnet/);
  });

  it('summing below 1 is billed at the shares and left for review', () => {
    const bill = billed([0.5, 0.3]);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['50', '30']);
    expect(bill.flags.filter((f) => f.measuring_point_id !== null).map((f) => [f.code, f.severity])).toEqual([
      ['SHARE_SUM_MISMATCH', 'review'],
      ['SHARE_SUM_MISMATCH', 'review'],
    ]);
  });
});
