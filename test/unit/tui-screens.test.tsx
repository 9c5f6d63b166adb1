// The browser's screens driven by key presses, against a fake BrowseData.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { RANGE } from '../helpers/builders.js';
import { fakeData, KEY, mount, openFlat32, press } from '../helpers/tui-fake.js';

afterEach(() => cleanup());

describe('browse screens', () => {
  it('lists the Properties with address, unit count and the footer keys', async () => {
    const { frame } = mount(fakeData());
    const f = await frame((s) => s.includes('Am Markt 3'));
    expect(f).toContain('Lindenstraße 12');
    expect(f).toMatch(/Lindenstraße 12, 10115 Berlin\s+3\s+…/);
    expect(f).toMatch(/Am Markt 3, 04109 Leipzig\s+12/);
    expect(f).toContain('range 2025');
    // Every key that acts here: `c` counts the flags on this list; `i` has none to explain.
    expect(f).toMatch(/Enter open\s+Esc back\s+\/ filter\s+y range\s+e export\s+c count\s+\? help\s+q quit/);
    expect(f.split('\n')[3]).toMatch(/^> Lindenstraße 12/);
  });

  it('opens a Property: units with billed totals and flags, then the plant-room meters', async () => {
    const data = fakeData();
    const { frame, stdin } = mount(data);
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, KEY.enter);
    const f = await frame((s) => s.includes('Plant-room'));
    expect(data.calls.loadProperty).toEqual([{ id: data.calls.loadProperty[0]!.id, range: RANGE }]);
    expect(f).toContain('Properties › Lindenstraße 12');
    expect(f).toMatch(/3\.2\s+res\s+3 links\s+H 2110 kWh {2}WW 0 m3\s+\d+!/);
    expect(f).toMatch(/EG links\s+res\s+EG links\s+CW 10 m3/);
    expect(f).toMatch(/cold water · Heizungskeller Hauptz.*500 m3/);
  });

  it('opens flat 3.2: device replacement, baselines, chart letters and legend', async () => {
    const f = await openFlat32(mount(fakeData(), { width: 100, height: 60 }));
    expect(f).toContain('Properties › Lindenstraße 12 › 3.2');
    expect(f).toContain('Months: M measured  C calculated  - missing  X calibration expired');
    expect(f).toContain('── heat (kWh) · 1 point ──');
    expect(f).toContain('Point 00000000 · billed 2110 kWh · share 1 · system linked · Bad, Heizkörper');
    expect(f).toContain('Device HZ-OLD-0815 · installed 2016-05-01 · factor 1 · Qundis');
    expect(f).toContain('removed 2025-06-30 · device replaced');
    expect(f).toContain('baseline 1000 on 2024-12-31 (last month end before the range)');
    expect(f).toContain('end 2210 · billable 1210 · M measured');
    expect(f).toContain('Device HZ-NEW-4711 · installed 2025-07-01 · factor 1 · Qundis');
    expect(f).toContain('baseline 0 on 2025-07-01 (recorded)');
    expect(f).toMatch(/\[i\] Device replaced during the period \(HZ-OLD-0815\)/);
    // heat: Jan 400 (1400-1000), Mar calculated; Jul 5 from the new device's baseline 0
    expect(f).toMatch(/kWh\s+400\s+350\s+250\s+150\s+50\s+10\s+5\s+5\s+10\s+130\s+270\s+480/);
    expect(f).toMatch(/m3 +1 +1 +1 +1 +1 +1 +1 +1 +1 +1\s*\n/);
    expect(f).toMatch(/Jan\s+Feb\s+Mar\s+Apr\s+May\s+Jun\s+Jul\s+Aug\s+Sep\s+Oct\s+Nov\s+Dec/);
    expect(f).toMatch(/ M {4}M {4}C {4}M {4}M {4}M {4}M {4}M/);
    // warm water: November missing, December calibration expired, not billed
    expect(f).toMatch(/ M {4}M {4}- {4}X/);
    expect(f).toMatch(/billable 0 · X calibration expired/);
    expect(f).toMatch(/\[!\] Calibration/i);
  });

  it('explains a flag on demand with the accountant-facing text, and goes back with Esc and Backspace', async () => {
    const app = mount(fakeData(), { width: 100, height: 60 });
    const { frame, stdin, lastFrame } = app;
    await openFlat32(app);
    // move down to the calibration flag line
    for (let i = 0; i < 12 && !/^> .*\[!\]/m.test(lastFrame() ?? ''); i++) await press(stdin, KEY.down);
    expect(lastFrame()).toMatch(/^> .*\[!\] /m);
    await press(stdin, 'i');
    const f = await frame((s) => s.includes('Why this is flagged'));
    expect(f).toMatch(/\[!\] not billed: /);
    expect(f.toLowerCase()).toContain('calibration');
    await press(stdin, KEY.esc);
    await frame((s) => s.includes('HZ-NEW-4711'), 'unit screen again');
    await press(stdin, KEY.esc);
    await frame((s) => s.includes('Plant-room'), 'property screen');
    await press(stdin, KEY.backspace);
    const list = await frame((s) => s.includes('Am Markt 3') && !s.includes('Plant-room'), 'properties');
    expect(list).toMatch(/Lindenstraße 12, 10115 Berlin\s+3\s+5!\n/);
  });

  it('filters the current list by text and clears it with Esc', async () => {
    const { frame, stdin } = mount(fakeData());
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, '/', 'l', 'e', 'i', 'p');
    const f = await frame((s) => s.includes('Filter: leip'));
    expect(f).toContain('Am Markt 3');
    expect(f).not.toContain('Lindenstraße 12, 10115');
    await press(stdin, KEY.enter);
    const kept = await frame((s) => s.includes('Filtered by "leip": 1 match'));
    expect(kept.split('\n')[3]).toMatch(/^> Am Markt 3/);
    await press(stdin, KEY.esc);
    await frame((s) => s.includes('Lindenstraße 12, 10115') && s.includes('Am Markt 3'));
    await press(stdin, '/', 'x', 'y', 'z');
    await frame((s) => s.includes('Nothing matches "xyz"'));
  });

  it('counts the matches of a filter in plain English ("2 matches", not "2 matchs")', async () => {
    const { frame, stdin } = mount(fakeData());
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, '/', 'e', KEY.enter);
    await frame((s) => s.includes('Filtered by "e": 2 matches'));
  });

  it('changes the range with y, refusing a bad entry with a one-line reason', async () => {
    const data = fakeData();
    const { frame, stdin } = mount(data);
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('Plant-room'));
    await press(stdin, 'y', '2', '0', '2', KEY.enter);
    await frame((s) => s.includes('"202" is not a year'));
    await press(stdin, KEY.backspace, KEY.backspace, KEY.backspace);
    await press(stdin, ...'2024-01-01..2024-06-30', KEY.enter);
    await frame((s) => s.includes('range 2024-01..2024-06') && s.includes('Plant-room'));
    expect(data.calls.loadProperty.map((c) => c.range)).toEqual([RANGE, { from: '2024-01-01', to: '2024-06-30' }]);
  });

  it('shows help with the keys and both legends', async () => {
    const { frame, stdin } = mount(fakeData());
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, '?');
    const f = await frame((s) => s.includes('Monthly status letters'));
    expect(f).toMatch(/X\s+calibration expired/);
    expect(f).toMatch(/!\s+not billed/);
    expect(f).toContain('change the year or range');
    await press(stdin, '?');
    await frame((s) => s.includes('Am Markt 3'));
  });

  it('says plainly when export is not available from here, and reports where an export went', async () => {
    const a = mount(fakeData());
    await a.frame((s) => s.includes('Am Markt 3'));
    await press(a.stdin, 'e');
    await a.frame((s) => s.includes('Export from here is not available in this build; run: meterdata export --year 2025'));
    a.unmount();
    const seen: unknown[] = [];
    const b = mount(fakeData({ exportSelection: async (s) => (seen.push(s), '/tmp/out/billing.csv') }));
    await b.frame((s) => s.includes('Am Markt 3'));
    await press(b.stdin, KEY.down, 'e');
    await b.frame((s) => s.includes('Exported: /tmp/out/billing.csv'));
    expect(seen).toMatchObject([{ property: { name: 'Am Markt 3' }, range: RANGE }]);
  });

  it('fits an 80x24 terminal: no line wider than 80, no more than 24 lines, the list scrolls', async () => {
    const { frame, stdin, lastFrame } = mount(fakeData({ extraUnits: 30 }), { width: 80, height: 24 });
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('Units (32)'));
    const check = (f: string) => {
      const lines = f.split('\n');
      expect(lines.length).toBeLessThanOrEqual(23);
      for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    };
    check(lastFrame()!);
    for (let i = 0; i < 40; i++) await press(stdin, KEY.down);
    const bottom = await frame((s) => /^> cold water · Heizungs/m.test(s), 'scrolled to the plant meter');
    check(bottom);
    expect(bottom).not.toContain('Units (32)');
    expect(bottom).toMatch(/^> cold water/m);
    await press(stdin, KEY.enter);
    const plant = await frame((s) => s.includes('Months:'), 'the plant meter');
    check(plant);
    expect(plant).toContain('› cold water · Heizungskeller Hauptzähler');
    expect(plant).toContain('Plant-room or main meter, allocated to no unit: cold water (m3)');
    expect(plant).toMatch(/Point 00000000 · billed 500 m3 · system linked/);
    expect(plant).toMatch(/\[i\] Meter not allocated to a unit/);
  });

  it('explains all flags of a unit from the Property screen with i, and says so when a line has none', async () => {
    const { frame, stdin } = mount(fakeData(), { width: 100, height: 40 });
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('Plant-room'));
    await press(stdin, 'i');
    const f = await frame((s) => s.includes('Why this is flagged'));
    expect(f).toMatch(/\[!\] not billed: Calibration expired/);
    expect(f).toMatch(/\[i\] for information: .*replaced/i);
    await press(stdin, 'i', KEY.down, 'i');
    await frame((s) => s.includes('The selected line has no flags to explain.'));
  });
});
