// One reader of dates (src/core/dates.ts, issue 14): the same typed value gets the same
// verdict and the same words from export's flags, browse's flags, the browser's `y` prompt
// and the sandbox's --clock, in English and in German.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClock, wholeMonths } from '../../src/core/dates.js';
import { setLanguage } from '../../src/i18n/index.js';
import { parseClockDate } from '../../src/sandbox/clock.js';
import { parseRangeInput } from '../../src/tui/range.js';
import { runCli } from '../helpers/run-cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'md-dates-'));

/** The flag's refusal as the command prints it (first line), or 'accepted' when the command went past its flags. */
async function flagVerdict(command: 'export' | 'browse', flags: string[], lang: 'en' | 'de'): Promise<string> {
  const r = await runCli([command, ...flags, '--lang', lang], { env: { METERDATA_HOME: home }, cwd: home });
  const first = r.stderr.split('\n')[0]!;
  return /^meterdata: --(year|from|to)\b/.test(first) ? first.replace(/^meterdata: /, '') : 'accepted';
}

function promptVerdict(text: string): string {
  const r = parseRangeInput(text);
  return r.ok ? 'accepted' : r.message;
}

function clockVerdict(value: string): string {
  try {
    parseClockDate(value);
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the same date, the same verdict everywhere', () => {
  for (const lang of ['en', 'de'] as const) {
    it.each(['2025-13-01', '2025-02-29', '2024-02-29', '25-01-01', '2025-1-1', '1899-12-31', '1900-01-01', '2999-12-31', '3000-01-01', '1999-06-30'])(
      `${lang}: %s`,
      async (date) => {
        const exp = await flagVerdict('export', ['--from', date, '--to', date], lang);
        const browse = await flagVerdict('browse', ['--from', date, '--to', date], lang);
        setLanguage(lang);
        try {
          const prompt = promptVerdict(`${date}..${date}`);
          const clock = clockVerdict(date);
          expect(browse).toBe(exp);
          // The prompt says it without a flag; --clock names itself.
          expect(prompt).toBe(exp === 'accepted' ? 'accepted' : exp.replace(/^--from: /, ''));
          expect(clock).toBe(exp === 'accepted' ? 'accepted' : exp.replace(/^--from\b/, '--clock'));
        } finally {
          setLanguage('en');
        }
      },
    );

    it.each(['25', '1899', '1900', '1999', '2999', '3000', '20250', 'abcd'])(`${lang}: --year %s`, async (year) => {
      const exp = await flagVerdict('export', ['--year', year], lang);
      const browse = await flagVerdict('browse', ['--year', year], lang);
      setLanguage(lang);
      try {
        expect(browse).toBe(exp);
        expect(promptVerdict(year)).toBe(exp === 'accepted' ? 'accepted' : exp.replace(/^--year: /, '').replace('--year 2025', '2025'));
      } finally {
        setLanguage('en');
      }
    });
  }

  it('refuses a range that ends before it starts alike', async () => {
    const flags = ['--from', '2025-05-01', '--to', '2025-04-01'];
    expect(await flagVerdict('export', flags, 'en')).toBe('--to 2025-04-01 lies before --from 2025-05-01.');
    expect(await flagVerdict('browse', flags, 'en')).toBe('--to 2025-04-01 lies before --from 2025-05-01.');
    setLanguage('en');
    expect(promptVerdict('2025-05-01..2025-04-01')).toBe('the end 2025-04-01 lies before the start 2025-05-01.');
    expect(await flagVerdict('browse', flags, 'de')).toBe('--to 2025-04-01 liegt vor --from 2025-05-01.');
  });

  it('widens a pair to whole months and reads --clock as a date or a full timestamp', () => {
    setLanguage('en'); // a German run above left its language set
    expect(wholeMonths('2024-02-10', '2024-02-11', ['--from', '--to'])).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(parseClock('2026-11-22').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(parseClock('2026-11-22T10:30:00+01:00').toISOString()).toBe('2026-11-22T09:30:00.000Z');
    expect(() => parseClock('Nov 22 2026')).toThrow('--clock: "Nov 22 2026" is not a date; use yyyy-mm-dd, e.g. 2025-01-01.');
    expect(() => parseClock('2026-11-22T10:30')).toThrow('--clock: "2026-11-22T10:30" is neither a date (yyyy-mm-dd) nor an ISO 8601 timestamp.');
    expect(() => parseClock('2026-11-22T25:00:00Z')).toThrow(/--clock/);
  });
});
