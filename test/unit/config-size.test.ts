// config.json's size bound (src/core/config.ts configText): round 37c F1, a login past about 2,300 profiles rewrote
// the file beyond the 1 MiB it is read with, and every later command refused it. Round 40a F1: a file too large to
// indent (a compact one) refused even a logout's removal.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertRoomFor, loadProfiles, removeProfileFields, saveProfile, type Profile } from '../../src/core/config.js';
import { aProfile } from '../helpers/profile.js';

const MiB = 1 << 20;
const noted = (name: string): Profile => ({ ...aProfile(name), tenant_name: 'Hausverwaltung Nordlicht GmbH' });

/** A home whose config.json holds as many profiles as fill about `bytes` when written compactly (as a tool may have). */
function homeOf(bytes: number) {
  const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-config-size-')) };
  const file = path.join(env.METERDATA_HOME, 'config', 'config.json');
  mkdirSync(path.dirname(file), { recursive: true });
  const entry = JSON.stringify({ p1000: noted('p1000') }).length - 1; // `"p1000":{…},`
  const profiles = Object.fromEntries(Array.from({ length: Math.floor(bytes / entry) }, (_, i) => [`p${1000 + i}`, noted(`p${1000 + i}`)]));
  writeFileSync(file, JSON.stringify({ profiles }));
  return { env, file, count: Object.keys(profiles).length };
}

const full = {
  code: 'CONFIG_FULL',
  message: expect.stringMatching(/^The settings were not changed: .*config\.json would grow beyond 1 MiB, more than meterdata reads back\.$/),
};

describe('config.json’s size', () => {
  it('a rewrite too large to indent is written compact, and read back whole', async () => {
    const { env, file, count } = homeOf(0.75 * MiB);
    await saveProfile(env, aProfile('new'));
    const written = readFileSync(file, 'utf8');
    expect([written.length < MiB, written.startsWith('{"profiles":{')]).toEqual([true, true]);
    expect(Object.keys(await loadProfiles(env))).toHaveLength(count + 1);
  });

  it('a change that would pass the bound even compact is refused, the file left as it was', async () => {
    const { env, file } = homeOf(MiB - 100);
    const before = readFileSync(file);
    expect(before.length).toBeLessThan(MiB);
    // larger than the room an entry's rounding can leave
    await expect(saveProfile(env, { ...aProfile('new'), tenant_name: 'x'.repeat(400) })).rejects.toMatchObject(full);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a removal from a full compact file is written (a logout is never refused for room)', async () => {
    const { env, file } = homeOf(MiB - 100);
    await removeProfileFields(env, 'p1000', ['tenant_name']);
    expect(readFileSync(file).length).toBeLessThan(MiB);
    expect((await loadProfiles(env)).p1000).not.toHaveProperty('tenant_name');
  });

  it('a login’s room is checked with what /whoami adds kept free: refused where the profile alone would still fit', async () => {
    const { env } = homeOf(MiB / 2);
    await expect(assertRoomFor(env, aProfile('new'))).resolves.toBeUndefined();
    const { env: fuller } = homeOf(MiB - 32 * 1024);
    await expect(assertRoomFor(fuller, aProfile('new'))).rejects.toMatchObject({
      code: 'CONFIG_FULL',
      message: expect.stringMatching(/^Nothing was changed: .*config\.json has too little room left for a sign-in \(meterdata reads it up to 1 MiB\)\.$/),
    });
    await expect(saveProfile(fuller, aProfile('new'))).resolves.toBeUndefined();
  });
});
