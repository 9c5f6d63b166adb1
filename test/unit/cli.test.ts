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

  it.each(['login', 'logout', 'status', 'token', 'export', 'browse', 'sandbox', 'demo'])('`%s --help` lists the exit codes too', async (cmd) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: meterdata ${cmd}`);
    expect(r.stdout).toMatch(/Exit codes:[\s\S]*3\s+not signed in[\s\S]*5\s+service unavailable/);
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
  it.each([[','], [' , '], ['3f2a0000-0000-4000-8000-000000000001', ',']])('refuses a --property list without an id (%j) instead of exporting every Property', async (...values) => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-empty-'));
    const r = await runCli(['export', '--year', '2025', ...values.flatMap((v) => ['--property', v])], { env: { METERDATA_HOME: home }, cwd: home });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('meterdata: --property: the list is empty.');
    expect(readdirSync(home)).toEqual([]);
  });
});
