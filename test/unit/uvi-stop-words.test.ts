// An interrupted or failed `meterdata uvi` speaks of the monthly information, not of an export: the
// line after Ctrl-C or SIGTERM, its hint to continue (`meterdata uvi` run again), the note of a resumed
// run and the refusal of a second run with the same arguments, in English and German. The export's
// words stay the export's. The run is told by its template (`uvi-…`, src/export/run-words.ts).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError, MeterdataError, ServiceUnavailableError } from '../../src/core/errors.js';
import { Journal } from '../../src/export/journal/index.js';
import { incomplete, periodChanged, unfinished } from '../../src/export/run-errors.js';
import { stopWords } from '../../src/export/run-words.js';
import { setLanguage } from '../../src/i18n/index.js';

const NAMES = ['Musterstraße 1-5', 'Lindenhof', 'Lessingstraße 7'];
const OUT = '/srv/uvi/2025-11';
const aborted = () => {
  const c = new AbortController();
  c.abort(new InterruptedError());
  return c.signal;
};
const stopped = (template: string, signal?: AbortSignal, cause: unknown = new InterruptedError()) =>
  incomplete(cause, 1, NAMES, OUT, signal, template) as MeterdataError;

afterEach(() => setLanguage('en'));

describe('Ctrl-C or SIGTERM during a monthly run', () => {
  it('English: the monthly information run stopped, continued by running `meterdata uvi` again', () => {
    for (const template of ['uvi-generic', 'uvi-de']) {
      const e = stopped(template, aborted());
      expect([e.code, e.exitCode]).toEqual(['EXPORT_INTERRUPTED', 130]);
      expect(e.message).toBe(
        `Interrupted. The monthly information run stopped after 1 of 3 Properties (not finished: "Lindenhof", "Lessingstraße 7"); no files were put under their final names in ${OUT}.`,
      );
      expect(e.hint).toBe('Run the same `meterdata uvi` command again to continue: what was fetched is kept.');
    }
  });

  it('German: die Erstellung der Verbrauchsinformation endete, fortgesetzt mit `meterdata uvi`', () => {
    setLanguage('de');
    const e = stopped('uvi-de', aborted());
    expect(e.message).toBe(
      'Abgebrochen. Die Erstellung der Verbrauchsinformation endete nach 1 von 3 Liegenschaften (nicht fertig: „Lindenhof“, „Lessingstraße 7“); in /srv/uvi/2025-11 wurde keine Datei unter ihrem endgültigen Namen abgelegt.',
    );
    expect(e.message).not.toMatch(/Export/);
    expect(e.hint).toBe('Führen Sie denselben Befehl `meterdata uvi` erneut aus, um fortzusetzen: Bereits Abgerufenes bleibt erhalten.');
  });

  it('a failure of the service during the walk, and an interruption while the files are written, name the uvi too', () => {
    const down = stopped('uvi-generic', undefined, new ServiceUnavailableError('The metering service is unavailable.'));
    expect([down.exitCode, down.message]).toEqual([5, expect.stringContaining('The monthly information run stopped after 1 of 3 Properties')]);
    expect(down.hint).toContain('Run the same `meterdata uvi` command again to continue');
    const writing = unfinished(new InterruptedError(), OUT, aborted(), 'uvi-generic') as MeterdataError;
    expect([writing.exitCode, writing.hint]).toEqual([130, 'Run the same `meterdata uvi` command again: it continues from what was fetched.']);
  });

  it("an export's words stay the export's", () => {
    const e = stopped('generic', aborted());
    expect(e.message).toContain('Interrupted. The export stopped after 1 of 3 Properties');
    expect(e.hint).toBe('Run the same command again to continue: what was fetched is kept.');
    expect(stopWords('de').resuming({ started: '2025-12-01T00:00:00Z' })).toMatch(/^resuming the export started at/);
  });
});

describe('a resumed monthly run, and a second one with the same arguments', () => {
  it('the note of a resumed run names the monthly information in both languages', () => {
    const started = '2025-12-01T00:00:00Z';
    expect(stopWords('uvi-generic').resuming({ started })).toBe(
      'resuming the monthly information run started at 2025-12-01T00:00:00Z: Properties fetched then are not fetched again.',
    );
    setLanguage('de');
    expect(stopWords('uvi-de').resuming({ started })).toBe(
      'Die am 01.12.2025, 00:00:00 UTC begonnene Erstellung der Verbrauchsinformation wird fortgesetzt: Bereits abgerufene Liegenschaften werden nicht erneut abgerufen.',
    );
  });

  it('a second uvi with the same arguments is refused naming `meterdata uvi`', async () => {
    const state = mkdtempSync(path.join(os.tmpdir(), 'md-uvi-stop-'));
    const out = path.join(state, 'out', '2025-11');
    const id = { profile: 'default', template: 'uvi-generic', out };
    const who = { tenant_id: 't', tenant_name: 'T', client_id: 'c', granted_scopes: [], property_scope: 'all' as const };
    const first = await Journal.open(state, id, who, new Date('2026-11-23T10:00:00Z'), out);
    await expect(Journal.open(state, id, who, new Date('2026-11-23T10:00:01Z'), out)).rejects.toMatchObject({
      code: 'EXPORT_ALREADY_RUNNING',
      message: 'Another `meterdata uvi` with the same arguments is running.',
    });
    await first.close();
  });
});

describe('units answered for two periods in one run', () => {
  const first = { from: '2024-11-01', to: '2025-11-30' };
  const now = { from: '2024-12-01', to: '2025-12-31' };
  it('a monthly run speaks of its letters and of `meterdata uvi`; the export keeps its words', () => {
    const e = periodChanged(first, now, 'Lindenhof', 'WE 02', 'uvi-generic');
    expect([e.code, e.exitCode]).toEqual(['EXPORT_PERIOD_CHANGED', 5]);
    expect(e.message).toBe(
      'The service answered for 2024-12-01 to 2025-12-31 for unit "WE 02" of "Lindenhof", but for 2024-11-01 to 2025-11-30 earlier in this run (it answers units for different periods): one month\'s letters must not rest on two periods.',
    );
    expect(e.hint).toMatch(/^Run the same `meterdata uvi` command again: it starts over/);
    expect(periodChanged(first, now, 'Lindenhof', 'WE 02', 'generic').message).toMatch(/earlier in this export .*one export must not mix two periods\.$/);
    setLanguage('de');
    const de = periodChanged(first, now, 'Lindenhof', 'WE 02', 'uvi-de');
    expect(de.message).toMatch(
      /zuvor in diesem Lauf aber 01\.11\.2024 bis 30\.11\.2025 .*Die Schreiben eines Monats dürfen nicht auf zwei Zeiträumen beruhen\.$/,
    );
    expect(de.message).not.toMatch(/Export/);
  });
});

// Round 26: a disk full after every Property was fetched said "stopped after 3 of 3 Properties (not finished: )".
describe('a failure after every Property was fetched', () => {
  it.each(['generic', 'uvi-generic'])('%s: says every Property was fetched, with no empty list of unfinished ones', (template) => {
    const cause = new MeterdataError('A file could not be written: the disk is full.', { code: 'EXPORT_WRITE_FAILED', exitCode: 1 });
    const e = incomplete(cause, NAMES.length, NAMES, OUT, undefined, template) as MeterdataError;
    expect(e.message).toBe(
      `A file could not be written: the disk is full. Every Property was fetched, but the files could not be finished; no files were put under their final names in ${OUT}.`,
    );
    expect(e.message).not.toMatch(/not finished: \)/);
    setLanguage('de');
    const de = incomplete(cause, NAMES.length, NAMES, OUT, undefined, template) as MeterdataError;
    expect(de.message).toContain('Alle Liegenschaften wurden abgerufen, aber die Dateien konnten nicht fertiggestellt werden;');
    expect(de.message).not.toMatch(/nicht fertig: \)/);
  });
});
