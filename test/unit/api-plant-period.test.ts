// A plant-room or main meter's /readings answer echoes no range; it is held to the period its
// Property's units echo by its readings' dates, and by a from/to it carries anyway.
import { describe, expect, it } from 'vitest';
import { checkPlantPeriod } from '../../src/api/answers.js';
import { aPlantPoint, aReading, aSegment } from '../helpers/builders.js';

const PERIOD = { from: '2025-01-01', to: '2025-12-31' };
const withReadings = (...at: string[]) => aPlantPoint({ consumption: { segments: [aSegment({ readings: at.map((d) => aReading({ at: d })) })] } }).consumption;
const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    return e as { code: string; exitCode: number; message: string };
  }
  return null;
};

describe('checkPlantPeriod', () => {
  it("accepts readings within the units' period, and none at all (a data gap)", () => {
    expect(refusal(() => checkPlantPeriod('Lindenhof', withReadings('2025-01-31', '2025-12-31'), PERIOD))).toBeNull();
    expect(refusal(() => checkPlantPeriod('Lindenhof', withReadings(), PERIOD))).toBeNull();
  });

  it.each([
    ['a reading after the period', ['2025-12-31', '2026-01-31'], /values of 2026-01-31 to 2026-01-31/],
    ['readings of the year before', ['2024-01-31', '2024-12-31'], /values of 2024-01-31 to 2024-12-31/],
  ])('refuses %s: API_WRONG_RANGE, exit 5', (_name, at, shown) => {
    const e = refusal(() => checkPlantPeriod('Lindenhof', withReadings(...at), PERIOD))!;
    expect([e.code, e.exitCode]).toEqual(['API_WRONG_RANGE', 5]);
    expect(e.message).toMatch(shown);
  });

  it('refuses a from/to the answer carries that is not the period', () => {
    const answer = { ...withReadings('2025-06-30'), from: '2025-01-01', to: '2025-06-30' };
    expect(refusal(() => checkPlantPeriod('Lindenhof', answer, PERIOD))?.message).toMatch(
      /values of 2025-01-01 to 2025-06-30, but the period of its units is 2025-01-01 to 2025-12-31/,
    );
  });
});
