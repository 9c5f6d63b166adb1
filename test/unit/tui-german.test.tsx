// browse in German (issue 11): every text on the screens from the catalogues, the
// glossary's words, dates dd.mm.yyyy, decimal commas, German month names, and every
// frame still inside 80x24 although German words are longer.
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotSignedInError, ServiceUnavailableError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';
import { billUnit, flagText, type Flag } from '../../src/billing/index.js';
import { PROPERTY, aPointConsumption, aSegment, aUnitEntry } from '../helpers/builders.js';
import type { PlausibilityRow } from '../../src/plausibility/index.js';
import { changeText } from '../../src/tui/compare.js';
import { compactText, periodText, plain, qty, shortPeriodText } from '../../src/tui/format.js';
import { explainLines } from '../../src/tui/view.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';
import { deferred, fakeData, KEY, mount, press } from '../helpers/tui-fake.js';

afterEach(() => cleanup());
beforeAll(() => setLanguage('de'));
afterAll(() => setLanguage('en'));

/** Frames of an 80x24 terminal: no line wider than 80, at most 24 lines; `done` finds no English catalogue phrase in any. */
function frames() {
  const all: string[] = [];
  return {
    german(frame: string): string {
      const lines = frame.split('\n');
      expect(lines.length).toBeLessThanOrEqual(24);
      for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(80);
      all.push(frame);
      return frame;
    },
    async done() {
      expect(all.length).toBeGreaterThan(0);
      expect(await findEnglish(all.join('\n'))).toEqual([]);
    },
  };
}

describe('browse in German', () => {
  it('shows the Properties, a Property and the explanation of its flags at 80x24, in German only', async () => {
    const { german, done } = frames();
    const app = mount(fakeData(), { width: 80, height: 24 });
    const list = german(await app.frame((s) => s.includes('Am Markt 3'), 'the Properties'));
    expect(list).toMatch(/^meterdata browse · Liegenschaften +Zeitraum 2025$/m);
    expect(list).toMatch(/Liegenschaft +Anschrift +NE +Hinw\./);
    // On the list `c` counts and `i` has nothing to explain; on a Property it is the other way round.
    expect(list).toContain('↑↓jk ⏎ öffnen Esc zurück / Filter y Zeitraum e Export c zählen ? Hilfe q Ende');

    await press(app.stdin, KEY.enter);
    const property = german(await app.frame((s) => s.includes('Nutzeinheiten (2)'), 'the Property'));
    expect(property).toMatch(/Nutzeinheit +Art +Lage +Abgerechnet je Verbrauchsart \(Kürzel: \?\) +Hinw\./);
    expect(property).toMatch(/3\.2 +Woh 3 links +W 2\.110 {2}WW 0 +\d+!/);
    expect(property).toMatch(/EG links +Woh EG links +KW 10/);
    expect(property).toContain('Anlagen- und Hauptzähler, keiner Nutzeinheit zugeordnet (1)');
    expect(property).toMatch(/Kaltwasser · Heizungskeller Hauptzähler 500 m³/);
    expect(property).toContain('↑↓jk ⏎ öffnen Esc zurück / Filter y Zeitraum i warum e Export ? Hilfe q Ende');

    await press(app.stdin, 'i');
    const why = german(await app.frame((s) => s.includes('Warum dieser Hinweis'), 'the explanation'));
    // a title longer than the line wraps under itself, whole
    expect(why).toMatch(/\[!\] nicht abgerechnet: Eichfrist abgelaufen: Wert darf nicht abgerechnet\n {25}werden\n/);
    expect(why).toContain('weiter ↓');

    for (let i = 0; i < 10 && !app.lastFrame()!.includes('Ende ↑'); i++) {
      await press(app.stdin, ' ');
      german(app.lastFrame() ?? '');
    }
    expect(app.lastFrame()).toContain('Ende ↑ (k oder ↑ blättert zurück)');
    await done();
  });

  it('shows a unit and the whole help at 80x24, in German only', async () => {
    const { german, done } = frames();
    const app = mount(fakeData(), { width: 80, height: 24 });
    await app.frame((s) => s.includes('Am Markt 3'), 'the Properties');
    await press(app.stdin, KEY.enter);
    await app.frame((s) => s.includes('Nutzeinheiten (2)'), 'the Property');
    await press(app.stdin, KEY.enter);
    const unit = german(await app.frame((s) => s.includes('› 3.2') && s.includes('Monate:'), 'flat 3.2'));
    expect(unit).toContain('Monate: M gemessen  B berechnet  - fehlend  X Eichfrist abgelaufen');
    expect(unit).toContain('Abgerechnet 01.01.2025..31.12.2025: Wärme 2.110 kWh  WW 0 m³');

    await press(app.stdin, '?');
    const seen: string[] = [german(await app.frame((s) => s.includes('Tasten'), 'the help'))];
    // a page at a time (Space), to the end
    for (let i = 0; i < 10 && !seen.at(-1)!.includes('Ende ↑'); i++) {
      await press(app.stdin, ' ');
      seen.push(german(app.lastFrame() ?? ''));
    }
    const help = seen.join('\n');
    expect(help).toContain('Schließen mit Esc oder ?.');
    expect(help).toMatch(/B +berechnet/);
    expect(help).toMatch(/HKV +Einheiten der Heizkostenverteiler/);
    expect(help).toMatch(/Woh +Wohnen/);
    await done();
  });

  it('writes dates dd.mm.yyyy, numbers with a decimal comma, the months and the enum values in German', async () => {
    const app = mount(fakeData(), { width: 96, height: 60 });
    await app.frame((s) => s.includes('Am Markt 3'));
    await press(app.stdin, KEY.enter);
    await app.frame((s) => s.includes('Nutzeinheiten (2)'));
    await press(app.stdin, KEY.enter);
    const f = await app.frame((s) => s.includes('HZ-NEW-4711'), 'flat 3.2');
    expect(f).toContain('Wohnen · 3 links · Lindenstraße 12, 10115 Berlin');
    expect(f).toContain('── Wärme (kWh) · 1 Messstelle ──');
    expect(f).toContain('Messstelle 00000000 · abgerechnet 2.110 kWh · Anteil 1 · Anlage zugeordnet · Bad, Heizkörper');
    expect(f).toContain('Zähler HZ-OLD-0815 · eingebaut 01.05.2016 · K-Faktor 1 · Qundis');
    expect(f).toContain('ausgebaut 30.06.2025 · Gerätetausch');
    expect(f).toContain('Anfangsstand 1.000 am 31.12.2024 (letztes Monatsende vor dem Zeitraum)');
    expect(f).toContain('Endstand 2.210 · abrechenbar 1.210 · M gemessen');
    expect(f).toMatch(/Jan\s+Feb\s+Mär\s+Apr\s+Mai\s+Jun\s+Jul\s+Aug\s+Sep\s+Okt\s+Nov\s+Dez/);
    expect(f).toMatch(/ M {4}M {4}B {4}M/);
    expect(f).toContain('Endstand 62 · abrechenbar 0 · X Eichfrist abgelaufen');
    expect(f).toMatch(/\[i\] Gerätetausch im Zeitraum \(HZ-OLD-0815\) {2}\(i: erklären\)/);
    // a unit's footer names m (the monthly information) too: whole from 106 columns, the short one here
    expect(f).toMatch(/^↑↓jk ⏎ Esc zurück \/ Filter y Zeitraum i warum e Export m Monat \? Hilfe q Ende$/m);
    expect(await findEnglish(f)).toEqual([]);
  });

  it('says prompts, messages, counts and the range in German', async () => {
    const app = mount(fakeData(), { width: 100, height: 30 });
    await app.frame((s) => s.includes('Am Markt 3'));
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('Export ist hier in dieser Version nicht möglich; bitte ausführen: meterdata export --year 2025'));
    app.stdin.write('/leip');
    await app.frame((s) => s.includes('Filter: leip█  (Enter behalten · Esc löschen)'));
    await press(app.stdin, KEY.enter);
    await app.frame((s) => s.includes('Gefiltert nach „leip“: 1 Treffer (Esc hebt auf)'));
    app.stdin.write('y');
    await app.frame((s) => s.includes('Zeitraum: █  (z. B. 2024, 2025-01-01..2025-06-30, 2025 vs 2024; Esc bricht ab)'));
    app.stdin.write('2024-03-01..2024-05-31\r');
    const set = await app.frame((s) => s.includes('Zeitraum jetzt 01.03.2024..31.05.2024'), 'the new range');
    expect(set).toMatch(/Zeitraum 03\.2024\.\.05\.2024$/m);
    expect(set).toContain('Gefiltert nach „leip“');
    await press(app.stdin, KEY.esc, 'c');
    await app.frame((s) => s.includes('Hinweise gezählt für 2 von 2 Liegenschaften.'), 'the count');
    expect(await findEnglish(app.lastFrame() ?? '')).toEqual([]);
  });

  it('shows loading and error screens in German', async () => {
    const held = deferred<never>();
    const app = mount(fakeData({ properties: () => held.promise }), { width: 80, height: 24 });
    const { german, done } = frames();
    german(await app.frame((s) => s.includes('Liegenschaften wird geladen…'), 'loading'));
    // In a German run the message comes from the sign-in's catalogue, in German.
    held.reject(new NotSignedInError('Das Profil „default“ ist nicht angemeldet.'));
    const f = german(await app.frame((s) => s.includes('Nicht angemeldet'), 'the signed-out screen'));
    expect(f).toContain('Beenden (q) und meterdata login ausführen.');
    expect(f).toContain('q: beenden.');
    cleanup();
    const b = mount(fakeData({ properties: () => Promise.reject(new ServiceUnavailableError('503', { hint: 'Später erneut versuchen.' })) }), {
      width: 80,
      height: 24,
    });
    const u = german(await b.frame((s) => s.includes('Dienst nicht erreichbar'), 'the unavailable screen'));
    expect(u).toContain('r: erneut versuchen, q: beenden.');
    await done();
  });

  it('writes ranges, chart values and shares as a German reader does', () => {
    const r = { from: '2025-01-01', to: '2025-12-31', compare: { from: '2024-03-01', to: '2024-05-31' } };
    expect(periodText(r)).toBe('2025 ggü. 01.03.2024..31.05.2024');
    expect(shortPeriodText(r)).toBe('2025 ggü. 03.2024..05.2024');
    expect(shortPeriodText({ from: '2025-03-02', to: '2025-05-31' })).toBe('02.03.2025..31.05.2025');
    expect([compactText(1234), compactText(12345), compactText(0.5), compactText(412)]).toEqual(['1,2T', '12T', '0,5', '412']);
    expect([qty('12345.678'), plain(0.25), plain(null)]).toEqual(['12.345,68', '0,25', 'null']);
    setLanguage('en');
    try {
      expect([periodText(r), shortPeriodText(r), compactText(1234), qty('12345.678'), plain(0.25)]).toEqual([
        '2025 vs 2024-03-01..2024-05-31',
        '2025 vs 2024-03..2024-05',
        '1.2k',
        '12345.68',
        '0.25',
      ]);
    } finally {
      setLanguage('de');
    }
  });

  it('explains an expired calibration with § 9a HeizkostenV for a heat meter and without it for a cold-water meter, each under its own places', () => {
    const bill = billUnit({
      property: PROPERTY,
      ...aUnitEntry(
        'WE 1',
        ['heat', 'water_cold'].map((metric) => aPointConsumption({ metric, segments: [aSegment({ period_consumption: { status: 'calibration_expired' } })] })),
      ),
    });
    const expired = bill.flags.filter((f) => f.code === 'CALIBRATION_EXPIRED');
    const where = (f: Flag) => (bill.segments.find((s) => s.device_id === f.device_id)!.metric === 'heat' ? 'WE 1 · Wärme' : 'WE 1 · Kaltwasser');
    const text = (lines: { text: string }[][]) =>
      lines
        .map((l) => l.map((x) => x.text).join(''))
        .join('\n')
        .replace(/\s+/g, ' ');
    for (const lang of ['de', 'en'] as const) {
      setLanguage(lang);
      try {
        const [heat = '', cold = ''] = text(explainLines(expired, flagText, 80, where))
          .split(/\[!\]/)
          .slice(1);
        expect(heat, lang).toMatch(/§ 9a (Abs\. 1|\(1\)) HeizkostenV.*• WE 1 · Wärme/);
        expect(cold, lang).not.toMatch(/HeizkostenV/);
        expect(cold, lang).toContain('• WE 1 · Kaltwasser');
        expect(heat + cold, lang).not.toContain('point_metric');
      } finally {
        setLanguage('de');
      }
    }
  });

  it('names the facts of a flag and the change against a comparison as review.csv does in German', () => {
    const flag: Flag = {
      code: 'ASSUMED_ZERO_BASELINE',
      severity: 'review',
      property_id: 'p',
      usage_unit_id: 'u',
      measuring_point_id: 'm',
      device_id: 'd',
      facts: { serial: 'A-1', baseline_date: '2025-03-31', baseline_value: '12.5' },
    };
    const text = (lines: { text: string }[][]) => lines.map((l) => l.map((x) => x.text).join('')).join('\n');
    const de = text(explainLines([flag], flagText, 80, () => 'WE 1 · Zähler A-1'));
    expect(de).toContain('Anfangsstand mit 0 angenommen');
    expect(de).toContain('• WE 1 · Zähler A-1 · Stichtag: 31.03.2025 · Anfangsstand: 12,5');
    const row = { comparison_status: 'billed', change_percent: '-3.1', comparison_value: '10' } as PlausibilityRow;
    expect([changeText(row), changeText({ ...row, change_percent: '43.7' }), changeText({ ...row, comparison_status: 'absent' })]).toEqual([
      '-3,1 %',
      '+43,7 %',
      'damals keine Daten',
    ]);
    setLanguage('en');
    try {
      // English keeps the facts' own names, as it always showed them
      expect(text(explainLines([flag], flagText, 80, () => 'WE 1 · device A-1'))).toContain(
        '• WE 1 · device A-1 · baseline_date: 2025-03-31 · baseline_value: 12.5',
      );
      expect(changeText(row)).toBe('-3.1 %');
    } finally {
      setLanguage('de');
    }
  });

  it('refuses to run without a terminal in German', async () => {
    const r = await runCli(['browse', '--year', '2024'], { tty: false, env: { LANG: 'de_DE.UTF-8' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`meterdata browse` ist interaktiv und braucht ein Terminal');
    expect(r.stderr).toContain('Für Dateien oder Skripte: meterdata export --year 2024');
    expect(await findEnglish(r.stderr)).toEqual([]);
    setLanguage('de');
  });
});
