// A DPoP proof refused because this computer's clock is off the service's: the built binary runs
// with its clock moved 5 minutes (a module loaded before it shifts Date), the sandbox checks the
// proof's iat against the real time. meterdata says to set the clock right, never to sign in
// again; with the clock right, the same connection works, and it was never revoked.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { setAccessExpiry, signedIn } from '../helpers/signed-in.js';

let sb: Sandbox;
let shift: string;
beforeAll(async () => {
  assertBuilt();
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 });
  shift = path.join(mkdtempSync(path.join(os.tmpdir(), 'md-clock-')), 'shift.mjs');
  writeFileSync(
    shift,
    `const off = Number(process.env.TEST_CLOCK_OFFSET_MS);
const Real = Date;
globalThis.Date = class extends Real {
  constructor(...a) { if (a.length === 0) super(Real.now() + off); else super(...a); }
  static now() { return Real.now() + off; }
};
`,
  );
});
afterAll(async () => sb?.close());

const stateOf = (sid: string) => sb.admin.connections().find((c) => c.sid === sid)?.state;

async function signedInWithDpop() {
  const { env, file, sid } = await signedIn({ at: sb, login: ['--dpop'], credentialStore: 'file', homePrefix: 'md-clock-' });
  return { env, file, sid };
}

const skewed = (env: NodeJS.ProcessEnv, minutes: number) => ({
  ...env,
  NODE_OPTIONS: `--import=${pathToFileURL(shift).href}`,
  TEST_CLOCK_OFFSET_MS: String(minutes * 60_000),
});

describe('a DPoP proof refused for the clock', () => {
  it('an API request with the clock 5 minutes ahead: "set the clock right", not "sign in again"; afterwards the connection works', async () => {
    const { env, sid } = await signedInWithDpop();
    const r = await runBin(['status', '--json'], skewed(env, 5));
    const problem = JSON.parse(r.stdout).problem;
    expect(problem, r.stderr).toMatchObject({ code: 'AUTH_CLOCK_SKEW' });
    expect(problem.message).toMatch(/clock is 5 minutes ahead of the service's \(a proof counts for 60 seconds\)/);
    expect(problem.hint).toMatch(/Set the computer's clock right/);
    expect(JSON.stringify(problem)).not.toMatch(/meterdata login/);
    const de = await runBin(['status', '--lang', 'de'], skewed(env, 5));
    expect(de.stdout).toMatch(/Uhr dieses Computers 5 Minuten gegenüber der Uhr des Messdienstes vorgeht/);
    expect(de.stdout).toMatch(/Uhrzeit des Computers richtig stellen/);
    const right = await runBin(['status'], env);
    expect(right.code, right.stdout + right.stderr).toBe(0);
    expect(stateOf(sid)).toBe('connected');
  }, 60_000);

  it('a refresh with the clock 5 minutes behind: exit 5 AUTH_CLOCK_SKEW, the record untouched; with the clock right the refresh works', async () => {
    const { env, file, sid } = await signedInWithDpop();
    setAccessExpiry(file, -10 * 60_000);
    const before = readFileSync(file, 'utf8');
    const r = await runBin(['token'], skewed(env, -5));
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/clock is 5 minutes behind the service's/);
    expect(r.stderr).toMatch(/Set the computer's clock right/);
    expect(r.stderr).not.toMatch(/meterdata login|sign in again/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const right = await runBin(['token'], env);
    expect(right.code, right.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).not.toBe(JSON.parse(before).refresh_token);
    expect(stateOf(sid)).toBe('connected');
  }, 60_000);
});
