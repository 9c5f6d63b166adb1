// The wait for a refresh on its way in another process of this profile (src/auth/refresh-outcome.ts storeChanged, round
// 48 F4), bounded at 10 s: it ends as soon as that process saved its outcome, and (round 49 N6) as soon as that process
// no longer holds its claim on its way: killed before it saved anything, the wait used to run its full 10 s.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CredentialStore, StoredRecord } from '../../src/auth/credential-store/index.js';
import { storeChanged, type RecordPlace } from '../../src/auth/refresh-outcome.js';
import { takeGate } from '../../src/auth/claim-gate.js';
import { spentFile, tokenHash } from '../../src/auth/spent-tokens.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const rec: StoredRecord = {
  v: 1,
  access_token: 'a',
  refresh_token: 'rt-on-its-way',
  token_type: 'Bearer',
  updated_at: '2026-11-29T10:00:00.000Z',
  access_expires_at: new Date(Date.now() - 1000).toISOString(),
};

/** A profile whose store holds `holds()`, and a claim of its token by a live process, which `claimant` can kill. */
async function waiting(holds: () => StoredRecord, listed?: { pid: number }) {
  const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-claim-wait-')) } as NodeJS.ProcessEnv;
  const claimant = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  children.push(claimant);
  await new Promise((resolve) => claimant.once('spawn', resolve));
  const entry = { h: tokenHash(rec.refresh_token), at: new Date().toISOString(), profile: 'default', c: 'theirs', pid: claimant.pid!, host: os.hostname() };
  expect(await takeGate(env, entry)).toBeNull();
  // the list still naming the claim a takeover replaced (its process ended): the gate holds the live one
  if (listed) writeFileSync(spentFile(env), JSON.stringify({ v: 1, spent: [{ ...entry, c: 'taken-over', pid: listed.pid }] }));
  const store = { read: async () => holds() } as unknown as CredentialStore;
  const place: RecordPlace = { store, env, profile: 'default' };
  const started = Date.now();
  const ended = storeChanged(place, rec).then(() => Date.now() - started);
  return { claimant, ended };
}

/** Whether `p` settles within `ms`. */
const within = (p: Promise<number>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('the wait for a refresh on its way in another process', () => {
  it('goes on while that process runs and the record is as it was', async () => {
    const { ended } = await waiting(() => rec);
    expect(await within(ended, 800)).toBe(false);
  });

  it('goes on while the list names a claim taken over from a process that ended, the gate that of one running (round 54 P4)', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    const { ended } = await waiting(() => rec, { pid: dead.pid! });
    expect(await within(ended, 800)).toBe(false);
  });

  it('ends once that process is killed, its outcome never saved: not after the full 10 s', async () => {
    const { claimant, ended } = await waiting(() => rec);
    await new Promise((r) => setTimeout(r, 300));
    claimant.kill('SIGKILL');
    expect(await within(ended, 3_000)).toBe(true);
  });

  it('ends once that process saved its outcome', async () => {
    let now = rec;
    const { ended } = await waiting(() => now);
    await new Promise((r) => setTimeout(r, 300));
    now = { ...rec, refresh_token: 'rt-new' };
    expect(await within(ended, 3_000)).toBe(true);
  });
});
