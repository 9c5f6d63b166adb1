// Which Overview cells the findings of a Property mark, and reading those marks back in Property order.
import { describe, expect, it } from 'vitest';
import { makeFlag } from '../../src/findings/index.js';
import { MarksReader, overviewMarks, type PropertyMarks } from '../../src/export/overview-marks.js';

const at = { property_id: 'p', usage_unit_id: 'u1', measuring_point_id: 'mp', device_id: null };
const place = (metric: string | null) => () => ({ metric });

describe('overviewMarks', () => {
  it('marks a unit’s figure for a finding asking for action, the unit’s name for one without a metric, nothing for info', () => {
    expect(overviewMarks([makeFlag('CALIBRATION_ENDED', at), makeFlag('CALIBRATION_ENDED', at)], place('heat'))).toEqual([['u1', 'heat']]);
    expect(overviewMarks([makeFlag('UNIT_REF_MISSING', { ...at, measuring_point_id: null })], place(null))).toEqual([['u1', null]]);
    expect(overviewMarks([makeFlag('CALIBRATION_ENDS_SOON', at), makeFlag('SYNTHETIC_VALUE', at)], place('heat'))).toEqual([]);
    // a Property-wide finding has no unit: its rows in plausibility.csv mark theirs (§ 9a Abs. 2's area finding
    // asks for action; the estimated share of the consumption is an info since the area rule took its place)
    const wide = makeFlag('ESTIMATED_AREA_HIGH', { ...at, usage_unit_id: null, measuring_point_id: null });
    const rows = [
      { usage_unit_id: 'u2', metric: 'water_warm', checks: ['ESTIMATED_AREA_HIGH'] },
      { usage_unit_id: 'u3', metric: 'heat', checks: ['CALIBRATION_ENDS_SOON', 'SOMETHING_NEW'] },
      { usage_unit_id: 'u4', metric: 'water_cold', checks: ['ESTIMATED_SHARE_HIGH'] },
    ];
    expect(overviewMarks([wide], place('water_warm'), rows)).toEqual([['u2', 'water_warm']]);
  });
});

describe('MarksReader', () => {
  it('reads one Property’s marks at a time, passing Properties with no Overview rows', async () => {
    const lines: PropertyMarks[] = [
      {
        property_id: 'a',
        marks: [
          ['u1', 'heat'],
          ['u1', null],
        ],
      },
      { property_id: 'empty', marks: [['x', 'heat']] },
      { property_id: 'c', marks: [] },
      { property_id: 'd', marks: [['u9', 'gas']] },
    ];
    const r = new MarksReader(
      (async function* () {
        yield* lines;
      })()[Symbol.asyncIterator](),
    );
    expect([...(await r.of('a', 'u1'))]).toEqual(['heat', null]);
    expect([...(await r.of('a', 'u2'))]).toEqual([]);
    expect([...(await r.of('c', 'x'))]).toEqual([]);
    expect([...(await r.of('d', 'u9'))]).toEqual(['gas']);
    expect([...(await r.of('zz', 'u9'))]).toEqual([]);
    expect([...(await new MarksReader(null).of('a', 'u1'))]).toEqual([]);
  });
});
