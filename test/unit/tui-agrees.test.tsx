// browse says what the export and the service mean: `e` writes what the screen shows
// (its language's layout, its comparison), the `y` prompt shows the `vs` form, a wrong
// date is "not a date", a range the service refuses is explained with browse's own key,
// a list taller than the screen says that more follows.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { invalidRequest } from '../../src/api/problems.js';
import { browseExportFlags } from '../../src/commands/browse/run.js';
import { identity, parseExportArgs } from '../../src/export/options/options.js';
import { setLanguage } from '../../src/i18n/index.js';
import { parseRangeInput } from '../../src/tui/range.js';
import { findEnglish } from '../helpers/catalogues.js';
import { aProperty, bundleFor, fakeData, KEY, mount, press } from '../helpers/tui-fake.js';

afterEach(() => {
  cleanup();
  setLanguage('en');
});

describe('`e` exports what the screen shows', () => {
  const property = aProperty();
  const compared = { from: '2025-01-01', to: '2025-12-31', compare: { from: '2024-01-01', to: '2024-12-31' } };

  it('a German `2025 vs 2024` view: the de layout and the comparison (plausibility.csv), in a folder of its own', () => {
    const flags = browseExportFlags({ property, range: compared }, 'de', 'sued');
    expect(flags).toMatchObject({ template: 'de', compareFrom: '2024-01-01', compareTo: '2024-12-31', property: [property.id], profile: 'sued' });
    expect(flags.out).toMatch(/^meterdata-2025-01-01_2025-12-31-.+-vs-2024-01-01_2024-12-31$/);
    const id = identity(parseExportArgs(flags, '/w', {}, new Date('2026-11-22T00:00:00Z')));
    expect(id).toMatchObject({ template: 'de', review: { compare: { from: '2024-01-01', to: '2024-12-31' } } });
  });

  it('an English view without a comparison: the generic layout, the review without comparison (as every export), the folder as before', () => {
    const flags = browseExportFlags({ property, range: { from: '2025-01-01', to: '2025-12-31' }, unitId: 'u1', unitName: 'WE 09' }, 'en', undefined);
    expect(flags).toMatchObject({ template: 'generic' });
    expect(flags).not.toHaveProperty('compareFrom');
    expect(flags.out).toMatch(/^meterdata-2025-01-01_2025-12-31-.+-WE-09-[0-9a-f]{8}$/);
    expect(parseExportArgs(flags, '/w', {}).review).toEqual({ compare: null, threshold: '25' });
  });

  it('the selection handed to the export carries the comparison the screen shows', async () => {
    const seen: unknown[] = [];
    const app = mount(fakeData({ exportSelection: async (s) => (seen.push(s), 'x') }));
    await app.frame((s) => s.includes('Am Markt 3'));
    app.stdin.write('y');
    await app.frame((s) => s.includes('Range: '));
    app.stdin.write('2025 vs 2024\r');
    await app.frame((s) => s.includes('range 2025 vs 2024'), 'the comparison range');
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('Exported: x'), 'the export');
    expect(seen).toEqual([expect.objectContaining({ range: compared })]);
  });
});

describe('the `y` prompt', () => {
  it('shows the comparison form', async () => {
    const app = mount(fakeData(), { width: 80, height: 24 });
    await app.frame((s) => s.includes('Am Markt 3'));
    app.stdin.write('y');
    const f = await app.frame((s) => s.includes('Range: '));
    expect(f).toContain('Range: █  (e.g. 2024, 2025-01-01..2025-06-30, 2025 vs 2024; Esc cancels)');
  });

  it('calls a wrong date typed alone "not a date", not "not a year"; a right one alone asks for from..to', () => {
    expect(parseRangeInput('2025-02-30')).toEqual({ ok: false, message: '"2025-02-30" is not a date; use yyyy-mm-dd, e.g. 2025-01-01.' });
    expect(parseRangeInput('2025-03-01')).toEqual({ ok: false, message: '2025-03-01 is a single date; give from..to, e.g. 2025-03-01..2025-12-31' });
    expect(parseRangeInput('2025 vs 2024-13-01')).toEqual({ ok: false, message: 'comparison: "2024-13-01" is not a date; use yyyy-mm-dd, e.g. 2025-01-01.' });
    setLanguage('de');
    expect(parseRangeInput('2025-02-30')).toEqual({ ok: false, message: '„2025-02-30“ ist kein Datum; bitte als jjjj-mm-tt angeben, z. B. 2025-01-01.' });
    expect(parseRangeInput('2025-03-01')).toMatchObject({ message: '2025-03-01 ist nur ein Datum; bitte von..bis angeben, z. B. 2025-03-01..2025-12-31' });
    // a year stays a year
    expect(parseRangeInput('202')).toMatchObject({ message: '„202“ ist kein Jahr; bitte vierstellig angeben, z. B. 2025.' });
  });
});

describe('a comparison with the range itself', () => {
  it('is refused at the prompt, as export refuses --compare with its own period', () => {
    expect(parseRangeInput('2025 vs 2025')).toEqual({ ok: false, message: 'compare with another period than the range itself, e.g. 2025 vs 2024' });
    setLanguage('de');
    expect(parseRangeInput('2025 vs 2025-01-01..2025-12-31')).toEqual({
      ok: false,
      message: 'bitte mit einem anderen Zeitraum als dem gewählten vergleichen, z. B. 2025 vs 2024',
    });
  });
});

describe('a range the service refuses', () => {
  // What the client makes of the service's 400: its detail is the service's own English.
  const refused = () =>
    invalidRequest(
      'GET /usage-units/{id}/consumption',
      { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'to lies after the last completed month' },
      true,
    );

  it("is explained in German with browse's own key, not the service's text or export's flags", async () => {
    setLanguage('de');
    const data = fakeData({ load: async (p, range) => (range.from.startsWith('2030') ? Promise.reject(refused()) : bundleFor(p, range)) });
    const app = mount(data, { width: 80, height: 24 });
    await app.frame((s) => s.includes('Am Markt 3'));
    app.stdin.write('y');
    await app.frame((s) => s.includes('Zeitraum: '));
    app.stdin.write('2030\r');
    await press(app.stdin, KEY.enter);
    const f = await app.frame((s) => s.includes('Zeitraum abgelehnt'), 'the refusal');
    expect(f).toContain('Der Messdienst liefert für 2030 keine Werte, nur für abgeschlossene Monate.');
    expect(f).toMatch(/Mit y einen früheren Zeitraum eingeben, z\. B\. \d{4}\./);
    expect(f).toContain('Esc: zurück, q: beenden.');
    expect(f).not.toContain('--year');
    expect(f).not.toContain('last completed month');
    expect(await findEnglish(f)).toEqual([]);
  });
});

describe('a list taller than the screen', () => {
  it('says how many lines follow below, and at its end how many lie above', async () => {
    const app = mount(fakeData({ extraUnits: 30 }), { width: 80, height: 24 });
    await app.frame((s) => s.includes('Am Markt 3'));
    await press(app.stdin, KEY.enter);
    const top = await app.frame((s) => s.includes('Units ('), 'the long Property');
    const lines = top.split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(lines.at(-2)).toMatch(/^ {2}more ↓ \(\d+ lines below\)$/);
    for (let i = 0; i < 6; i++) await press(app.stdin, '\u001B[6~');
    const end = await app.frame((s) => s.includes('end; more ↑'), 'the end of the list');
    expect(end.split('\n').at(-2)).toMatch(/^ {2}end; more ↑ \(\d+ lines above\)$/);
    expect(end).toContain('Heizungskeller Hauptzähler');
  });

  it('a list that fits shows no such line', async () => {
    const app = mount(fakeData(), { width: 80, height: 24 });
    const f = await app.frame((s) => s.includes('Am Markt 3'));
    expect(f).not.toContain('more ↓');
  });
});
