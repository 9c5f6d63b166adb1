// A full disk under the state folder, real: a small tmpfs in a private mount namespace
// (`unshare --mount`, root). Needs `npm run build`.
//  - the file credential store fills up between the refresh's answer and its save: what the
//    user sees, what the store keeps, whether the next run resends the rotated token, and
//    whether the connection survives at the server;
//  - the saved progress (state/exports) fills up during a real export.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, assertBuilt } from '../helpers/bin.js';
import { setAccessExpiry, signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22', units: 60, admin: true });
});
afterAll(async () => sandbox?.close());

/** A fresh home signed in to the file's sandbox. */
const signedInHome = (prefix: string) => signedIn({ at: sandbox, homePrefix: prefix });

/** Runs `script` as `sh -c` in a private mount namespace with `args`; resolves with its status and stderr. */
async function inNamespace(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; err: string }> {
  const child = spawn('unshare', ['--mount', 'sh', '-c', script, 'sh', ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 120_000,
  });
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, err };
}

const read = (dir: string, name: string) => readFile(path.join(dir, name), 'utf8');

describe('the file credential store fills up right after a refresh answered', () => {
  it('the new tokens are not used and are lost; the store keeps the rotated token with its intent, so nothing resends it; the user has to sign in again', async () => {
    const { home, env } = await signedInHome('md-e2e-credfull-');
    const cred = path.join(home, 'state', 'credentials');
    const file = path.join(cred, 'default.json');
    const before = setAccessExpiry(file, -1000); // the export's first request refreshes
    const live = () => sandbox.admin.connections().filter((c) => c.state !== 'revoked').length;
    const liveBefore = live();
    const logs = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-credfull-logs-'));
    const out = path.join(home, 'out');
    // the record is copied into the tmpfs mounted over its folder; the export pauses after the
    // refresh's answer (test hook), the tmpfs is filled, then it saves
    const script = [
      'cp -a "$1/." "$5/cred-before" || exit 89',
      'mount -t tmpfs -o size=64k meterdata-cred "$1" || exit 90',
      'cp -a "$5/cred-before/." "$1/" || exit 91',
      'METERDATA_TEST_HOOKS=1 METERDATA_TEST_PAUSE_AFTER_REFRESH_MS=1500 "$2" "$3" export --year 2025 --format csv --out "$4" 2>"$5/first.err" & pid=$!',
      'i=0; until grep -q "test-hook: AFTER_REFRESH" "$5/first.err" 2>/dev/null; do sleep 0.05; i=$((i+1)); [ $i -gt 600 ] && break; done',
      'dd if=/dev/zero of="$1/fill" bs=4096 2>/dev/null',
      'wait $pid; echo $? >"$5/first.code"',
      'ls -A "$1" >"$5/cred.ls"; cp "$1/default.json" "$5/after.json"',
      'rm "$1/fill"',
      '"$2" "$3" export --year 2025 --format csv --out "$4" 2>"$5/second.err"; echo $? >"$5/second.code"',
      'cp "$1/default.json" "$5/after-second.json"',
    ].join('\n');
    const { status, err } = await inNamespace(script, [cred, process.execPath, BIN, out, logs], env);
    expect(status, err).toBe(0);
    const first = await read(logs, 'first.err');
    // what the user sees the night it happens: exit 3 (sign in again), not 5 ("try later"): the rotated token is gone
    expect((await read(logs, 'first.code')).trim(), first).toBe('3');
    expect(first).not.toMatch(/Run the same command again to continue/);
    expect(first).toMatch(
      /^meterdata: The sign-in server issued new tokens, but they could not be saved \(ENOSPC: no space left on device, write\); they were not used\./m,
    );
    expect(first).toContain(
      'Fix the credential store (free disk space, unlock the keychain), then run `meterdata status`; unless it says the connection is working, run `meterdata login`.',
    );
    // the store keeps the old (rotated) refresh token, marked with the intent; no half-written record is left
    const after = JSON.parse(await read(logs, 'after.json')) as { refresh_token: string; refresh_intent?: unknown };
    expect(after.refresh_token).toBe(before.refresh_token);
    expect(after.refresh_intent).toBeTruthy();
    expect((await read(logs, 'cred.ls')).trim().split('\n').sort()).toEqual(['default.json', 'fill']);
    // the next night, with room again: the rotated token is not sent (the connection is not revoked), exit 3: sign in again
    const second = await read(logs, 'second.err');
    expect((await read(logs, 'second.code')).trim(), second).toBe('3');
    expect(second).toMatch(/AUTH_REFRESH_UNCERTAIN|was sent by a process that ended before saving its answer/);
    expect((JSON.parse(await read(logs, 'after-second.json')) as { refresh_uncertain_since?: string }).refresh_uncertain_since).toBeTruthy();
    expect(live()).toBe(liveBefore); // at the server the connection lives on, its only refresh token lost with the process
  }, 150_000);
});

describe('the saved progress fills up during a real export (state/exports on a small tmpfs)', () => {
  // 8k: at the journal's start (its locks and meta.json); 20k: at a Property's answers
  it.each(['8k', '20k'])(
    '%s: exit 1, one line naming the file in the state folder and "the disk is full", no stack, nothing under a final name; with room the same command finishes',
    async (size) => {
      const { home, env } = await signedInHome('md-e2e-statefull-');
      const exportsDir = path.join(home, 'state', 'exports');
      await mkdir(exportsDir, { recursive: true });
      const logs = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-statefull-logs-'));
      const out = path.join(home, 'out');
      const script = [
        'mount -t tmpfs -o size=$6 meterdata-state "$1" || exit 90',
        '"$2" "$3" export --year 2025 --format csv --out "$4" 2>"$5/first.err"; echo $? >"$5/first.code"',
        'ls -A "$4" >"$5/first.ls" 2>/dev/null; ls -AR "$1" >"$5/state.ls"',
        'mount -o remount,size=64m "$1" || exit 91',
        '"$2" "$3" export --year 2025 --format csv --out "$4" 2>"$5/second.err"; echo $? >"$5/second.code"',
      ].join('\n');
      const { status, err } = await inNamespace(script, [exportsDir, process.execPath, BIN, out, logs, size], env);
      expect(status, err).toBe(0);
      const first = await read(logs, 'first.err');
      expect((await read(logs, 'first.code')).trim(), first).toBe('1');
      expect(first).toMatch(new RegExp(`^meterdata: A file of this run could not be written \\(${exportsDir}/[^)]+\\): the disk is full\\.`, 'm'));
      expect(first).not.toMatch(/unexpected|^\s+at /m);
      expect((await read(logs, 'first.ls')).trim()).toBe('');
      expect(await read(logs, 'state.ls')).not.toMatch(/\.tmp$/m);
      const second = await read(logs, 'second.err');
      expect((await read(logs, 'second.code')).trim(), second).toBe('0');
    },
    150_000,
  );
});

describe("the portfolio summary on a full disk (--out a full tmpfs, the profile's folder below it another one with room)", () => {
  it("the profile's --json object first, then one line naming the summary, exit 1, no stack; the re-run with room keeps the profile and writes the summary", async () => {
    const { home, env } = await signedInHome('md-e2e-summaryfull-');
    const out = path.join(home, 'portfolio');
    const logs = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-summaryfull-logs-'));
    const script = [
      'mkdir -p "$1" && mount -t tmpfs -o size=16k meterdata-out "$1" || exit 90',
      'mkdir "$1/default" && mount -t tmpfs -o size=64m meterdata-profile "$1/default" || exit 91',
      // one block left: the portfolio's lock in the folder (a few hundred bytes) fits, the summary does not
      'dd if=/dev/zero of="$1/fill" bs=4096 count=3 2>/dev/null',
      '"$2" "$3" export --year 2025 --format csv --profiles default --out "$1" --json >"$4/first.out" 2>"$4/first.err"; echo $? >"$4/first.code"',
      'ls -A "$1" >"$4/first.ls"',
      'rm "$1/fill"',
      '"$2" "$3" export --year 2025 --format csv --profiles default --out "$1" --json >"$4/second.out" 2>"$4/second.err"; echo $? >"$4/second.code"',
      'cp "$1/portfolio-summary.csv" "$4/summary.csv"',
    ].join('\n');
    const { status, err } = await inNamespace(script, [out, process.execPath, BIN, logs], env);
    expect(status, err).toBe(0);
    const first = await read(logs, 'first.err');
    expect((await read(logs, 'first.code')).trim(), first).toBe('1');
    // the profile's object, then the failure's: a script reads the full disk's code on stdout too
    const [profileObject, failure, ...more] = (await read(logs, 'first.out'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: string; exit_code?: number; error?: { code: string } });
    expect(profileObject!.outcome).toBe('exported');
    expect([failure!.outcome, failure!.exit_code, failure!.error?.code, more.length]).toEqual(['failed', 1, 'EXPORT_WRITE_FAILED', 0]);
    expect(first).toContain(`meterdata: A file of this run could not be written (${out}/portfolio-summary.csv): the disk is full.`);
    expect(first).not.toMatch(/unexpected|^\s+at /m);
    expect((await read(logs, 'first.ls')).trim().split('\n').sort()).toEqual(['default', 'fill']); // no half-written summary
    const second = await read(logs, 'second.err');
    expect((await read(logs, 'second.code')).trim(), second).toBe('0');
    expect((JSON.parse(await read(logs, 'second.out')) as { outcome: string }).outcome).toBe('kept');
    expect(await read(logs, 'summary.csv')).toMatch(/\r\ndefault,kept,0,/);
  }, 150_000);
});

describe('a single export --json whose --out cannot be written (a read-only file system, a full one)', () => {
  it("stderr's line and, on stdout, the failure's object with its code and exit status (before: stdout empty)", async () => {
    const { home, env } = await signedInHome('md-e2e-singlero-');
    const mnt = path.join(home, 'mnt');
    await mkdir(mnt);
    const logs = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-singlero-logs-'));
    const script = [
      'mkdir -p "$1/ro" "$1/full" || exit 89',
      'mount -t tmpfs -o ro,size=1m meterdata-ro "$1/ro" && mount -t tmpfs -o size=16k meterdata-full "$1/full" || exit 90',
      'dd if=/dev/zero of="$1/full/fill" bs=4096 2>/dev/null',
      'for d in ro full; do "$2" "$3" export --year 2025 --format csv --out "$1/$d/out" --json >"$4/$d.out" 2>"$4/$d.err"; echo $? >"$4/$d.code"; done',
    ].join('\n');
    const { status, err } = await inNamespace(script, [mnt, process.execPath, BIN, logs], env);
    expect(status, err).toBe(0);
    for (const [d, code, errorCode, words] of [
      ['ro', 2, 'EXPORT_OUT_NOT_WRITABLE', /read-only/],
      ['full', 1, 'EXPORT_WRITE_FAILED', /the disk is full/],
    ] as const) {
      const stderr = await read(logs, `${d}.err`);
      expect((await read(logs, `${d}.code`)).trim(), stderr).toBe(String(code));
      const lines = (await read(logs, `${d}.out`)).trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      const o = JSON.parse(lines[0]!) as { outcome: string; exit_code: number; error: { code: string; message: string; hint?: string } };
      expect([o.outcome, o.exit_code, o.error.code], stderr).toEqual(['failed', code, errorCode]);
      expect(o.error.message).toMatch(words);
      expect(stderr).toContain(`meterdata: ${o.error.message}`);
      expect(stderr).not.toMatch(/unexpected|^\s+at /m);
    }
  }, 150_000);
});

describe('a portfolio --out that cannot be written (a read-only file system)', () => {
  it("is refused before any profile starts: exit 2 EXPORT_OUT_NOT_WRITABLE (before: every profile failed with exit 2, then the summary's mkdir, ENOENT on a read-only tmpfs, ended as an unexpected failure with a stack, exit 1)", async () => {
    const { home, env } = await signedInHome('md-e2e-summaryro-');
    const mnt = path.join(home, 'ro');
    await mkdir(mnt);
    const logs = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-summaryro-logs-'));
    const script = [
      'mount -t tmpfs -o ro,size=1m meterdata-ro "$1" || exit 90',
      '"$2" "$3" export --year 2025 --format csv --profiles default --out "$1/portfolio" --json >"$4/first.out" 2>"$4/first.err"; echo $? >"$4/first.code"',
    ].join('\n');
    const { status, err } = await inNamespace(script, [mnt, process.execPath, BIN, logs], env);
    expect(status, err).toBe(0);
    const first = await read(logs, 'first.err');
    expect((await read(logs, 'first.code')).trim(), first).toBe('2');
    expect(first).toMatch(/^meterdata: .*read-only/m);
    expect(first).not.toMatch(/could not be written|Free space/);
  }, 60_000);
});

/**
 * `argv` run twice by the built binary with the config folder on a 64 KiB tmpfs: the first
 * run's access token has expired, and the tmpfs is filled while it pauses right after its
 * refresh (tokens saved, config.json not yet noted); the second runs with room again.
 */
async function refreshIntoFullConfig(
  prefix: string,
  argv: string,
): Promise<{ config: string; first: string; firstCode: string; second: string; secondCode: string }> {
  const { home, env } = await signedInHome(prefix);
  const config = path.join(home, 'config');
  setAccessExpiry(path.join(home, 'state', 'credentials', 'default.json'), -1000);
  const logs = await mkdtemp(path.join(os.tmpdir(), `${prefix}logs-`));
  const script = [
    'cp -a "$1/." "$4/config-before" || exit 89',
    'mount -t tmpfs -o size=64k meterdata-config "$1" || exit 90',
    'cp -a "$4/config-before/." "$1/" || exit 91',
    `METERDATA_TEST_HOOKS=1 METERDATA_TEST_PAUSE_AFTER_REFRESH_MS=1500 "$2" "$3" ${argv} 2>"$4/first.err" >/dev/null & pid=$!`,
    'i=0; until grep -q "test-hook: AFTER_REFRESH" "$4/first.err" 2>/dev/null; do sleep 0.05; i=$((i+1)); [ $i -gt 600 ] && break; done',
    'dd if=/dev/zero of="$1/fill" bs=4096 2>/dev/null',
    'wait $pid; echo $? >"$4/first.code"',
    'rm "$1/fill"',
    `"$2" "$3" ${argv} 2>"$4/second.err" >/dev/null; echo $? >"$4/second.code"`,
  ].join('\n');
  const { status, err } = await inNamespace(script, [config, process.execPath, BIN, logs], { ...env, OUT: path.join(home, 'out') });
  expect(status, err).toBe(0);
  return {
    config,
    first: await read(logs, 'first.err'),
    firstCode: (await read(logs, 'first.code')).trim(),
    second: await read(logs, 'second.err'),
    secondCode: (await read(logs, 'second.code')).trim(),
  };
}

describe('the config folder fills up right after a refresh (its tokens saved, config.json not)', () => {
  it('export: the tokens are saved, so it goes on with a warning naming config.json and the full disk, no stack; the next run works without signing in again', async () => {
    const r = await refreshIntoFullConfig('md-e2e-configfull-', 'export --year 2025 --format csv --out "$OUT"');
    expect(r.firstCode, r.first).toBe('0');
    expect(r.first).toMatch(
      /^Warning: the sign-in was refreshed and the new tokens are saved, but the time of the refresh could not be noted in config\.json: the disk is full\. /m,
    );
    expect(r.first).toMatch(/^Warning: .*its tenant and property scope could not be noted in config\.json: the disk is full\. /m);
    expect(r.first).not.toMatch(/unexpected|^\s+at /m);
    expect(r.secondCode, r.second).toBe('0');
  }, 150_000);

  it('status: exit 1 with one line naming config.json and "the disk is full", no stack (before: an unexpected failure with a stack); with room the next status works', async () => {
    const r = await refreshIntoFullConfig('md-e2e-statusfull-', 'status');
    expect(r.firstCode, r.first).toBe('1');
    expect(r.first).toMatch(
      new RegExp(`^meterdata: A file meterdata keeps could not be written \\(${r.config}/[^)]+\\): the disk is full\\.\\n  Free space on that disk`, 'm'),
    );
    expect(r.first).not.toMatch(/unexpected|^\s+at /m);
    expect(r.secondCode, r.second).toBe('0');
  }, 150_000);
});
