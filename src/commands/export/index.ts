// `meterdata export`: billing sheets for a year or a date range.
import { conflictMessage } from '../../cli-help.js';
import { ExitCode } from '../../core/errors.js';
import { dateFlag } from '../../core/dates.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
// Only the light surfaces: `meterdata --help` loads this declaration, not the export's run.
import { ALL_FORMATS, formatFlag, metricFlag, optionTexts, propertyFlag, rateLimitFlag, thresholdFlag, FORMATS } from '../../export/options/flags/index.js';
import { formatLabels } from '../../export/output/formats/index.js';
import { METRICS } from '../../api/types.js';
import { defineCommand, periodFlags, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';

conflictMessage('--compare', () => ({ message: optionTexts.compareWithPair, hint: optionTexts.compareWithPairHint }));

const flag = flagsFrom(h);
const flags = {
  profile: profileFlag(),
  allProfiles: flag.bool('--all-profiles', 'allProfiles'),
  profiles: flag.text('--profiles <list>', 'profiles'),
  ...periodFlags(flag, { year: 'year', from: 'from', to: 'to' }),
  property: flag.parsed('--property <id>', 'property', propertyFlag),
  metric: flag.parsed('--metric <list>', 'metric', metricFlag, { complete: METRICS }),
  format: flag.parsedOr('--format <list>', undefined, formatFlag, [...FORMATS], `"${ALL_FORMATS}"`, {
    complete: FORMATS,
    help: () => h.format({ list: FORMATS.join(', '), count: FORMATS.length }),
  }),
  out: flag.text('--out <dir>', 'out'),
  template: flag.textOr('--template <name|file>', 'template', 'generic', { complete: ['generic', 'de'] }),
  rateLimit: flag.parsedOr('--rate-limit <n>', 'rateLimit', rateLimitFlag, 300, '"300"'),
  json: flag.bool('--json', 'json'),
  quiet: flag.bool('--quiet', 'quiet'),
  strict: flag.bool('--strict', 'strict'),
  compare: flag.text('--compare <yyyy|dir>', 'compare', { conflicts: ['compareFrom', 'compareTo'] }),
  compareFrom: flag.parsed('--compare-from <date>', 'compareFrom', dateFlag('--compare-from')),
  compareTo: flag.parsed('--compare-to <date>', 'compareTo', dateFlag('--compare-to')),
  threshold: flag.parsed('--threshold <percent>', 'threshold', thresholdFlag),
  // --plausibility was the switch before the review ran by default; older scripts keep working.
  plausibility: flag.bool('--no-plausibility', 'noPlausibility', { alias: '--plausibility' }),
  unitRefs: flag.text('--unit-refs <file>', 'unitRefs'),
};
export type ExportCommandFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, ACCESS_WITHDRAWN, UNAVAILABLE, NEEDS_REVIEW, INTERRUPTED } = ExitCode;
export const exportCommand = defineCommand({
  name: 'export',
  help: () => h.export({ kinds: formatLabels() }),
  flags,
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [NOT_SIGNED_IN, 'exit3'],
    [ACCESS_WITHDRAWN, 'exit4'],
    [UNAVAILABLE, 'exit5'],
    [NEEDS_REVIEW, 'exit6'],
    [INTERRUPTED, 'exit130'],
  ],
  writesFiles: true,
  load: () => import('./run.js'),
});
