// The refusal of an --out folder holding an export of other settings names each setting
// that differs (old → new) in words, and says when the folder is the default one.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { identity, parseExportArgs } from '../../src/export/options/options.js';
import { checkOutDir } from '../../src/export/folder/out-folder.js';
import { settingChanges } from '../../src/export/options/settings.js';
import { findEnglish } from '../helpers/catalogues.js';

afterEach(() => setLanguage('en'));

const args = (flags: Record<string, unknown>) => parseExportArgs({ year: '2025', ...flags }, '/work', {}, new Date('2026-11-22T00:00:00Z'));
const id = (flags: Record<string, unknown> = {}) => identity(args(flags));

describe('settingChanges', () => {
  it('names the comparison added to an earlier export (the issue: --compare 2024 added to a 2025 export)', () => {
    expect(settingChanges(id(), id({ compare: '2024' }))).toEqual(['plausibility review without comparison → compared with 2024']);
    expect(settingChanges(id({ plausibility: false }), id())).toEqual(['plausibility review none → without comparison']);
    setLanguage('de');
    expect(settingChanges(id(), id({ compare: '2024' }))).toEqual(['Plausibilitätsprüfung ohne Vergleich → Vergleich mit 2024']);
    expect(settingChanges(id({ plausibility: false }), id())).toEqual(['Plausibilitätsprüfung keine → ohne Vergleich']);
  });

  it('tells a folder of March to September compared with the whole of 2024 (before round 16) from one compared with the same months', () => {
    const range = { year: undefined, from: '2025-03-01', to: '2025-09-30', compare: '2024' };
    const now = id(range);
    const before = { ...now, review: { compare: { from: '2024-01-01', to: '2024-12-31' }, threshold: '25' } };
    expect(settingChanges(before, now)).toEqual(['plausibility review compared with 2024 → compared with 2024-03-01–2024-09-30']);
    setLanguage('de');
    expect(settingChanges(before, now)).toEqual(['Plausibilitätsprüfung Vergleich mit 2024 → Vergleich mit 01.03.2024–30.09.2024']);
  });

  it("names every setting that differs, period first, in the reader's words", () => {
    const before = id({ year: '2024', compare: '2023', threshold: '30' });
    const now = id({ template: 'de', format: 'csv', metric: 'heat,water_warm', compare: '2023', property: ['11111111-1111-4111-8111-111111111111'] });
    expect(settingChanges(before, now)).toEqual([
      'period 2024 → 2025',
      'Properties all → 1 chosen with --property',
      'metrics all → heat, warm water',
      'files csv, xlsx → csv',
      'layout (--template) generic → de',
      'threshold 30 % → 25 %',
    ]);
    setLanguage('de');
    expect(settingChanges(before, now)).toEqual([
      'Zeitraum 2024 → 2025',
      'Liegenschaften alle → 1 mit --property gewählt',
      'Verbrauchsarten alle → Wärme, Warmwasser',
      'Dateien csv, xlsx → csv',
      'Vorlage (--template) generic → de',
      'Schwelle 30 % → 25 %',
    ]);
  });

  it('a period that is not a calendar year, a comparison folder, the review alone, another profile', () => {
    setLanguage('de');
    const before = id({ year: undefined, from: '2025-01-01', to: '2025-06-30', plausibility: true });
    expect(settingChanges(before, id({ compare: '/data/alt', profile: 'sued' }))).toEqual([
      'Zeitraum 01.01.2025–30.06.2025 → 2025',
      'Profil default → sued',
      'Plausibilitätsprüfung ohne Vergleich → Vergleich mit dem Export in /data/alt',
    ]);
  });

  it('two lists of the same length are told apart by their values; a setting of another version by its key', () => {
    const a = id({ property: ['11111111-1111-4111-8111-111111111111'] });
    const b = { ...id({ property: ['22222222-2222-4222-8222-222222222222'] }), rounding: 'half-up' };
    expect(settingChanges(a, b)).toEqual([
      'Properties ["11111111-1111-4111-8111-111111111111"] → ["22222222-2222-4222-8222-222222222222"]',
      'setting "rounding" not set → "half-up"',
    ]);
  });

  it('a hostile manifest (long values, many settings) still gives one bounded line', () => {
    const before = { ...id(), template: 'x'.repeat(10_000), ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'y'.repeat(1000)])) };
    const changes = settingChanges(before, id());
    expect(changes).toHaveLength(6);
    expect(changes[0]).toBe(`layout (--template) ${'x'.repeat(59)}… → generic`);
    expect(changes[5]).toBe('96 more settings');
    expect(changes.join('; ').length).toBeLessThan(800);
  });

  it('says nothing it cannot know: an unreadable manifest, or the same settings', () => {
    expect(settingChanges(undefined, id())).toEqual([]);
    expect(settingChanges('x', id())).toEqual([]);
    expect(settingChanges(id(), id())).toEqual([]);
  });
});

describe('checkOutDir with an export of other settings', () => {
  const folderWith = async (identity: unknown) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-settings-'));
    await writeFile(path.join(dir, 'meterdata-manifest.json'), JSON.stringify({ identity }));
    return dir;
  };

  it('names the differing setting; without --out, says it is the default folder and how to choose another', async () => {
    const dir = await folderWith(id());
    const typed = await checkOutDir(dir, id({ compare: '2024' }), ['billing.csv']).catch((e: Error & { hint?: string }) => e);
    expect(typed).toMatchObject({ code: 'EXPORT_OUT_IN_USE', exitCode: 2 });
    expect((typed as Error).message).toBe(
      `--out ${dir} already holds an export made with other arguments: plausibility review without comparison → compared with 2024.`,
    );
    const byDefault = await checkOutDir(dir, id({ compare: '2024' }), ['billing.csv'], args({ compare: '2024' })).catch((e: Error & { hint?: string }) => e);
    expect((byDefault as Error).message).toBe(
      `The default folder ${dir} already holds an export made with other arguments: plausibility review without comparison → compared with 2024.`,
    );
    expect((byDefault as { hint?: string }).hint).toBe(
      'Without --out the export goes to this default folder: choose another one with --out FOLDER, or delete that folder first.',
    );
  });

  it('in German, with no English phrase', async () => {
    setLanguage('de');
    const dir = await folderWith(id({ year: '2024' }));
    const e = (await checkOutDir(dir, id({ compare: '2024', template: 'de' }), ['billing.csv'], { defaultOut: true }).catch((x: unknown) => x)) as Error & {
      hint?: string;
    };
    expect(e.message).toBe(
      `Der Standardordner ${dir} enthält bereits einen Export mit anderen Einstellungen: Zeitraum 2024 → 2025; Vorlage (--template) generic → de; Plausibilitätsprüfung ohne Vergleich → Vergleich mit 2024.`,
    );
    expect(e.hint).toBe(
      'Ohne --out schreibt meterdata in diesen Standardordner: Wählen Sie mit --out ORDNER einen anderen, oder löschen Sie diesen Ordner zuerst.',
    );
    expect(await findEnglish(`${e.message} ${e.hint}`)).toEqual([]);
  });

  it('parseExportArgs marks the default folder only when no --out was given', () => {
    expect(args({}).defaultOut).toBe(true);
    expect(args({ out: 'x' }).defaultOut).toBeUndefined();
  });
});

describe("--compare with the export's own period", () => {
  it('is refused in one line naming the flag and an earlier period, before anything else', () => {
    expect(() => args({ compare: '2025' })).toThrow("--compare 2025 is the export's own period: a comparison with itself shows no change.");
    const e = (() => {
      try {
        args({ compareFrom: '2025-01-01', compareTo: '2025-12-31' });
      } catch (x) {
        return x as Error & { hint?: string; exitCode?: number };
      }
    })();
    expect(e?.message).toBe("--compare-from 2025-01-01 --compare-to 2025-12-31 is the export's own period: a comparison with itself shows no change.");
    expect(e?.hint).toBe('Compare with an earlier period, e.g. --compare 2024.');
    expect(e?.exitCode).toBe(2);
    // Widened like the period: March to May is the same as the 1st of March to the 31st of May.
    expect(() => parseExportArgs({ from: '2025-03-10', to: '2025-05-20', compareFrom: '2025-03-01', compareTo: '2025-05-31' }, '/w', {})).toThrow(/own period/);
    expect(() => args({ compare: '2024' })).not.toThrow();
    setLanguage('de');
    expect(() => args({ compare: '2025' })).toThrow(
      '--compare 2025 ist der Zeitraum des Exports selbst: Ein Vergleich mit sich selbst zeigt keine Veränderung.',
    );
  });
});
