// otherHolder (src/auth/shared-record.ts): before a revocation, is the token another profile's connection too? It read
// config.json once per other profile (1,200 profiles: 14 s) and heard no Ctrl-C meanwhile (round 37b F1).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { otherHolder } from '../../src/auth/shared-record.js';
import { FileCredentialStore } from '../../src/auth/credential-store/file.js';
import { saveProfile, type Profile } from '../../src/core/config.js';
import { aProfile } from '../helpers/profile.js';

const profile = aProfile;

async function homeWith(names: string[]) {
  const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-holder-')) };
  for (const n of names) await saveProfile(env, profile(n));
  const store = new FileCredentialStore(env);
  for (const n of names) await store.write(n, { v: 1, refresh_token: `rt-${n}`, updated_at: 'now' });
  return env;
}

describe('the other profile holding a token', () => {
  it('is found by its record; none where no other profile holds it', async () => {
    const env = await homeWith(['a', 'b', 'c']);
    expect(await otherHolder(env, 'rt-b', 'a')).toBe('b');
    expect(await otherHolder(env, 'rt-a', 'a')).toBeNull();
  });

  it('hears Ctrl-C between the profiles it reads: the signal’s reason, nothing found', async () => {
    const env = await homeWith(['a', 'b', 'c']);
    const stop = new AbortController();
    const reason = new Error('Interrupted by SIGINT.');
    stop.abort(reason);
    await expect(otherHolder(env, 'rt-c', 'a', stop.signal)).rejects.toBe(reason);
  });

  it('reads 1,200 profiles in well under the 14 s one read of config.json per profile took', async () => {
    const names = Array.from({ length: 1200 }, (_, i) => `p${i}`);
    const env = await homeWith(['a']);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const file = path.join(env.METERDATA_HOME, 'config', 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Profile> };
    for (const n of names) config.profiles[n] = profile(n);
    writeFileSync(file, JSON.stringify(config));
    const t0 = performance.now();
    expect(await otherHolder(env, 'rt-none', 'a')).toBeNull();
    console.log(`[bench] otherHolder over 1,200 profiles without records: ${Math.round(performance.now() - t0)} ms`);
  }, 60_000);
});
