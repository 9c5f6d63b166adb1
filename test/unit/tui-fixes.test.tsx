// The browser at the edges an audit found: overflowing overlays, keys that arrive
// in one chunk, 80 columns, long breadcrumbs, exports, stale messages, words for
// enum values, counting flags in the background and the refusal hint.
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Property } from '../../src/api/types.js';
import { flagText } from '../../src/billing/index.js';
import { App } from '../../src/tui/app.js';
import { fitCrumbs, wordWrap } from '../../src/tui/format.js';
import { shortRangeLabel } from '../../src/tui/range.js';
import { ALL_STATUS_MARKS, explainLines } from '../../src/tui/view.js';
import { runCli } from '../helpers/run-cli.js';
import { aPointConsumption, aSegment, aUnitEntry, RANGE, uuid } from '../helpers/builders.js';
import { aProperty, bundleFor, flat32, deferred, fakeData, frameWhere, KEY, MARKT, monthly, mount, press } from '../helpers/tui-fake.js';

afterEach(() => cleanup());

/** Scrolls an overlay down with j until its end, collecting every line seen (bounded). */
async function scrollAll(app: ReturnType<typeof mount>): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 80; i++) {
    const f = app.lastFrame() ?? '';
    seen.push(...f.split('\n'));
    if (f.includes('end ↑') || !f.includes('more ↓')) return seen;
    await press(app.stdin, 'j');
  }
  throw new Error('the overlay never reached its end');
}

/** A unit with four metrics and large totals; its cold water and allocator raise flags. */
function busyPoints() {
  return [
    aPointConsumption({
      metric: 'heat',
      unit: 'kWh',
      segments: [
        aSegment({
          baseline_value: 10000,
          period_consumption: { end_value: 22345.67, billable_value: 12345.67, weighted_billable_value: 12345.67, status: 'measured' },
          readings: monthly([12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000, 20000, 21000, 22000, 22345.67]),
        }),
      ],
    }),
    aPointConsumption({
      metric: 'water_warm',
      unit: 'm3',
      segments: [
        aSegment({
          baseline_value: 100,
          period_consumption: { end_value: 223.45, billable_value: 123.45, weighted_billable_value: 123.45, status: 'measured' },
          readings: monthly([110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 223.45], ['measured', 'missing']),
        }),
      ],
    }),
    aPointConsumption({
      metric: 'water_cold',
      unit: 'm3',
      segments: [
        aSegment({
          baseline_value: 0,
          baseline_origin: 'assumed_zero',
          period_consumption: { end_value: 123.45, billable_value: 123.45, weighted_billable_value: 123.45, status: 'measured' },
          readings: monthly([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 123.45]),
        }),
      ],
    }),
    aPointConsumption({
      metric: 'hca',
      unit: 'units',
      segments: [
        aSegment({
          baseline_value: 0,
          period_consumption: { end_value: 1234, billable_value: 1234, weighted_billable_value: 1234, status: 'measured' },
          readings: monthly([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1234], [...Array(11).fill('measured'), 'calibration_expired']),
        }),
      ],
    }),
  ];
}

function busyUnit() {
  return aUnitEntry('WE 10 Dachgeschoss', busyPoints(), { floor: '4. OG', position: 'rechts hinten' });
}

/**
 * Flat 3.2's meters (points and devices of its own: the same ids at share 1 in two units would be a shared meter
 * billed 200 %, the same devices under other points one device at two places) and two more: flags of five or more codes.
 */
function flaggedUnit() {
  const own = flat32().consumption.measuring_points.map((c) => ({
    ...c,
    measuring_point_id: uuid(),
    segments: c.segments.map((seg) => ({ ...seg, device_id: uuid() })),
  }));
  return aUnitEntry('WE 11', [...own, ...busyPoints().slice(2)], { floor: '4. OG', position: 'links' });
}

function busyData(extra: Partial<Parameters<typeof fakeData>[0]> = {}) {
  return fakeData({
    ...extra,
    load: async (p, range) => {
      const b = bundleFor(p, range);
      const { billProperty } = await import('../../src/billing/index.js');
      const units = [...b.units, busyUnit(), flaggedUnit()];
      const bill = billProperty({ property: { id: p.id, name: p.name }, range, units, plantPoints: b.plant });
      return { ...b, units, bill };
    },
  });
}

async function openProperty(app: ReturnType<typeof mount>) {
  await app.frame((s) => s.includes('Am Markt 3'), 'the Properties');
  await press(app.stdin, KEY.enter);
  return app.frame((s) => s.includes('Units ('), 'the Property');
}

describe('overlays that are taller than the screen', () => {
  it('explains each flag code once at 80x24 and scrolls to every line of every explanation', async () => {
    const data = busyData();
    const app = mount(data, { width: 80, height: 24 });
    await openProperty(app);
    await press(app.stdin, '/', ...'WE 11', KEY.enter);
    await app.frame((s) => /^> WE 11/m.test(s), 'the flagged unit selected');
    await press(app.stdin, 'i');
    const first = await app.frame((s) => s.includes('Why this is flagged'), 'the explanation');
    expect(first).toContain('more ↓');
    for (const l of first.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
    expect(first.split('\n').length).toBeLessThanOrEqual(24);
    const seen = (await scrollAll(app)).map((l) => l.trim());
    const b = await data.loadProperty(aProperty(), RANGE);
    const unitId = b.units.at(-1)!.unit.id;
    const codes = [...new Set(b.bill.flags.filter((f) => f.usage_unit_id === unitId).map((f) => f.code))];
    expect(codes.length).toBeGreaterThanOrEqual(4);
    // every place is listed under its code: both devices of the replacement
    expect(seen.join('\n')).toMatch(/• WE 11 · heat point 00000000 · device HZ-OLD-0815/);
    expect(seen.join('\n')).toMatch(/• WE 11 · heat point 00000000 · device HZ-NEW-4711/);
    const distinct = [...new Set(seen)];
    // the overlay's own lines (scrolled frames repeat lines, so count there): each title once
    const unitFlags = b.bill.flags.filter((f) => f.usage_unit_id === unitId);
    const overlay = explainLines(unitFlags, flagText, 80, () => '').map((l) => l.map((x) => x.text).join(''));
    expect(unitFlags.length).toBeGreaterThan(codes.length);
    for (const code of codes) {
      // the wording of the code for this unit's meter (an expired heat meter's names the HeizkostenV)
      const t = flagText(code, 'en', unitFlags.find((f) => f.code === code)!.facts?.point_metric);
      expect(overlay.filter((l) => l.endsWith(t.title)).length, `${code} explained once`).toBe(1);
      expect(distinct.filter((l) => l.endsWith(t.title)).length, `${code} shown`).toBe(1);
      for (const l of wordWrap(t.explanation, 76)) expect(distinct, `${code}: "${l}"`).toContain(l);
    }
  });

  it('help at 80x24 scrolls, wraps without a leading space and lists every status letter', async () => {
    const app = mount(fakeData(), { width: 80, height: 24 });
    await app.frame((s) => s.includes('Am Markt 3'));
    await press(app.stdin, '?');
    await app.frame((s) => s.includes('Keys'));
    const seen = await scrollAll(app);
    const text = seen.join('\n');
    for (const m of ALL_STATUS_MARKS) expect(text).toMatch(new RegExp(`^ {2}${m.letter.replace(/[?.*]/g, '\\$&')} +${m.label}`, 'm'));
    expect(text).toMatch(/S +substituted/);
    expect(text).toMatch(/\? +a status this version does not know/);
    expect(text).toMatch(/HCA +heat cost allocator units/);
    expect(text).toMatch(/res +residential/);
    // A wrapped description continues under its first line, never starting with a lone space.
    expect(text).toMatch(/^ {2}c {7}count the flags of every Property/m);
    expect(text).toMatch(/^ {10}\S/m);
    expect(text).toContain('Press Esc or ? to close.');
  });
});

describe('keys that arrive in one chunk', () => {
  it('moves and opens with "j\\r" as one chunk, and applies a prompt value sent with its Enter', async () => {
    const data = fakeData();
    const app = mount(data);
    await app.frame((s) => s.includes('Am Markt 3'));
    app.stdin.write('j\r');
    await app.frame((s) => s.includes('Properties › Am Markt 3') && s.includes('Plant-room'), 'Am Markt 3 opened');
    app.stdin.write('y');
    await app.frame((s) => s.includes('Range: '));
    app.stdin.write('2024\r');
    await app.frame((s) => s.includes('range 2024') && !s.includes('Range: '), 'the prompt closed with the new range');
    app.stdin.write('/EG\r');
    const f = await app.frame((s) => s.includes('Filtered by "EG"'), 'the filter kept');
    expect(f).not.toContain('Filter: ');
    expect(data.calls.loadProperty.map((c) => c.range.from)).toEqual(['2025-01-01', '2024-01-01']);
  });

  it('handles an arrow and Enter arriving together in order', async () => {
    const app = mount(fakeData());
    await app.frame((s) => s.includes('Am Markt 3'));
    app.stdin.write(KEY.down + '\r');
    await app.frame((s) => s.includes('Properties › Am Markt 3'), 'the row the arrow moved to');
  });
});

describe('80 columns', () => {
  it('shows every metric total of a unit with four metrics and its type code', async () => {
    const app = mount(busyData(), { width: 80, height: 24 });
    await openProperty(app);
    const f = await app.frame((s) => s.includes('WE 10'));
    const line = f.split('\n').find((l) => l.includes('WE 10'))!;
    expect(line).toMatch(/WE 10 Dachg… res 4\. OG rech… /);
    for (const total of ['H 12345.67', 'WW 123.45', 'CW 123.45', 'HCA 1234']) expect(line).toContain(`${total}  `);
    expect(line).toMatch(/ \d+[!?i]$/);
    expect(f).toMatch(/Unit +Typ +Floor\/pos\. +Billed per metric \(codes: \?\)/);
  });

  it('gives spare width at 120 columns to names, floor/position and units', async () => {
    const app = mount(busyData(), { width: 120, height: 30 });
    await openProperty(app);
    const f = await app.frame((s) => s.includes('WE 10'));
    expect(f).toMatch(/WE 10 Dachgeschoss +res +4\. OG rechts hin… +HCA 1234 units {2}H 12345\.67 kWh {2}CW 123\.45 m3 {2}WW 123\.45 m3/);
  });
});

describe('the header', () => {
  it('keeps the last crumb and cuts the middle ones first; ranges are short', () => {
    expect(shortRangeLabel({ from: '2025-01-01', to: '2025-12-31' })).toBe('2025');
    expect(shortRangeLabel({ from: '2025-03-01', to: '2025-05-31' })).toBe('2025-03..2025-05');
    expect(shortRangeLabel({ from: '2024-02-01', to: '2024-02-29' })).toBe('2024-02');
    expect(shortRangeLabel({ from: '2025-03-02', to: '2025-05-31' })).toBe('2025-03-02..2025-05-31');
    expect(fitCrumbs(['Properties', 'Musterstraße 1-5 Hinterhaus', 'WE 03'], 30)).toBe('Properties › Musterst… › WE 03');
    expect(fitCrumbs(['Properties', 'Musterstraße', 'WE 03'], 20)).toBe('Propert… › … › WE 03');
  });

  it('shows the unit name at 80 columns with a month range and a long Property name', async () => {
    const long = aProperty({ name: 'Wohnanlage Musterstraße 1-5 Vorderhaus und Hinterhaus' });
    const data = busyData({ properties: async () => [long, MARKT] });
    const app = render(<App data={data} range={{ from: '2025-03-01', to: '2025-05-31' }} color={false} width={80} height={24} />);
    await frameWhere(app.lastFrame, (s) => s.includes('Am Markt 3'));
    await press(app.stdin, KEY.enter);
    await frameWhere(app.lastFrame, (s) => s.includes('Units ('));
    app.stdin.write('/WE 10\r');
    await frameWhere(app.lastFrame, (s) => s.includes('Filtered by'));
    await press(app.stdin, KEY.enter);
    const f = await frameWhere(app.lastFrame, (s) => s.includes('Months:'), 'unit WE 10');
    const head = f.split('\n')[0]!;
    expect(head).toMatch(/Properties › Wohnanlage.*… › WE 10 Dachgeschoss +range 2025-03\.\.2025-05$/);
  });
});

describe('export from the browser', () => {
  it('ignores e while an export runs, and exports just the unit on a unit screen', async () => {
    const done = deferred<string>();
    const seen: { unitId?: string; unitName?: string; property: Property }[] = [];
    const app = mount(fakeData({ exportSelection: (s) => (seen.push(s), done.promise) }), { width: 100, height: 40 });
    await openProperty(app);
    await press(app.stdin, KEY.enter);
    await app.frame((s) => s.includes('› 3.2') && s.includes('Months:'), 'flat 3.2');
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('Exporting unit 3.2 of Lindenstraße 12…'));
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('An export is already running'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ unitName: '3.2', property: { name: 'Lindenstraße 12' } });
    expect(seen[0]!.unitId).toMatch(/^[0-9a-f-]{36}$/);
    done.resolve('2 files in ./x');
    await app.frame((s) => s.includes('Exported: 2 files in ./x'));
    await press(app.stdin, 'e');
    await frameWhere(
      () => String(seen.length),
      (n) => n === '2',
      'a second export once the first ended',
    );
  });

  it('shows what the export says on its way (a wait for another run’s commit) in the status line, never after its end', async () => {
    const done = deferred<string>();
    let say: ((line: string) => void) | undefined;
    const app = mount(fakeData({ exportSelection: (_s, onNote) => ((say = onNote), done.promise) }), { width: 140, height: 40 });
    await openProperty(app);
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('Exporting Lindenstraße 12…'));
    say!('Waiting for another meterdata run of this account to put its files into place (/s/commit.lock).\n');
    await app.frame((s) => s.includes('Waiting for another meterdata run of this account'));
    done.resolve('2 files in ./x');
    await app.frame((s) => s.includes('Exported: 2 files in ./x'));
    say!('late');
    await new Promise((r) => setTimeout(r, 50));
    expect(app.lastFrame()).toContain('Exported: 2 files in ./x');
  });
});

describe('status messages', () => {
  it('clears a message when going back or opening', async () => {
    const app = mount(fakeData());
    await openProperty(app);
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('Export from here is not available'));
    await press(app.stdin, KEY.esc);
    const list = await app.frame((s) => s.includes('Am Markt 3') && !s.includes('Units ('), 'the Properties again');
    expect(list).not.toContain('Export from here');
    await press(app.stdin, 'i');
    await app.frame((s) => s.includes('no flags to explain'));
    await press(app.stdin, KEY.enter);
    const opened = await app.frame((s) => s.includes('Units ('));
    expect(opened).not.toContain('no flags to explain');
  });
});

describe('enum values in words', () => {
  it('names known replacement reasons and baseline origins, and shows unknown ones as received', async () => {
    const { pointBlock } = await import('../../src/tui/screens-unit.js');
    const c = aPointConsumption({
      segments: [
        aSegment({
          serial: 'A-1',
          deinstalled_at: '2025-03-31',
          replacement_reason: 'DeviceRemoval',
          baseline_origin: 'assumed_zero',
          period_consumption: { end_value: 123.45, billable_value: 123.45, weighted_billable_value: 123.45, status: 'measured' },
          readings: monthly([1, 2, 3]),
        }),
        aSegment({
          serial: 'B-2',
          deinstalled_at: '2025-06-30',
          replacement_reason: 'Teleported',
          baseline_origin: 'moon_phase',
          readings: monthly([4, 5, 6], [], 4),
        }),
      ],
    });
    const text = pointBlock({ consumption: c, point: undefined, billed: '5', flags: [], range: RANGE, titleOf: (f) => f.code, keyPrefix: 'x' })
      .map((r) => r.spans.map((s) => s.text).join(''))
      .join('\n');
    expect(text).toContain('removed 2025-03-31 · device removed');
    expect(text).toMatch(/\(assumed 0 \(not recorded\)\)/);
    expect(text).toContain('removed 2025-06-30 · "Teleported" (value not known to this version)');
    expect(text).toContain('("moon_phase" (value not known to this version))');
    expect(text).not.toMatch(/DeviceRemoval|assumed_zero/);
  });
});

describe('counting the flags of every Property', () => {
  it('loads Properties one at a time in the background, fills in counts, keeps keys working and stops on Esc', async () => {
    const third = aProperty({ id: '00000000-0000-4000-8000-0000000000c3', name: 'Hafenweg 7' });
    const waits = new Map<string, ReturnType<typeof deferred<void>>>();
    const data = fakeData({
      properties: async () => [aProperty(), MARKT, third],
      load: async (p, range) => {
        const d = deferred<void>();
        waits.set(p.name, d);
        await d.promise;
        return bundleFor(p, range);
      },
    });
    const app = mount(data);
    const list = await app.frame((s) => s.includes('Hafenweg 7'));
    expect(list.match(/…$/gm)).toHaveLength(3);
    await press(app.stdin, 'c');
    await app.frame((s) => s.includes('Counting flags: 0 of 3 Properties… (Esc stops)'));
    expect(data.calls.loadProperty.map((c) => c.id)).toEqual([aProperty().id]);
    await press(app.stdin, 'j');
    await app.frame((s) => /^> Am Markt 3/m.test(s), 'the cursor moved while counting');
    waits.get('Lindenstraße 12')!.resolve();
    const one = await app.frame((s) => s.includes('1 of 3'));
    expect(one).toMatch(/Lindenstraße 12.*\d+!$/m);
    expect(data.calls.loadProperty.map((c) => c.id)).toEqual([aProperty().id, MARKT.id]);
    await press(app.stdin, KEY.esc);
    await app.frame((s) => s.includes('Counting stopped after 1 of 3 Properties; c continues.'));
    waits.get('Am Markt 3')!.resolve();
    await new Promise((r) => setTimeout(r, 50));
    expect(data.calls.loadProperty).toHaveLength(2);
    await press(app.stdin, 'c');
    // The count is of the list shown (3 Properties), the two counted before included.
    await app.frame((s) => s.includes('Counting flags: 2 of 3 Properties… (Esc stops)'));
    waits.get('Hafenweg 7')!.resolve();
    const all = await app.frame((s) => s.includes('Flags counted for 3 of 3 Properties.'));
    expect(all).not.toMatch(/…$/m);
    await press(app.stdin, 'c');
    await app.frame((s) => s.includes('Flags of every Property are already counted.'));
    await press(app.stdin, '?');
    const help = await app.frame((s) => s.includes('Keys'));
    expect(help).toContain('count the flags of every Property');
  });
});

describe('the refusal without a terminal', () => {
  it('names the range that was asked for', async () => {
    const a = await runCli(['browse', '--from', '2025-03-01', '--to', '2025-05-31'], { tty: false });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('meterdata export --from 2025-03-01 --to 2025-05-31');
    const b = await runCli(['browse', '--year', '2024'], { tty: false });
    expect(b.stderr).toContain('meterdata export --year 2024');
  });
});
