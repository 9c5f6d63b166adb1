// `meterdata status`: show a profile's connection and check that it works.
import { ExitCode } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { defineCommand, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';

const flag = flagsFrom(h);
const flags = {
  profile: profileFlag(),
  json: flag.bool('--json', 'statusJson'),
  all: flag.bool('--all', 'all'),
};
export type StatusFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, INTERRUPTED } = ExitCode;
export const status = defineCommand({
  name: 'status',
  help: () => h.status,
  flags,
  // status turns every problem into 3.
  exits: [
    [OK, 'exit0Status'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [NOT_SIGNED_IN, 'exit3Status'],
    [INTERRUPTED, 'exit130'],
  ],
  load: () => import('./run.js'),
});
