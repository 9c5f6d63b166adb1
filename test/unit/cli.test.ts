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
});
