// config.json's size bound (src/core/config.ts configText): round 37c F1, a login past about 2,300 profiles rewrote
// the file beyond the 1 MiB it is read with, and every later command refused it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertRoomFor, loadProfiles, saveProfile } from '../../src/core/config.js';
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

const full = {
  code: 'CONFIG_FULL',
  message: expect.stringMatching(/^The settings were not changed: .*config\.json would grow beyond 1 MiB, more than meterdata reads back\.$/),
};

describe('config.json’s size', () => {
  it('a change that would write it beyond what is read back is refused, the file left as it was', async () => {
    const { env, file } = homeWith(3200);
    const before = readFileSync(file);
    expect(before.length).toBeLessThan(1 << 20);
    await expect(saveProfile(env, aProfile('new'))).rejects.toMatchObject(full);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(Object.keys(await loadProfiles(env))).toHaveLength(3200);
  });

  it('a login’s room is checked with what /whoami adds kept free: refused where the profile alone would still fit', async () => {
    const { env } = homeWith(1000);
    await expect(assertRoomFor(env, aProfile('new'))).resolves.toBeUndefined();
    const { env: fuller, file } = homeWith(2950);
    const indented = `${JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 2)}\n`;
    writeFileSync(file, indented);
    expect(indented.length).toBeLessThan((1 << 20) - 4096);
    await expect(assertRoomFor(fuller, aProfile('new'))).rejects.toMatchObject(full);
    await expect(saveProfile(fuller, aProfile('new'))).resolves.toBeUndefined();
  });
});
