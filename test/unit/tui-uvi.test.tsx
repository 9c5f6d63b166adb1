// The monthly consumption information in browse (§ 6a HeizkostenV, `m` on a unit's screen):
// the figures and words on the screen are the letter model's for the same answers, a heat
// meter's months agree with arithmetic done here from its readings, estimated months carry
// `*`, missing ones `–` (never 0), and the 13 months are loaded once for the Property.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeasuringPointConsumption } from '../../src/api/types.js';
import { billProperty } from '../../src/billing/index.js';
import { setLanguage } from '../../src/i18n/index.js';
import { App } from '../../src/tui/app.js';
import type { PropertyBundle } from '../../src/tui/data.js';
import type { DateRange } from '../../src/tui/range.js';
import { initialState, reduce } from '../../src/tui/state.js';
import { uviMonth } from '../../src/tui/uvi.js';
import { DEFAULT_BENCHMARK, classifyPlant, propertyUvi } from '../../src/uvi/index.js';
import { letterModel } from '../../src/uvi/letter/model.js';
import { PROPERTY, aPlantPoint, aUnitEntry } from '../helpers/builders.js';
import { aProperty, fakeData, frameWhere, KEY, press } from '../helpers/tui-fake.js';
import { ALLOCATOR_PROPERTY, MONTHS, cumulative, point, series, type R } from '../helpers/uvi-fixtures.js';

const metered = (metric: string, monthly: readonly number[], start = 1000): MeasuringPointConsumption =>
  point(metric, [series(start, cumulative(start, monthly))]);

// WE 03's heat meter, written out: month ends from a 20000 kWh baseline on 2024-10-31. November 2025
// rests on a calculated reading; June 2025's reading is missing, so June and July have no value.
const HEAT: R[] = [20800, 21700, 22700, 23600, 24300, 24700, 24850, [0, 'missing'], 25000, 25050, 25150, 25600, [26300, 'calculated']];

const { hcaA, hcaB, wwA, wwB, plantHeat } = ALLOCATOR_PROPERTY;
const PROP = aProperty({ usage_unit_count: 3 });
const UNITS = [
  aUnitEntry('WE 01', [metered('hca', hcaA), metered('water_warm', wwA)]),
  aUnitEntry('WE 02', [metered('hca', hcaB), metered('water_warm', wwB)]),
  aUnitEntry('WE 03', [point('heat', [series(20000, HEAT)]), metered('water_cold', [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4])]),
];
const PLANT = [
  aPlantPoint({
    point: { localization: 'Heizzentrale Wärmemengenzähler', metric: 'heat', unit: 'kWh' },
    consumption: { metric: 'heat', unit: 'kWh', segments: [series(50000, cumulative(50000, plantHeat))] },
  }),
];
const UVI_RANGE = { from: '2024-11-01', to: '2025-11-30' };

function bundle(range: DateRange): PropertyBundle {
  // each answer echoes the range it was asked for (billing judges its readings against it)
  const units = UNITS.map((u) => ({ ...u, consumption: { ...u.consumption, from: range.from, to: range.to } }));
  const bill = billProperty({ property: { id: PROP.id, name: PROP.name }, range, units, plantPoints: PLANT });
  return { property: PROP, range, effective: range, units, plant: PLANT, points: new Map(PLANT.map((p) => [p.point.id!, p.point])), bill };
}

/** The letter's model for a unit, from the same answers through the letter's own path. */
function letterOf(name: string, lang: 'en' | 'de') {
  const r = propertyUvi({ property_id: PROP.id, months: MONTHS, units: UNITS, plant: classifyPlant(PLANT), benchmark: DEFAULT_BENCHMARK });
  const entry = UNITS.find((u) => u.unit.name === name)!;
  return letterModel({
    property: { id: PROP.id, name: PROP.name },
    address: entry.unit.address,
    unit: entry.unit,
    erpRef: null,
    month: '2025-11',
    uvi: r.units.find((u) => u.usage_unit_id === entry.unit.id)!,
    benchmarkSource: DEFAULT_BENCHMARK.source,
    wwTemperature: 60,
    lang,
  });
}

const TODAY = new Date('2025-12-05T10:00:00Z');

/** Browse over 2025 on `today`; `load` answers for a range (default: the Property's whole answers). */
function mountAt(today: Date, size = { width: 100, height: 200 }, load: (range: DateRange) => Promise<PropertyBundle> = async (range) => bundle(range)) {
  const data = fakeData({ properties: async () => [PROP], load: (_p, range) => load(range) });
  const app = render(<App data={data} range={{ from: '2025-01-01', to: '2025-12-31' }} today={today} color={false} width={size.width} height={size.height} />);
  return { app, data, frame: (pred: (f: string) => boolean, what?: string) => frameWhere(app.lastFrame, pred, what) };
}

/** Properties → the Property → WE 0n → `m`; returns the monthly screen's frame. */
async function openMonthly(m: ReturnType<typeof mountAt>, unitIndex: number, done: RegExp): Promise<string> {
  await m.frame((f) => f.includes(PROPERTY.name), 'the Properties');
  await press(m.app.stdin, KEY.enter);
  await m.frame((f) => f.includes('WE 03'), 'the Property');
  for (let i = 0; i < unitIndex; i++) await press(m.app.stdin, 'j');
  await press(m.app.stdin, KEY.enter);
  await m.frame((f) => / m (monthly|Monat) /.test(f), 'the unit screen with m in its footer');
  await press(m.app.stdin, 'm');
  return m.frame((f) => done.test(f), 'the monthly information');
}

const lineOf = (frame: string, start: string) => frame.split('\n').find((l) => l.replace(/^[ >]+/, '').startsWith(start)) ?? '';
/** The lines of one service: from its heading to the next one (or the notes). */
const section = (frame: string, heading: string) => frame.split(`── ${heading}`)[1]!.split(/──|Hinweise der|Notes of the/)[1]!;

afterEach(() => setLanguage('en'));

describe('the monthly information on a unit’s screen', () => {
  it('shows WE 03’s heat meter as worked out from its readings: * on the calculated November, – for June and July, never 0', async () => {
    const m = mountAt(TODAY);
    const f = await openMonthly(m, 2, /Notes of the letter/);
    // Month by month: the difference of month-end readings. Nov 2025 26300 − 25600 = 700 (calculated), Oct 450,
    // Nov 2024 800. Average user: 118 kWh/(m²·a) × 72.5 m² × 120 ‰ = 1026.6 in November, × 160 ‰ = 1368.8 in December.
    expect(lineOf(f, 'Nov 2024')).toMatch(/Nov 2024 +800\.0 +1,026\.6$/);
    expect(lineOf(f, 'Dec 2024')).toMatch(/Dec 2024 +900\.0 +1,368\.8$/);
    expect(lineOf(f, 'Jun 2025')).toMatch(/Jun 2025 +– +/);
    expect(lineOf(f, 'Jul 2025')).toMatch(/Jul 2025 +– +/);
    // August starts from July's end (25050 − 25000); its average user is 118 × 72.5 × 40/3 ‰ = 114.1.
    expect(lineOf(f, 'Aug 2025')).toMatch(/Aug 2025 +50\.0 +114\.1$/);
    expect(lineOf(f, 'Sep 2025')).toMatch(/Sep 2025 +100\.0 +/);
    expect(lineOf(f, 'Nov 2025')).toMatch(/Nov 2025 +700\.0 \* +1,026\.6$/);
    expect(lineOf(f, 'This month')).toMatch(/This month +700\.0 kWh \* +November 2025/);
    expect(lineOf(f, 'Previous month')).toMatch(/Previous month +450\.0 kWh +56 % more than in October 2025/);
    // Cold water is the separate extra in m³, no average user.
    expect(f).toMatch(/Cold water \(extra information\) \(m³\)/);
    const cold = section(f, 'Cold water');
    expect(lineOf(cold, 'Month')).not.toMatch(/Average/);
    expect(lineOf(cold, 'Nov 2025')).toMatch(/Nov 2025 +4\.00$/);
    expect(f).toContain('Heizung: DIW Wärmemonitor 2023');
    expect(m.data.calls.loadProperty.map((c) => c.range)).toContainEqual(UVI_RANGE);
    m.app.unmount();
  });

  it('shows every row of the letter model’s table for an allocator unit, in German as the letter writes them', async () => {
    setLanguage('de');
    const m = mountAt(TODAY);
    const f = await openMonthly(m, 0, /Hinweise der Verbrauchsinformation/);
    const letter = letterOf('WE 01', 'de');
    expect(letter.services.map((s) => s.heading)).toEqual(['Heizung', 'Warmwasser']);
    for (const s of letter.services) {
      expect(f).toContain(`── ${s.heading} (${s.unitLabel}) ──`);
      const own = section(f, s.heading);
      for (const r of s.rows) expect(lineOf(own, r.label)).toMatch(new RegExp(`${r.label} +${r.figure.replace(/[*.]/g, '\\$&')} +${r.words || r.when}$`));
      expect(f.replace(/\s+/g, ' ')).toContain(s.method.replace(/\s+/g, ' '));
    }
    // The table's November is the letter's chart's November, to the decimal the letter prints.
    const nov = letter.services[0]!.chart.bars.at(-1)!;
    expect(lineOf(section(f, 'Heizung'), 'Nov 2025')).toContain(
      new Intl.NumberFormat('de-DE', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(nov.value!),
    );
    expect(f).toContain('Monatsinformation');
    expect(f).not.toMatch(/water_warm|HOT_WATER|HEATING/);
    m.app.unmount();
  });

  it('shows a loading state, and Esc leaves it back to the unit', async () => {
    let release: (() => void) | undefined;
    const { app, frame } = mountAt(TODAY, { width: 80, height: 24 }, async (range) => {
      if (range.from === UVI_RANGE.from) await new Promise<void>((r) => (release = r));
      return bundle(range);
    });
    await frame((f) => f.includes(PROPERTY.name));
    await press(app.stdin, KEY.enter);
    await frame((f) => f.includes('WE 03'));
    await press(app.stdin, KEY.enter, 'm');
    await frame((f) => f.includes('Loading the monthly information of') && f.includes('Lindenstraße 12 (2024-11..2025-11)'), 'the loading state');
    await press(app.stdin, KEY.esc);
    await frame((f) => f.includes('Billed 2025-01-01..2025-12-31') && !f.includes('Loading'), 'back on the unit');
    release?.();
    app.unmount();
  });

  it('says so when the unit is not in the Property’s answers for the 13 months (a unit new since), naming those months', async () => {
    const { app, frame } = mountAt(TODAY, { width: 100, height: 30 }, async (range) => {
      const b = bundle(range);
      return range.from === UVI_RANGE.from ? { ...b, units: b.units.slice(0, 2) } : b;
    });
    await frame((f) => f.includes(PROPERTY.name));
    await press(app.stdin, KEY.enter);
    await frame((f) => f.includes('WE 03'));
    await press(app.stdin, 'j', 'j', KEY.enter);
    await frame((f) => f.includes('› WE 03'));
    await press(app.stdin, 'm');
    await frame((f) => f.includes(`This is not part of ${PROPERTY.name} for 2024-11-01..2025-11-30. Press Esc to go back.`), 'the missing unit');
    app.unmount();
  });

  it('uses no meter billing refuses, as the letter does: WE 03’s heat meter sent twice (its id once in capitals) gives – in November (it showed 1,400, then 700)', async () => {
    const we03 = UNITS[2]!;
    const heat = we03.consumption.measuring_points[0]!;
    const twice = {
      ...we03,
      consumption: {
        ...we03.consumption,
        measuring_points: [...we03.consumption.measuring_points, { ...heat, measuring_point_id: heat.measuring_point_id.toUpperCase() }],
      },
    };
    const units = [UNITS[0]!, UNITS[1]!, twice];
    const m = mountAt(TODAY, undefined, async (range) => {
      const bill = billProperty({ property: { id: PROP.id, name: PROP.name }, range, units, plantPoints: PLANT });
      return { ...bundle(range), units, bill };
    });
    const f = await openMonthly(m, 2, /Notes of the letter/);
    expect(lineOf(f, 'Nov 2025')).toMatch(/Nov 2025 +– +1,026\.6$/);
    expect(lineOf(f, 'Oct 2025')).toMatch(/Oct 2025 +– +/);
    m.app.unmount();
  });
});

describe('the monthly information’s month', () => {
  it('follows a range chosen with y', () => {
    const chosen = reduce(initialState({ from: '2025-01-01', to: '2025-12-31' }), { type: 'set-range', range: { from: '2024-12-01', to: '2025-11-30' } });
    expect(initialState({ from: '2025-01-01', to: '2025-12-31' }).rangeChosen).toBe(false);
    expect(uviMonth(chosen.range, chosen.rangeChosen, new Date('2026-11-27T00:00:00Z'))).toBe('2025-11');
  });

  it('is asked for where there is no unit: m on the Properties list says so and loads nothing', async () => {
    const m = mountAt(TODAY, { width: 80, height: 24 });
    await m.frame((f) => f.includes(PROPERTY.name));
    await press(m.app.stdin, 'm');
    await m.frame((f) => f.includes('m shows the monthly information on a unit’s screen; open a unit first.'));
    expect(m.data.calls.loadProperty).toEqual([]);
    m.app.unmount();
  });

  it('is the last completed month, or the last month of a range the clerk chose (never one not ended)', () => {
    const today = new Date('2026-03-10T00:00:00Z');
    expect(uviMonth({ from: '2025-01-01', to: '2025-12-31' }, false, today)).toBe('2026-02');
    expect(uviMonth({ from: '2024-12-01', to: '2025-11-30' }, true, today)).toBe('2025-11');
    expect(uviMonth({ from: '2026-01-01', to: '2026-12-31' }, true, today)).toBe('2026-02');
  });
});
