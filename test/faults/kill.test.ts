// kill -9 of an export at random points (process start, the walk, the workbook, the
// renames): never a complete-looking file at a final path, and the re-run with the same
// arguments finishes with the clean run's bytes. 6 points by default, 20 with FAULTS_FULL=1.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, differences, folder, FULL, halfWritten, lostRows, prng, report, runBin, signedIn } from '../helpers/faults.js';

const POINTS = FULL ? 20 : 6;
const ARGS = ['export', '--year', '2025', '--rate-limit', '3000'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;
let clean: Map<string, Buffer>;
let cleanMs = 0;

beforeAll(async () => {
  assertBuilt();
  // Two Properties, ~170 requests, answers 20-60 ms: a run of a few seconds to kill into.
  ({ sandbox, env, home } = await signedIn({ units: 300, latencyMs: [20, 60], rateLimitPerMinute: 3000 }));
  const r = await runBin([...ARGS, '--out', path.join(home, 'clean')], env);
  expect(r.code, r.stderr).toBe(0);
  clean = await folder(path.join(home, 'clean'));
  // The first run is the slowest (cold caches): time a second one and kill within the faster.
  const again = await runBin([...ARGS, '--out', path.join(home, 'again')], env);
  expect(again.code, again.stderr).toBe(0);
  cleanMs = Math.min(r.ms, again.ms);
}, 120_000);
afterAll(async () => sandbox?.close());

describe('kill -9 at random points', () => {
  it(
    `${POINTS} kills: nothing half-written at a final path, the re-run equals a clean run`,
    async () => {
      const random = prng(20251122);
      const lost: string[] = [];
      let passed = 0;
      const states = { nothing: 0, scratch: 0, final: 0, finishedFirst: 0 };
      for (let i = 0; i < POINTS; i++) {
        // spread over the whole run, start-up to the final renames, with jitter
        let at = Math.round(((i + random()) / POINTS) * cleanMs);
        let out = path.join(home, `kill-${i}`);
        let killed = await runBin([...ARGS, '--out', out], env, { killAfterMs: at });
        // runs vary in length: when this one finished first, kill a fresh one a little earlier
        for (let retry = 1; killed.signal !== 'SIGKILL' && retry <= 4; retry++) {
          at = Math.round(at * 0.9);
          out = path.join(home, `kill-${i}-${retry}`);
          killed = await runBin([...ARGS, '--out', out], env, { killAfterMs: at });
        }
        const left = await folder(out);
        const bad = halfWritten(clean, left);
        if (killed.signal !== 'SIGKILL') states.finishedFirst++;
        states[[...left.keys()].some((n) => !n.startsWith('.')) ? 'final' : left.size ? 'scratch' : 'nothing']++;
        const rerun = await runBin([...ARGS, '--out', out], env);
        const after = await folder(out);
        const diff = differences(clean, after);
        const rows = lostRows(clean, after);
        const ok = bad.length === 0 && rerun.code === 0 && diff.length === 0;
        if (ok) passed++;
        else
          lost.push(
            `kill at ${at} ms (${killed.signal ?? `exit ${killed.code}`}): half-written [${bad.join(', ')}], re-run exit ${rerun.code}${rerun.code === 0 ? '' : ` (${rerun.stderr.trim().split('\n').slice(0, 3).join(' / ')})`}, differing [${diff.join(', ')}], ${rows} rows lost`,
          );
      }
      const where = `left ${states.nothing}× nothing, ${states.scratch}× only hidden scratch files, ${states.final}× final files; ${states.finishedFirst}× no run could be caught before it finished`;
      report({ scenario: `kill -9 at ${POINTS} points over a ${Math.round(cleanMs)} ms export (${where})`, trials: POINTS, passed, lost });
      expect(lost).toEqual([]);
    },
    FULL ? 600_000 : 240_000,
  );
});
