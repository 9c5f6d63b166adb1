// A second Ctrl-C ends meterdata at once (src/cli.ts), before the command's error path could
// print anything: under --json stdout stayed empty, though the README says --json prints the
// error object on every failure. The built binary now writes it before it exits.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { BIN, assertBuilt } from '../helpers/bin.js';
import { signedInNord, signIn } from '../helpers/portfolio.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedInNord('md-second-signal-'));
  await signIn(sandbox, env, 'sued', 1);
}, 120_000);
afterAll(async () => sandbox?.close());

/** The built binary run with `args` in the sandbox's home, what it printed so far, and its end; `walking()` waits until it has made 4 requests. */
function started(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const got = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (got.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (got.stderr += c.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const before = sandbox.log.total;
  const walking = async () => {
    for (let i = 0; i < 600 && sandbox.log.total < before + 4; i++) await new Promise((r) => setTimeout(r, 50));
  };
  const end = async () => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await done;
    clearTimeout(timer);
    return code;
  };
  return { child, got, walking, end };
}

describe('a second Ctrl-C under --json', () => {
  it.each([
    ['uvi --profiles', ['uvi', '--month', '2025-11', '--profiles', 'nord']],
    ['export --profiles', ['export', '--year', '2025', '--format', 'csv', '--profiles', 'nord']],
  ])(
    '%s: exit 130 with the interrupted error object on stdout, once',
    async (name, args) => {
      const out = path.join(home, name.replace(/\W+/g, '-'));
      // Paced slowly, so the signals land during the walk.
      const { child, got, walking, end } = started([...args, '--rate-limit', '60', '--json', '--out', out]);
      await walking();
      // Both delivered at once (held while the process is stopped), so the second lands while the
      // first is being handled. Two SIGINTs held so are one: a pending signal is not queued twice.
      child.kill('SIGSTOP');
      child.kill('SIGINT');
      child.kill('SIGTERM');
      child.kill('SIGCONT');
      const code = await end();
      const { stdout, stderr } = got;
      expect(code, stderr).toBe(130);
      const lines = stdout.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ outcome: 'failed', exit_code: 130, error: { code: 'INTERRUPTED' } });
    },
    60_000,
  );

  // Round 32 F14: the first signal's run printed one object per profile; a second signal while the process
  // ended added an object without a profile, which a script reading one object per profile could not place.
  it('after a multi-profile run printed its profiles’ objects: no object of its own', async () => {
    const out = path.join(home, 'after-objects');
    const { child, got, walking, end } = started(['uvi', '--month', '2025-11', '--profiles', 'nord,sued', '--rate-limit', '60', '--json', '--out', out], {
      METERDATA_TEST_HOOKS: '1',
      METERDATA_TEST_PAUSE_CLI_END_MS: '20000',
    });
    await walking();
    child.kill('SIGTERM');
    // the run has ended and printed what it had; the launcher waits at the test hook
    for (let i = 0; i < 600 && !got.stderr.includes('test-hook: CLI_END'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(got.stderr).toContain('test-hook: CLI_END');
    const printed = got.stdout;
    child.kill('SIGTERM');
    const code = await end();
    const { stdout, stderr } = got;
    expect(code, stderr).toBe(130);
    expect(stdout).toBe(printed);
    const objects = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { profile?: string; exit_code: number });
    expect(objects.map((o) => o.profile).sort()).toEqual(['nord', 'sued']);
  }, 60_000);
});
