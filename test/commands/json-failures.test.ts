// A command given --json that fails prints one JSON object on stdout as well as its line on
// stderr: {outcome: "failed", exit_code, error{code, message, hint}}, the keys of the
// portfolio's failed profile, so that a script reads the failure's code (e.g. a full disk's
// EXPORT_WRITE_FAILED) where it reads the command's answers. Before, stdout stayed empty.
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OutputSet } from '../../src/export/output/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 6, homePrefix: 'md-json-failures-' }));
});
afterAll(async () => sandbox?.close());

interface FailureObject {
  outcome: string;
  exit_code: number;
  error: { code: string; message: string; hint?: string };
}

/** stdout holds exactly one line, the failure's object, and it tells what stderr tells. */
function failureOf(r: CliResult): FailureObject {
  const lines = r.stdout.split('\n').filter(Boolean);
  expect(lines, r.stderr).toHaveLength(1);
  const o = JSON.parse(lines[0]!) as FailureObject;
  expect(o.outcome).toBe('failed');
  expect(o.exit_code).toBe(r.code);
  expect(r.stderr).toContain(`meterdata: ${o.error.message}`);
  if (o.error.hint) expect(r.stderr).toContain(o.error.hint);
  return o;
}

describe('export --json that fails', () => {
  it('a mistyped flag (refused by commander, whatever its place): USAGE_UNKNOWN_OPTION, exit 2', async () => {
    for (const argv of [
      ['export', '--json', '--yaer', '2025'],
      ['export', '--yaer', '2025', '--json'],
    ]) {
      const o = failureOf(await runCli(argv, { env, cwd: home }));
      expect([o.exit_code, o.error.code]).toEqual([2, 'USAGE_UNKNOWN_OPTION']);
      expect(o.error.message).toContain('--yaer');
    }
  });

  // Round 26: these carried the code USAGE and no hint.
  it('a year or date that is none, or no period at all: USAGE_BAD_DATE / USAGE_NO_PERIOD, each with a hint', async () => {
    for (const [argv, code] of [
      [['export', '--json', '--year', '20x5'], 'USAGE_BAD_DATE'],
      [['export', '--json', '--from', '2025-02-30', '--to', '2025-12-31'], 'USAGE_BAD_DATE'],
      [['export', '--json', '--from', '2025-12-01', '--to', '2025-01-31'], 'USAGE_BAD_DATE'],
      [['export', '--json', '--year', '1066'], 'USAGE_BAD_DATE'],
      [['export', '--json'], 'USAGE_NO_PERIOD'],
    ] as [string[], string][]) {
      const o = failureOf(await runCli(argv, { env, cwd: home }));
      expect([o.exit_code, o.error.code], argv.join(' ')).toEqual([2, code]);
      expect(o.error.hint, argv.join(' ')).toBeTruthy();
    }
  });

  it("a --lang commander refuses, before the command or after it (parsed as the program's flag): USAGE_INVALID_ARGUMENT", async () => {
    for (const argv of [
      ['export', '--json', '--lang', 'xx'],
      ['--lang', 'xx', 'export', '--year', '2025', '--json'],
    ]) {
      expect(failureOf(await runCli(argv, { env, cwd: home })).error.code, argv.join(' ')).toBe('USAGE_INVALID_ARGUMENT');
    }
  });

  it('a value a flag refuses, and a missing period: exit 2', async () => {
    expect(failureOf(await runCli(['export', '--year', '25', '--json'], { env, cwd: home })).error.code).toBe('USAGE_BAD_DATE');
    expect(failureOf(await runCli(['export', '--json'], { env, cwd: home })).exit_code).toBe(2);
  });

  it('an --out below a file: EXPORT_OUT_NOT_A_FOLDER, exit 2, nothing asked of the server', async () => {
    const file = path.join(home, 'a-file');
    await writeFile(file, 'x');
    const before = sandbox.log.total;
    const o = failureOf(await runCli(['export', '--year', '2025', '--format', 'csv', '--out', path.join(file, 'out'), '--json'], { env, cwd: home }));
    expect([o.exit_code, o.error.code]).toEqual([2, 'EXPORT_OUT_NOT_A_FOLDER']);
    expect(sandbox.log.total).toBe(before);
  });

  it('a full disk while the files are written: EXPORT_WRITE_FAILED, exit 1, the hint to free space', async () => {
    const write = OutputSet.prototype.write;
    const spy = vi.spyOn(OutputSet.prototype, 'write').mockImplementation(async function (this: OutputSet, ...args: Parameters<typeof write>) {
      if (args[0] === 'billing') throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
      return write.apply(this, args);
    });
    let r: CliResult;
    try {
      r = await runCli(['export', '--year', '2025', '--format', 'csv', '--out', path.join(home, 'full'), '--json', '--quiet'], { env, cwd: home });
    } finally {
      spy.mockRestore();
    }
    const o = failureOf(r);
    expect([o.exit_code, o.error.code]).toEqual([1, 'EXPORT_WRITE_FAILED']);
    expect(o.error.message).toContain('the disk is full');
    expect(o.error.hint).toMatch(/^Free space on that disk/);
  });

  // Round 27: round 26's check that <out>/<month> is no link ran first and took ENOTDIR and ELOOP for a bug.
  it('uvi with --out a file, a path through a file, or a link loop: refused as no folder (a loop: not writable), exit 2, no stack', async () => {
    const file = path.join(home, 'c-file');
    await writeFile(file, 'x');
    const loop = path.join(home, 'loop');
    await symlink(loop, loop);
    const before = sandbox.log.total;
    for (const out of [file, path.join(file, 'x'), loop]) {
      const r = await runCli(['uvi', '--month', '2025-11', '--out', out, '--json'], { env, cwd: home });
      const o = failureOf(r);
      expect([o.exit_code, o.error.code], `${out}: ${r.stderr}`).toEqual([2, out === loop ? 'EXPORT_OUT_NOT_WRITABLE' : 'EXPORT_OUT_NOT_A_FOLDER']);
      expect(r.stderr).not.toMatch(/this is a bug|\n\s+at /);
    }
    expect(sandbox.log.total).toBe(before);
  });

  it('the portfolio refusing its arguments before any profile: one failure object', async () => {
    const file = path.join(home, 'b-file');
    await writeFile(file, 'x');
    const o = failureOf(await runCli(['export', '--year', '2025', '--profiles', 'default', '--out', path.join(file, 'out'), '--json'], { env, cwd: home }));
    expect([o.exit_code, o.error.code]).toEqual([2, 'EXPORT_OUT_NOT_A_FOLDER']);
  });

  it("the portfolio's objects escape terminal controls as the single export's do (a folder named with \\u202e)", async () => {
    const out = path.join(home, 'p\u202e\u009bout');
    const r = await runCli(['export', '--year', '2025', '--profiles', 'nobody', '--out', out, '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).not.toMatch(/[\u202e\u009b]/);
    expect(r.stdout).toContain('\\u202e');
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ profile: 'nobody', outcome: 'failed', exit_code: 3, out: path.join(out, 'nobody') });
  });

  it('in German: the message and hint a person reads are German, code and keys are not', async () => {
    const o = failureOf(await runCli(['export', '--lang', 'de', '--yaer', '2025', '--json'], { env, cwd: home }));
    expect(o.error.code).toBe('USAGE_UNKNOWN_OPTION');
    expect(o.error.message).toMatch(/unbekannte Option/i);
  });
});

describe('status --json that fails', () => {
  it('a profile name that cannot be one: exit 2 as JSON', async () => {
    const o = failureOf(await runCli(['status', '--profile', '../x', '--json'], { env }));
    expect(o.exit_code).toBe(2);
  });

  it('a name with terminal controls: escaped in the JSON as on stderr, the parsed message keeps them', async () => {
    const name = 'a\u202e\u009b2Jb';
    const r = await runCli(['status', '--profile', name, '--json'], { env });
    expect(r.stdout).not.toMatch(/[\u202e\u009b]/);
    expect(r.stdout).toContain('\\u202e');
    expect(JSON.parse(r.stdout).error.message).toContain(name);
  });

  it('a mistyped flag: USAGE_UNKNOWN_OPTION', async () => {
    expect(failureOf(await runCli(['status', '--json', '--al'], { env })).error.code).toBe('USAGE_UNKNOWN_OPTION');
  });

  it('--all with no profile (as export --all-profiles): AUTH_NOT_SIGNED_IN, exit 3, the hint naming meterdata login; before, `[]` and exit 3', async () => {
    const empty = { METERDATA_HOME: await mkdtemp(path.join(os.tmpdir(), 'md-json-none-')) };
    const status = failureOf(await runCli(['status', '--all', '--json'], { env: empty }));
    const portfolio = failureOf(await runCli(['export', '--year', '2025', '--all-profiles', '--json'], { env: empty, cwd: empty.METERDATA_HOME }));
    for (const o of [status, portfolio]) expect([o.exit_code, o.error.code]).toEqual([3, 'AUTH_NOT_SIGNED_IN']);
    expect(status.error.hint).toMatch(/meterdata login/);
    const plain = await runCli(['status', '--all'], { env: empty });
    expect([plain.code, plain.stdout]).toEqual([3, '']);
    expect(plain.stderr).toMatch(/no profile is signed in yet\.[\s\S]*meterdata login/);
  });

  it('interrupted before it could check: exit 130 in the object too', async () => {
    const o = failureOf(await runCli(['status', '--json'], { env, signal: AbortSignal.abort() }));
    expect(o.exit_code).toBe(130);
  });
});

describe('what stays as it was', () => {
  it('without --json, or for a command that takes no --json, stdout stays empty', async () => {
    for (const argv of [
      ['export', '--yaer', '2025'],
      ['exprot', '--json'],
      ['login', '--json'],
      ['token', '--json'],
      ['status', '--', '--json'],
    ]) {
      const r = await runCli(argv, { env, cwd: home });
      expect(r.code, argv.join(' ')).not.toBe(0);
      expect(r.stdout, argv.join(' ')).toBe('');
    }
  });

  it('export --strict --json: one summary object carrying exit 6 and its error, no second object', async () => {
    const r = await runCli(['export', '--year', '2025', '--format', 'csv', '--out', path.join(home, 'strict'), '--json', '--quiet', '--strict'], {
      env,
      cwd: home,
    });
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const s = JSON.parse(lines[0]!) as { exit_code: number; error: { code: string }; counts: unknown };
    expect([s.exit_code, s.error.code]).toEqual([6, 'EXPORT_FLAGS_STRICT']);
    expect(s.counts).toBeTruthy();
  });
});
