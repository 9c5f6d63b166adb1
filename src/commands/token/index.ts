// `meterdata token`: a valid access token for scripts.
import { ExitCode } from '../../core/errors.js';
import type { FlagValues } from '../../core/flags.js';
import { defineCommand, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';

const flags = { profile: profileFlag() };
export type TokenFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, UNAVAILABLE, INTERRUPTED } = ExitCode;
export const token = defineCommand({
  name: 'token',
  help: () => h.token,
  flags,
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [NOT_SIGNED_IN, 'exit3'],
    [UNAVAILABLE, 'exit5Keychain'],
    [INTERRUPTED, 'exit130'],
  ],
  load: () => import('./run.js'),
});
