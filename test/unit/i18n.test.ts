import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { count, day, languageFromArgv, languageFromEnv, num, systemLocale } from '../../src/i18n/index.js';
import { loadCatalogues, misplacedCatalogues, render } from '../helpers/catalogues.js';

describe('the language of a run', () => {
  it.each([
    [{ LANG: 'de_DE.UTF-8' }, 'de'],
    [{ LANG: 'de' }, 'de'],
    [{ LANG: 'de_AT.UTF-8' }, 'de'],
    [{ LANG: 'C.UTF-8' }, 'en'],
    [{ LANG: 'en_US.UTF-8' }, 'en'],
    [{}, 'en'],
    [{ LANG: 'de_DE.UTF-8', LC_MESSAGES: 'C' }, 'en'],
    [{ LANG: 'en_GB.UTF-8', LC_MESSAGES: 'de_DE.UTF-8' }, 'de'],
    [{ LANG: 'de_DE.UTF-8', LC_MESSAGES: 'de_DE.UTF-8', LC_ALL: 'POSIX' }, 'en'],
    [{ LC_ALL: 'de_CH.UTF-8', LANG: 'en_US.UTF-8' }, 'de'],
    [{ LC_ALL: '', LANG: 'de_DE' }, 'de'],
    [{ LANG: 'dex' }, 'en'],
  ] as const)('%j → %s', (env, lang) => {
    expect(languageFromEnv(env as NodeJS.ProcessEnv, () => 'en-US')).toBe(lang);
  });

  it.each([
    [{}, 'de-DE', 'de'],
    [{}, 'de-AT', 'de'],
    [{}, 'en-US', 'en'],
    [{}, 'fr-FR', 'en'],
    [{ LANG: '', LC_ALL: ' ' }, 'de-DE', 'de'],
    [{ LANG: 'en_US.UTF-8' }, 'de-DE', 'en'],
    [{ LANG: 'C' }, 'de-DE', 'en'],
    [{ LC_MESSAGES: 'POSIX' }, 'de-DE', 'en'],
  ] as const)('without a variable the system locale decides (Windows): %j, system %s → %s', (env, system, lang) => {
    expect(languageFromEnv(env as NodeJS.ProcessEnv, () => system)).toBe(lang);
  });

  it("reads the system locale from Node's ICU", () => {
    expect(systemLocale()).toBe(Intl.DateTimeFormat().resolvedOptions().locale);
  });

  // A start without LANG (Windows, cron) read it through DateTimeFormat: 12 ms of CPU for ICU's calendars.
  it('reads it without building a date format', () => {
    const dateFormat = vi.spyOn(Intl, 'DateTimeFormat');
    systemLocale();
    expect(dateFormat).not.toHaveBeenCalled();
    dateFormat.mockRestore();
  });

  it.each(['de_DE.UTF-8', 'de_AT.UTF-8', 'de_CH', 'de', 'C', 'en_GB.UTF-8', 'gsw_CH', 'nds_DE', ''])(
    'resolves the locale DateTimeFormat resolves, with LANG=%j',
    (lang) => {
      const both = 'console.log(new Intl.PluralRules().resolvedOptions().locale, Intl.DateTimeFormat().resolvedOptions().locale)';
      const r = spawnSync(process.execPath, ['-e', both], { encoding: 'utf8', env: { LANG: lang } });
      const [plural, date] = r.stdout.trim().split(' ');
      expect(plural).toBe(date);
    },
  );

  it('reads --lang from argv, the last one winning, never after --', () => {
    expect(languageFromArgv(['export', '--lang', 'de'])).toBe('de');
    expect(languageFromArgv(['export', '--lang=en', '--year', '2025'])).toBe('en');
    expect(languageFromArgv(['--lang', 'de', 'export', '--lang', 'en'])).toBe('en');
    expect(languageFromArgv(['export', '--', '--lang', 'de'])).toBeUndefined();
    expect(languageFromArgv(['export'])).toBeUndefined();
  });

  it('writes numbers, dates and counts as the reader does', () => {
    expect(num(1234.5, 'de')).toBe('1.234,5');
    expect(num(1234.5, 'en')).toBe('1234.5');
    expect(day('2025-03-31', 'de')).toBe('31.03.2025');
    expect(day('2025-03-31', 'en')).toBe('2025-03-31');
    expect(day('not a date', 'de')).toBe('not a date');
    expect(count(1, 'Nutzeinheit', 'Nutzeinheiten', 'de')).toBe('1 Nutzeinheit');
    expect(count(1200, 'Nutzeinheit', 'Nutzeinheiten', 'de')).toBe('1.200 Nutzeinheiten');
  });
});

describe('every catalogue', async () => {
  const all = await loadCatalogues();

  it('lives in a texts*.ts file (so the tests find it)', () => {
    expect(misplacedCatalogues()).toEqual([]);
  });

  it('has the same keys in both languages', () => {
    for (const c of all) expect(Object.keys(c.de).sort(), c.name).toEqual(Object.keys(c.en).sort());
  });

  it('renders every text in both languages', () => {
    const bad: string[] = [];
    for (const c of all) {
      for (const key of Object.keys(c.en)) {
        for (const lang of ['en', 'de'] as const) {
          for (const value of [1, 2, 'x']) {
            let text: string;
            try {
              text = render(c[lang][key], value);
            } catch (e) {
              bad.push(`${c.name}.${key} (${lang}): throws ${String(e)}`);
              continue;
            }
            if (!text.trim() || /undefined|NaN|\[object /.test(text)) bad.push(`${c.name}.${key} (${lang}): ${JSON.stringify(text)}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('has a German text that is not the English one, wherever the English is a phrase', () => {
    const same: string[] = [];
    for (const c of all) {
      for (const key of Object.keys(c.en)) {
        const en = render(c.en[key]);
        if (en === render(c.de[key]) && /[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}/.test(en)) same.push(`${c.name}.${key}: ${en}`);
      }
    }
    expect(same).toEqual([]);
  });
});
