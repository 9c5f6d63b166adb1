// Eight processes exporting from one profile at once across an access-token expiry:
// exactly one refresh, no revocation (the sandbox revokes the whole connection when a
// rotated refresh token is presented or two refreshes race), and every file correct.
// Trial 1: the token expires at the server in the middle of the runs (sandbox clock
// jumps an hour), so every process gets a 401 with requests in flight. Trial 2: the token
// is already expired locally when all eight start.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, countTokenRequests, differences, folder, lostRows, report, runBin, signedIn, type Run } from '../helpers/faults.js';

const PROCESSES = 8;
const ARGS = ['export', '--year', '2025', '--rate-limit', '3000'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;
let clean: Map<string, Buffer>;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ units: 100, latencyMs: [20, 50], rateLimitPerMinute: 0 }));
  const r = await runBin([...ARGS, '--out', path.join(home, 'clean')], env);
  expect(r.code, r.stderr).toBe(0);
  clean = await folder(path.join(home, 'clean'));
}, 120_000);
afterAll(async () => sandbox?.close());

const storeFile = () => path.join(env.METERDATA_HOME!, 'state', 'credentials', 'default.json');

async function eight(tag: string, onFirstProgress?: () => void): Promise<{ runs: Run[]; outs: string[]; tokenRequests: number }> {
  const outs = Array.from({ length: PROCESSES }, (_, i) => path.join(home, `${tag}-${i}`));
  let fired = false;
  const { result, tokenRequests } = await countTokenRequests(() =>
    Promise.all(
      outs.map((out) =>
        runBin([...ARGS, '--out', out], env, {
          onStderr: (text) => {
            if (!fired && /property 1\//.test(text)) {
              fired = true;
              onFirstProgress?.();
            }
          },
        }),
      ),
    ),
  );
  return { runs: result, outs, tokenRequests };
}

describe('8 processes, one profile, an access-token expiry', () => {
  it('one refresh, no revocation, every file equal to a clean run', async () => {
    const lost: string[] = [];
    let passed = 0;
    const trials: [string, () => Promise<Awaited<ReturnType<typeof eight>>>][] = [
      ['expiry at the server mid-run', () => eight('server', () => sandbox.admin.advanceClock(3601_000))],
      [
        'expired locally before the start',
        () => {
          const rec = JSON.parse(readFileSync(storeFile(), 'utf8'));
          rec.access_expires_at = new Date(Date.now() - 1000).toISOString();
          writeFileSync(storeFile(), JSON.stringify(rec), { mode: 0o600 });
          return eight('local');
        },
      ],
    ];
    for (const [name, trial] of trials) {
      const before = JSON.parse(readFileSync(storeFile(), 'utf8')).refresh_token as string;
      const rejectedBefore = sandbox.log.byStatus.get('401') ?? 0;
      const { runs, outs, tokenRequests } = await trial();
      const problems: string[] = [];
      runs.forEach((r, i) => r.code !== 0 && problems.push(`process ${i} exit ${r.code}: ${r.stderr.trim().split('\n').at(-1)}`));
      for (const out of outs) {
        const got = await folder(out);
        const diff = differences(clean, got);
        if (diff.length) problems.push(`${path.basename(out)} differs in [${diff.join(', ')}], ${lostRows(clean, got)} rows lost`);
      }
      const rejected = (sandbox.log.byStatus.get('401') ?? 0) - rejectedBefore;
      if (name.includes('server') && rejected === 0) problems.push('no request met the expiry (no 401): the trial did not test it');
      if (tokenRequests !== 1) problems.push(`${tokenRequests} token requests, not 1`);
      const revoked = sandbox.admin.connections().filter((c) => c.state === 'revoked');
      if (revoked.length) problems.push(`connection revoked: ${revoked.map((c) => c.revoked_reason).join(', ')}`);
      const after = JSON.parse(readFileSync(storeFile(), 'utf8')).refresh_token as string;
      if (after === before) problems.push('the stored refresh token was not rotated');
      if (problems.length) lost.push(`${name}: ${problems.join('; ')}`);
      else passed++;
      console.log(`[faults]   ${name}: ${tokenRequests} token request(s), ${rejected} answers 401 before the refresh took over`);
    }
    report({
      scenario: `${PROCESSES} processes, one profile, token expiry (at the server mid-run; locally before start)`,
      trials: trials.length,
      passed,
      lost,
    });
    expect(lost).toEqual([]);
  }, 240_000);
});
