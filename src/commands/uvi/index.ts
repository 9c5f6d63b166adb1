// `meterdata uvi`: the monthly consumption information (§ 6a HeizkostenV, docs/uvi.md), run
// on the export's machinery (src/export/uvi.ts).
import { ExitCode } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { propertyFlag, rateLimitFlag } from '../../export/options/flags/index.js';
import { defineCommand, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';

const flag = flagsFrom(h);
const flags = {
  month: flag.text('--month <yyyy-mm>', 'month'),
  profile: profileFlag(),
  allProfiles: flag.bool('--all-profiles', 'allProfiles'),
  profiles: flag.text('--profiles <list>', 'profiles'),
  property: flag.parsed('--property <id>', 'property', propertyFlag),
  out: flag.text('--out <dir>', 'out'),
  template: flag.textOr('--template <name>', 'template', 'generic', { complete: ['generic', 'de'] }),
  rateLimit: flag.parsedOr('--rate-limit <n>', 'rateLimit', rateLimitFlag, 300, '"300"'),
  json: flag.bool('--json', 'json'),
  quiet: flag.bool('--quiet', 'quiet'),
  benchmark: flag.text('--benchmark <file>', 'benchmark'),
  wwTemperature: flag.text('--ww-temperature <celsius>', 'wwTemperature'),
  unitRefs: flag.text('--unit-refs <file>', 'unitRefs'),
  plantMeters: flag.text('--plant-meters <file>', 'plantMeters'),
};
export type UviCommandFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, ACCESS_WITHDRAWN, UNAVAILABLE, INTERRUPTED } = ExitCode;
export const uvi = defineCommand({
  name: 'uvi',
  help: () => h.uvi,
  flags,
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [NOT_SIGNED_IN, 'exit3'],
    [ACCESS_WITHDRAWN, 'exit4'],
    [UNAVAILABLE, 'exit5'],
    [INTERRUPTED, 'exit130'],
  ],
  writesFiles: true,
  load: () => import('./run.js'),
});
