// The command line in German (issue 11): every command's --help, commander's own words
// (headings, choices, defaults, help and version) and each of commander's errors, chosen
// by --lang de or by the locale; --lang en stays as it was.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { commanderUsageError } from '../../src/cli-help.js';
import { formatError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';

const COMMANDS = ['login', 'logout', 'status', 'token', 'export', 'browse', 'sandbox', 'demo'];
const GERMAN = { LANG: 'de_DE.UTF-8' };
/** What commander itself would print in English. */
const COMMANDER_ENGLISH =
  /Usage:|Options:|Commands:|Arguments:|display help|output the version|\(default:|choices:|Exit codes|\[options\]|\[command\]|unknown|Did you mean|too many|argument missing|is invalid|cannot be used/;

describe('the language without LANG (Windows sets none of LC_ALL, LC_MESSAGES, LANG)', () => {
  it('a German system locale gives German; LANG, where set, still decides', async () => {
    const windowsGerman = await runCli(['export', '--help'], { env: {}, locale: 'de-DE' });
    expect(windowsGerman.stdout).toMatch(/^Aufruf: meterdata export/);
    expect(await findEnglish(windowsGerman.stdout)).toEqual([]);
    expect((await runCli(['export', '--help'], { env: {}, locale: 'en-US' })).stdout).toMatch(/^Usage: meterdata export/);
    expect((await runCli(['export', '--help'], { env: { LANG: 'en_US.UTF-8' }, locale: 'de-DE' })).stdout).toMatch(/^Usage: meterdata export/);
    expect((await runCli(['export', '--help', '--lang', 'en'], { env: {}, locale: 'de-DE' })).stdout).toMatch(/^Usage: meterdata export/);
  });
});

describe('--help in German', () => {
  it.each([[[]], ...COMMANDS.map((c) => [[c]])])('`meterdata %j --help`, by --lang de and by LANG=de_DE.UTF-8: German, no English phrase', async (cmd) => {
    const byFlag = await runCli([...cmd, '--help', '--lang', 'de']);
    const byLocale = await runCli([...cmd, '--help'], { env: GERMAN });
    expect(byFlag.code).toBe(0);
    expect(byLocale).toEqual(byFlag);
    const text = byFlag.stdout;
    expect(text).toMatch(/^Aufruf: meterdata/);
    expect(text).toContain('Optionen:');
    expect(text).toContain('Exit-Codes:');
    expect(text).toMatch(/Hilfe zum Befehl anzeigen/);
    expect(text).not.toMatch(COMMANDER_ENGLISH);
    expect(await findEnglish(text)).toEqual([]);
  });

  it('says choices and defaults in German and translates the top level list of commands', async () => {
    const top = (await runCli(['--help', '--lang', 'de'])).stdout;
    expect(top).toContain('Aufruf: meterdata [Optionen] [Befehl]');
    expect(top).toContain('Befehle:');
    expect(top).toMatch(/export \[Optionen\]\s+Abrechnungsblätter/);
    expect(top).toMatch(/help \[Befehl\]\s+Hilfe zum Befehl anzeigen/);
    expect(top).toMatch(/-V, --version\s+Versionsnummer ausgeben/);
    const login = (await runCli(['login', '--help', '--lang', 'de'])).stdout.replace(/\s+/g, ' ');
    expect(login).toContain('(Auswahl: "none", "client_secret_basic", "private_key_jwt")');
    const exp = (await runCli(['export', '--help', '--lang', 'de'])).stdout.replace(/\s+/g, ' ');
    expect(exp).toContain('csv, xlsx oder beides (Vorgabe: "csv,xlsx")');
    expect(exp).toContain('130 abgebrochen (Strg+C, SIGTERM oder SIGHUP)');
    const sandbox = (await runCli(['sandbox', '--help', '--lang', 'de'])).stdout;
    expect(sandbox).toMatch(/\n {2}0 {2}mit Strg\+C, SIGTERM oder SIGHUP beendet/);
  });

  it.each(COMMANDS)('`%s --help --lang en` is the English help, as without a locale', async (cmd) => {
    const en = await runCli([cmd, '--help', '--lang', 'en'], { env: GERMAN });
    expect(en).toEqual(await runCli([cmd, '--help']));
    expect(en.stdout).toMatch(new RegExp(`^Usage: meterdata ${cmd} \\[options\\]\\n`));
    expect(en.stdout).toMatch(/\n {2}-h, --help +display help for command\n/);
    expect(en.stdout).toContain('\nExit codes:\n  0  ');
  });

  // The help as the English-only tool printed it (captured from the build before issue 11; the
  // command list since has `completion`, issue 23, and `uvi`, issue 24; --compare names the same months, round 16):
  // the same bytes with --lang en, also where the locale is German.
  it.each([
    [[], 'help-en-meterdata.txt'],
    [['export'], 'help-en-export.txt'],
  ])('`meterdata %j --help --lang en` is byte for byte the help before issue 11', async (cmd, file) => {
    const before = readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');
    expect((await runCli([...cmd, '--help', '--lang', 'en'], { env: GERMAN })).stdout).toBe(before);
  });

  it('--lang fr is a usage error naming the choices, in the locale language', async () => {
    const en = await runCli(['export', '--lang', 'fr']);
    expect(en.code).toBe(2);
    expect(en.stderr).toBe("meterdata: option '--lang <lang>' argument 'fr' is invalid. Allowed choices are en, de.\n  See: meterdata --help\n");
    const de = await runCli(['export', '--lang', 'fr'], { env: GERMAN });
    expect(de.code).toBe(2);
    expect(de.stderr).toBe('meterdata: --lang <lang>: „fr“ ist nicht möglich; erlaubt sind en, de.\n  Hilfe: meterdata --help\n');
  });
});

describe("commander's errors in German", () => {
  it.each([
    [['exprot'], 'meterdata: Unbekannter Befehl „exprot“ (meinten Sie export?).', 'meterdata --help'],
    [['export', '--yaer', '2025'], 'meterdata: Unbekannte Option --yaer (meinten Sie --year?).', 'meterdata export --help'],
    [['--bogus'], 'meterdata: Unbekannte Option --bogus.', 'meterdata --help'],
    [['export', '--year'], 'meterdata: --year <yyyy>: Der Wert fehlt.', 'meterdata export --help'],
    [['token', 'extra'], 'meterdata: Zu viele Argumente für „token“: erwartet 0, angegeben 1 (extra).', 'meterdata token --help'],
    [
      ['login', '--client-auth', 'x'],
      'meterdata: --client-auth <method>: „x“ ist nicht möglich; erlaubt sind none, client_secret_basic, private_key_jwt.',
      'meterdata login --help',
    ],
  ])('%j: one German line and a hint to --help, exit 2', async (argv, line, help) => {
    const r = await runCli(argv, { env: GERMAN });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n  Hilfe: ${help}\n`);
    expect(r.stdout).toBe('');
    expect(await findEnglish(r.stderr)).toEqual([]);
  });

  it('conflicting flags: one German sentence naming both', async () => {
    const r = await runCli(['export', '--year', '2025', '--from', '2025-01-01', '--to', '2025-12-31'], { env: GERMAN });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('meterdata: --year und --from/--to schließen sich aus.\n  Entweder --year 2025 oder --from 2025-01-01 --to 2025-12-31 angeben.\n');
    const c = await runCli(['export', '--year', '2025', '--compare', '2024', '--compare-to', '2024-12-31'], { env: GERMAN });
    expect(c.stderr.split('\n')[0]).toBe('meterdata: --compare und --compare-from/--compare-to schließen sich aus.');
  });

  // Errors no meterdata command can trigger today (no mandatory option, no argument), made
  // by commander itself on a throw-away program, so a commander update that rewords them fails here.
  function commanderError(build: (p: Command) => void, argv: string[]): CommanderError {
    const p = new Command('x')
      .exitOverride()
      .configureOutput({ writeErr: () => undefined, writeOut: () => undefined })
      .showSuggestionAfterError(true);
    build(p);
    try {
      p.parse(argv, { from: 'user' });
    } catch (e) {
      if (e instanceof CommanderError) return e;
      throw e;
    }
    throw new Error('commander accepted it');
  }

  it.each([
    [
      (p: Command) => p.requiredOption('--need <v>'),
      [],
      'meterdata: Die Option --need <v> ist Pflicht.',
      "meterdata: required option '--need <v>' not specified.",
    ],
    [(p: Command) => p.argument('<file>'), [], 'meterdata: Das Argument file fehlt.', "meterdata: missing required argument 'file'."],
    [
      (p: Command) => p.addOption(new Option('--a').conflicts('b')).option('--b'),
      ['--a', '--b'],
      'meterdata: --a und --b schließen sich aus.',
      "meterdata: option '--a' cannot be used with option '--b'.",
    ],
    [
      (p: Command) => p.option('--abcd').option('--abce'),
      ['--abcf'],
      'meterdata: Unbekannte Option --abcf (meinten Sie eine von --abcd, --abce?).',
      "meterdata: unknown option '--abcf' (did you mean one of --abcd, --abce?).",
    ],
  ] as const)('%#: commander error in both languages', async (build, argv, de, en) => {
    const e = commanderError(build, [...argv]);
    try {
      setLanguage('de');
      const text = formatError(commanderUsageError(e, 'export')).text;
      expect(text).toBe(`${de}\n  Hilfe: meterdata export --help`);
      expect(await findEnglish(text)).toEqual([]);
      setLanguage('en');
      expect(formatError(commanderUsageError(e, undefined)).text).toBe(`${en}\n  See: meterdata --help`);
    } finally {
      setLanguage('en');
    }
  });
});

describe("export's flags refused in German, each naming the flag", () => {
  it.each([
    [['--year', '2025', '--metric', 'heizung'], 'meterdata: --metric: unbekannte Verbrauchsart „heizung“.'],
    [['--year', '2025', '--format', 'pdf'], 'meterdata: --format: unbekanntes Format „pdf“.'],
    [['--year', '2025', '--rate-limit', '0'], 'meterdata: --rate-limit: „0“ ist keine Zahl von Abfragen pro Minute (1 bis 10000).'],
    [['--year', '2025', '--property', 'abc'], 'meterdata: --property: „abc“ ist keine Liegenschafts-ID (eine UUID wie 3f2a…-…).'],
    [['--year', '2025', '--property', ','], 'meterdata: --property: Die Liste ist leer.'],
    [['--year', '2025', '--compare', '2024', '--threshold', '0'], 'meterdata: --threshold: „0“ ist kein Prozentsatz über 0 und bis 1000.'],
    [['--year', '2025', '--threshold', '10'], 'meterdata: --threshold braucht einen Vergleichszeitraum.'],
    [['--year', '2025', '--compare-to', '2024-12-31'], 'meterdata: --compare-from fehlt: zu --compare-to gehört auch ein Anfangsdatum.'],
    [['--from', '2025-01-01'], 'meterdata: --to fehlt: zu --from gehört auch ein Enddatum.'],
    [[], 'meterdata: Welcher Zeitraum? Bitte --year (z. B. --year 2025) oder --from und --to (jjjj-mm-tt) angeben.'],
    [['--year', '2025', '--out', ' '], 'meterdata: --out: Der Wert ist leer.'],
  ])('%j', async (flags, line) => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-de-flags-'));
    const r = await runCli(['export', ...flags], { env: { ...GERMAN, METERDATA_HOME: home }, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(line);
    expect(await findEnglish(r.stderr)).toEqual([]);
    expect(readdirSync(home)).toEqual([]);
  });
});
