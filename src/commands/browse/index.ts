// `meterdata browse`: a landlord's Properties, units, meters and readings on screen.
import { ExitCode } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { defineCommand, periodFlags, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';

const flag = flagsFrom(h);
const flags = {
  profile: profileFlag(),
  ...periodFlags(flag, { year: 'browseYear', from: 'browseFrom', to: 'browseTo' }),
  // the monthly screen's figures as `meterdata uvi` computes them with the same files
  benchmark: flag.text('--benchmark <file>', 'benchmark'),
  wwTemperature: flag.text('--ww-temperature <celsius>', 'wwTemperature'),
  plantMeters: flag.text('--plant-meters <file>', 'plantMeters'),
};
export type BrowseFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, UNAVAILABLE, INTERRUPTED } = ExitCode;
export const browse = defineCommand({
  name: 'browse',
  help: () => h.browse,
  flags,
  // browse shows the service's errors on its screen.
  exits: [
    [OK, 'exit0Browse'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2Browse'],
    [NOT_SIGNED_IN, 'exit3'],
    [UNAVAILABLE, 'exit5Keychain'],
    [INTERRUPTED, 'exit130'],
  ],
  load: () => import('./run.js'),
});
