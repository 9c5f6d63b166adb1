// config.json's size bound (src/core/config.ts CONFIG_MAX): round 37c, a login past about 2,300 profiles rewrote the
// file beyond the 1 MiB it was read with, and every later command refused it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfiles, saveProfile } from '../../src/core/config.js';
import { aProfile } from '../helpers/profile.js';

/** A home whose config.json holds `n` profiles, written compactly (as a person or another tool may have). */
function homeWith(n: number) {
  const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-config-size-')) };
  const file = path.join(env.METERDATA_HOME, 'config', 'config.json');
  mkdirSync(path.dirname(file), { recursive: true });
  const profiles = Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, aProfile(`p${i}`)]));
  writeFileSync(file, JSON.stringify({ profiles }));
  return { env, file };
}

describe('config.json’s size', () => {
  it('3,200 profiles: a login’s rewrite (1.3 MB) is read back by every later command', async () => {
    const { env, file } = homeWith(3200);
    await saveProfile(env, aProfile('new'));
    expect(readFileSync(file).length).toBeGreaterThan(1 << 20);
    expect(Object.keys(await loadProfiles(env))).toHaveLength(3201);
  }, 60_000);

  it('a change that would take it beyond what is read back is refused, the file left as it was', async () => {
    const { env, file } = homeWith(60_000);
    const before = readFileSync(file);
    expect(before.length).toBeLessThan(16 << 20);
    await expect(saveProfile(env, aProfile('new'))).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/^The settings were not changed: .*config\.json would grow beyond 16 MiB, more than meterdata reads back\.$/),
    });
    expect(readFileSync(file).equals(before)).toBe(true);
  }, 60_000);
});
