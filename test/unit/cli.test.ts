import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('meterdata CLI wiring', () => {
  it('prints help with the exit codes and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: meterdata');
    expect(r.stdout).toMatch(/3\s+not signed in/);
    for (const cmd of ['login', 'logout', 'status', 'token', 'export', 'browse', 'sandbox', 'demo']) {
      expect(r.stdout).toContain(cmd);
    }
  });

  // Each command lists the exit codes it can end with, and only those (read off its code).
  it.each([
    ['login', [0, 1, 2, 3, 5, 130]],
    ['logout', [0, 1, 2, 5, 130]],
    ['status', [0, 1, 2, 3, 130]],
    ['token', [0, 1, 2, 3, 5, 130]],
    ['export', [0, 1, 2, 3, 4, 5, 6, 130]],
    ['browse', [0, 1, 2, 3, 5, 130]],
    ['sandbox', [0, 1, 2, 130]],
    ['demo', [0, 1, 2, 3, 5, 130]],
  ])('`%s --help` lists its own exit codes: %j', async (cmd, codes) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: meterdata ${cmd}`);
    const listed = r.stdout
      .split('Exit codes:\n')[1]!
      .trim()
      .split('\n')
      .map((l) => Number(/^\s*(\d+) /.exec(l)![1]));
    expect(listed).toEqual(codes);
  });

  it('says per command what Ctrl-C ends with: 130, the sandbox 0 (a signal is how it stops)', async () => {
    expect((await runCli(['export', '--help'])).stdout).toMatch(/\n  130 interrupted \(Ctrl-C, SIGTERM or SIGHUP\)/);
    expect((await runCli(['browse', '--help'])).stdout).toMatch(/\n  0  quit with q\n[\s\S]*\n  130 interrupted \(Ctrl-C, SIGTERM or SIGHUP\)/);
    expect((await runCli(['sandbox', '--help'])).stdout).toMatch(/\n  0  stopped by Ctrl-C, SIGTERM or SIGHUP/);
    expect((await runCli(['status', '--help'])).stdout).toMatch(/\n  3  not signed in, or the connection does not work/);
  });

  it('`sandbox --help` says the --clock date is where a ticking clock starts, not a fixed date', async () => {
    const r = await runCli(['sandbox', '--help']);
    const line = r.stdout.split('\n').findIndex((l) => l.includes('--clock <date>'));
    const text = r.stdout
      .split('\n')
      .slice(line, line + 3)
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain('start the server clock at this date');
    expect(text).toContain('ticks on with real time');
    expect(text).not.toMatch(/fixed/);
  });

  it('rejects an unknown command with the usage exit code', async () => {
    const r = await runCli(['exprot']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'exprot'/);
    expect(r.stderr).toMatch(/export/);
  });

  it('rejects an invalid choice naming the flag', async () => {
    const r = await runCli(['login', '--client-auth', 'client_secret_post']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--client-auth');
  });

  // Commander's own errors read like every other meterdata error: one line naming the
  // flag or command (with commander's suggestion), a hint to that command's --help, exit 2.
  it.each([
    [['exprot'], "meterdata: unknown command 'exprot' (did you mean export?).", 'meterdata --help'],
    [['export', '--yaer', '2025'], "meterdata: unknown option '--yaer' (did you mean --year?).", 'meterdata export --help'],
    [['export', '--year'], "meterdata: option '--year <yyyy>' argument missing.", 'meterdata export --help'],
    [['token', 'extra'], "meterdata: too many arguments for 'token'. Expected 0 arguments but got 1: extra.", 'meterdata token --help'],
    [
      ['login', '--client-auth', 'x'],
      "meterdata: option '--client-auth <method>' argument 'x' is invalid. Allowed choices are none, client_secret_basic, private_key_jwt.",
      'meterdata login --help',
    ],
    [['--bogus'], "meterdata: unknown option '--bogus'.", 'meterdata --help'],
  ])('reports commander errors as one meterdata line and a --help hint: %j', async (argv, line, help) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n  See: ${help}\n`);
    expect(r.stderr).not.toMatch(/error:|Usage:/);
    expect(r.stdout).toBe('');
  });

  // browse reads --year/--from/--to with export's code: the same one-line message, naming the flag.
  it.each([
    [['--from', '2025-13-01', '--to', '2025-12-31'], 'meterdata: --from: "2025-13-01" is not a date; use yyyy-mm-dd, e.g. 2025-01-01.'],
    [['--from', '2025-01-01', '--to', '2025-02-30'], 'meterdata: --to: "2025-02-30" is not a date; use yyyy-mm-dd, e.g. 2025-12-31.'],
    [['--from', '2025-01-01'], 'meterdata: --to is missing: --from needs an end date too.'],
    [['--to', '2025-01-31'], 'meterdata: --from is missing: --to needs a start date too.'],
    [['--year', '2025', '--from', '2025-01-01'], 'meterdata: --year cannot be combined with --from/--to.'],
    [['--from', '2025-05-01', '--to', '2025-04-01'], 'meterdata: --to 2025-04-01 lies before --from 2025-05-01.'],
    [['--year', '25'], 'meterdata: --year: "25" is not a year; use four digits, e.g. --year 2025.'],
  ])('browse and export refuse %j with the same message', async (flags, line) => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-dates-'));
    const browse = await runCli(['browse', ...flags], { env: { METERDATA_HOME: home }, cwd: home });
    const exp = await runCli(['export', ...flags], { env: { METERDATA_HOME: home }, cwd: home });
    expect(browse.code).toBe(2);
    expect(browse.stderr.split('\n')[0]).toBe(line);
    expect(browse.stderr).toBe(exp.stderr);
  });

  it('browse takes the years export takes (--year 1999)', async () => {
    const r = await runCli(['browse', '--year', '1999'], { tty: false });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs a terminal');
    expect(r.stderr).toContain('meterdata export --year 1999');
  });

  it.each([
    [['--ww-temperature', '200'], '--ww-temperature'],
    [['--plant-meters', 'no-such-file.csv'], '--plant-meters'],
    [['--benchmark', 'no-such-file.csv'], '--benchmark'],
  ])("browse refuses uvi's monthly-screen input %j as uvi does, before it needs a terminal", async (flags, name) => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-browse-uvi-'));
    const browse = await runCli(['browse', ...flags], { env: { METERDATA_HOME: home }, cwd: home, tty: false });
    const uvi = await runCli(['uvi', '--month', '2025-11', ...flags], { env: { METERDATA_HOME: home }, cwd: home });
    expect(browse.code).toBe(2);
    expect(browse.stderr.split('\n')[0]).toContain(name);
    expect(browse.stderr).toBe(uvi.stderr);
  });

  // An unset variable in a cron script ("--property $PROP") must never widen an export
  // to every Property, write into the current folder, or pick the default profile.
  it.each([
    [['export', '--year', '2025', '--out', ''], '--out'],
    [['export', '--year', '2025', '--property', ''], '--property'],
    [['export', '--year', '2025', '--property', '3f2a0000-0000-4000-8000-000000000001', '--property', ' '], '--property'],
    [['export', '--year', '2025', '--profile', ''], '--profile'],
    [['export', '--year', '', '--out', 'x'], '--year'],
    [['export', '--year', '2025', '--template', ''], '--template'],
    [['status', '--profile', ''], '--profile'],
    [['token', '--profile', ''], '--profile'],
    [['logout', '--profile', ''], '--profile'],
    [['browse', '--profile', ''], '--profile'],
    [['login', '--auth-url', ''], '--auth-url'],
    [['demo', '--out', ''], '--out'],
    [['sandbox', '--clients', ''], '--clients'],
  ])('refuses an empty value before doing anything: %j', async (argv, flag) => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-empty-'));
    const r = await runCli(argv, { env: { METERDATA_HOME: home }, cwd: home });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`meterdata: ${flag}: the value is empty.`);
    expect(readdirSync(home)).toEqual([]);
  });

  // `--property "$A,$B"` with both unset is "," : a list of nothing must not mean every Property.
  it.each([[','], [' , '], ['3f2a0000-0000-4000-8000-000000000001', ',']])(
    'refuses a --property list without an id (%j) instead of exporting every Property',
    async (...values) => {
      const home = mkdtempSync(path.join(os.tmpdir(), 'md-empty-'));
      const r = await runCli(['export', '--year', '2025', ...values.flatMap((v) => ['--property', v])], { env: { METERDATA_HOME: home }, cwd: home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('meterdata: --property: the list is empty.');
      expect(readdirSync(home)).toEqual([]);
    },
  );
});
