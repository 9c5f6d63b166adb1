// `meterdata demo`: the whole job against an embedded sandbox.
import { ExitCode, UsageError } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { cliTexts } from '../../texts-cli.js';
import { defineCommand } from '../define.js';
import { helpTexts as h } from './texts.js';
import { demoText } from '../texts-export.js';

/** --units: the embedded sandbox's size, said as the demo always said it. */
const demoUnits = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 50_000)
    throw new UsageError(demoText.badUnits({ raw: value }), cliTexts.example({ text: '--units 60' }));
  return Number(value);
};

const flag = flagsFrom(h);
const flags = {
  out: flag.textOr('--out <dir>', 'demoOut', 'meterdata-demo'),
  units: flag.parsed('--units <n>', 'demoUnits', demoUnits),
};
export type DemoFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, UNAVAILABLE, INTERRUPTED } = ExitCode;
export const demo = defineCommand({
  name: 'demo',
  help: () => h.demo,
  flags,
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [NOT_SIGNED_IN, 'exit3'],
    [UNAVAILABLE, 'exit5'],
    [INTERRUPTED, 'exit130'],
  ],
  writesFiles: true,
  load: () => import('./run.js'),
});
