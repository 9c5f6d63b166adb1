// What login says where config.json refused the first write for a profile it names (src/auth/login-ends.ts): the new
// sign-in is stored, also where the disk refused it as the system's error (round 43 F4: told as a file not written).
import { describe, expect, it } from 'vitest';
import { factsRefused } from '../../src/auth/login-ends.js';

const diskError = () => Object.assign(new Error('EACCES: permission denied, open …/config.json'), { code: 'EACCES' });

describe('factsRefused', () => {
  it('a disk refusing the first write of a named profile: the stored sign-in said, the disk’s code kept', () => {
    expect(factsRefused(diskError(), 'Run `meterdata login` again', 'meterdata status', true)).toMatchObject({
      code: 'DISK_WRITE_FAILED',
      message: expect.stringMatching(
        /^The new sign-in is stored, but config\.json could not be changed: .+ `meterdata status` shows whether the profile can be used\.$/,
      ),
    });
  });

  it.each([
    ['EACCES', /chown/],
    ['EPERM', /chown/],
    ['ENOSPC', /Free space/],
  ])('a disk refusing it with %s: the hint fits the refusal (round 44 N3: always “free space”)', (code, hint) => {
    const e = Object.assign(new Error(`${code}: refused, open …/config.json`), { code });
    expect(factsRefused(e, 'Run `meterdata login` again', 'meterdata status', true)).toMatchObject({ hint: expect.stringMatching(hint) });
  });

  it('the same error after /whoami (not the first write) is passed on as it is', () => {
    const e = diskError();
    expect(factsRefused(e, 'Run `meterdata login` again', 'meterdata status')).toBe(e);
  });
});
