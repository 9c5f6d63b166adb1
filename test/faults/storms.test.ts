// 429 storms, 5xx bursts, slow answers, dropped connections and truncated bodies at
// several rates: every run ends with files identical to a clean run's, or with a clear
// failure (exit 5, one line naming what to do, no stack) and nothing at a final path.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, differences, FINAL, folder, FULL, halfWritten, lostRows, report, runBin, signedIn } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000'];
const SANDBOX = { units: 60, rateLimitPerMinute: 0 };

const PLANS: string[][] = [
  ['429:0.05'],
  ['429:0.2'],
  ['500:0.1'],
  ['503:0.3'],
  ['slow:0.1:1500'],
  ['drop:0.1'],
  ['truncate:0.2'],
  ['429:0.05', '500:0.05', '503:0.05', 'drop:0.05', 'truncate:0.05', 'slow:0.05:1000'],
  ['500:0.7'],
  ['drop:0.7'],
  ...(FULL ? [['429:0.4'], ['500:0.4'], ['503:0.5'], ['slow:0.3:3000'], ['drop:0.4'], ['truncate:0.5'], ['truncate:0.8'], ['503:0.8']] : []),
];

const started: Sandbox[] = [];
let clean: Map<string, Buffer>;

/**
 * Sign-in reads /whoami, which the faults hit too, and the same plan gives the same faults
 * in the same request order. Each attempt prepends one more never-firing rule ("429:0"):
 * every rate rule draws once per request, so this shifts the sequence of draws.
 */
async function signedInDespiteFaults(faults: string[]) {
  let last: unknown;
  for (let i = 0; i < 8; i++) {
    const s = await signedIn({ ...SANDBOX, faults: [...Array<string>(i).fill('429:0'), ...faults] }).catch((e: unknown) => ((last = e), null));
    if (s) return s;
  }
  throw last;
}

beforeAll(async () => {
  assertBuilt();
  const { sandbox, env, home } = await signedIn(SANDBOX);
  started.push(sandbox);
  const r = await runBin([...ARGS, '--out', path.join(home, 'clean')], env);
  expect(r.code, r.stderr).toBe(0);
  clean = await folder(path.join(home, 'clean'));
}, 60_000);
afterAll(async () => {
  for (const s of started) await s.close();
});

describe('faults at several rates', () => {
  it(
    `${PLANS.length} fault plans: identical files or a clear exit 5 with nothing half-written`,
    async () => {
      const lost: string[] = [];
      let identical = 0;
      let failedCleanly = 0;
      for (const faults of PLANS) {
        const { sandbox, env, home } = await signedInDespiteFaults(faults);
        started.push(sandbox);
        const out = path.join(home, 'out');
        const r = await runBin([...ARGS, '--out', out], env);
        const got = await folder(out);
        const injected = [...sandbox.log.faults.values()].reduce((a, b) => a + b, 0);
        const what = `${faults.join(',')} (${injected} injected)`;
        if (r.code === 0) {
          const diff = differences(clean, got);
          if (diff.length === 0) identical++;
          else lost.push(`${what}: exit 0 but [${diff.join(', ')}] differ, ${lostRows(clean, got)} rows lost`);
        } else {
          const lines = r.stderr.trim().split('\n');
          const problems = [
            r.code !== 5 && `exit ${r.code}, not 5`,
            halfWritten(clean, got).length > 0 && `half-written [${halfWritten(clean, got).join(', ')}]`,
            FINAL.some((n) => got.has(n)) && 'a final name exists after a failure',
            [...got.keys()].some((n) => n.endsWith('.partial')) && 'scratch files left behind',
            /^\s+at /m.test(r.stderr) && 'a stack trace was printed',
            !/again|later/i.test(r.stderr) && `no next step in "${lines.at(-1)}"`,
          ].filter(Boolean);
          if (problems.length === 0) failedCleanly++;
          else lost.push(`${what}: ${problems.join(', ')}`);
        }
        await sandbox.close();
      }
      report({
        scenario: `429/5xx/slow/drop/truncate at ${PLANS.length} plans (${identical} identical, ${failedCleanly} clear exit 5)`,
        trials: PLANS.length,
        passed: identical + failedCleanly,
        lost,
      });
      expect(lost).toEqual([]);
      // the heavy plans must really exercise the failure path, the light ones the recovery
      expect(identical).toBeGreaterThan(0);
    },
    FULL ? 900_000 : 300_000,
  );
});
