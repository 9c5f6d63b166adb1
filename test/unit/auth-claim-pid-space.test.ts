// A claim of a refresh token by a process of another pid space (a container sharing the state folder and the
// hostname): its pid says nothing here. A young one may be a refresh on its way: exit 5, not "sign in again" (exit 3)
// while the other container's refresh goes on (round 60 V6). A claim of this pid space is judged by its process.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { intentOf, refreshInFlight, stillInFlight } from '../../src/auth/refresh-intent.js';
import { claimedError, claimedInFlight } from '../../src/auth/spent-tokens.js';
import { markerPid } from '../../src/auth/claim-gate.js';
import { PID_SPACE, PID_SPACE_TAG } from '../../src/core/pid.js';

const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
const claim = (extra: object, at = new Date().toISOString()) => ({
  h: 'ab'.repeat(32),
  at,
  profile: 'nord',
  c: 'c1',
  pid: gone,
  host: os.hostname(),
  ...extra,
});

describe('a claim by a process of another pid space', () => {
  it('young: in flight whatever its pid is here (exit 5); old: spent (exit 3)', () => {
    expect(claimedInFlight(claim({ ns: 'ffffffffffffffff' }), 'nord')).toBe(true);
    expect(claimedError(claim({ ns: 'ffffffffffffffff' }), 'nord', 'meterdata login --profile nord')).toMatchObject({ code: 'AUTH_REFRESH_IN_FLIGHT' });
    // its pid is one of the other space: said so, never as if it were a process here (round 66 B3)
    expect(claimedError(claim({ ns: 'ffffffffffffffff', pid: 1 }), 'nord', 'x').message).toContain(
      '(pid 1, perhaps in another container on this host or from before its last restart)',
    );
    expect(refreshInFlight({ ...intentOf(), pid: 1, ns: 'ffffffffffffffff' }, 'x').message).toContain(
      '(pid 1, perhaps in another container on this host or from before its last restart)',
    );
    expect(refreshInFlight({ ...intentOf(), pid: 7 }, 'x').message).toContain('Another meterdata process (pid 7) started');
    const old = new Date(Date.now() - 11 * 60_000).toISOString();
    expect(claimedError(claim({ ns: 'ffffffffffffffff' }, old), 'nord', 'meterdata login --profile nord')).toMatchObject({ code: 'AUTH_REFRESH_SPENT' });
  });

  it('of this pid space, or of an earlier version without one: judged by its process, which ended (exit 3)', () => {
    expect(claimedInFlight(claim({ ns: PID_SPACE_TAG }), 'nord')).toBe(false);
    expect(claimedInFlight(claim({}), 'nord')).toBe(false);
    expect(claimedInFlight(claim({ ns: PID_SPACE_TAG, pid: process.ppid }), 'nord')).toBe(true);
  });

  it('a refresh’s intent in the record carries the pid space too: one of another pid space is on its way while young (round 65 A2)', () => {
    const intent = intentOf();
    expect(intent).toMatchObject({ pid: process.pid, host: os.hostname(), ns: PID_SPACE_TAG });
    expect(stillInFlight({ ...intent, pid: gone, ns: 'ffffffffffffffff' })).toBe(true);
    expect(stillInFlight({ ...intent, pid: gone })).toBe(false);
    expect(stillInFlight({ ...intent, pid: gone, ns: 'ffffffffffffffff', at: new Date(Date.now() - 11 * 60_000).toISOString() })).toBe(false);
  });

  it('a claim’s change marker of another pid space with this host’s name is named as such (round 67 F7)', () => {
    const host = os.hostname();
    expect(markerPid({ pid: 1, host, ns: 'another pid space' })).toBe('1, perhaps in another container on this host or from before its last restart');
    expect(markerPid({ pid: 7, host, ns: PID_SPACE })).toBe('7');
    expect(markerPid({ pid: 7, host })).toBe('7');
    expect(markerPid({ pid: 7, host: 'elsewhere', ns: 'x' })).toBe('7, elsewhere');
  });
});
