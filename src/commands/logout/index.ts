// `meterdata logout`: revoke the connection and delete the local record.
import { ExitCode } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { defineCommand, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';

const flag = flagsFrom(h);
const flags = {
  profile: profileFlag(),
  localOnly: flag.bool('--local-only', 'localOnly'),
};
export type LogoutFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, UNAVAILABLE } = ExitCode;
export const logout = defineCommand({
  name: 'logout',
  help: () => h.logout,
  flags,
  // Ctrl-C while the server's answer is awaited ends logout at once and keeps the record (run.ts).
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [UNAVAILABLE, 'exit5Keychain'],
    [ExitCode.INTERRUPTED, 'exit130Logout'],
  ],
  load: () => import('./run.js'),
});
