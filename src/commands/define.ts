// What a command declares, once, in src/commands/<verb>/index.ts: its name, help, flags
// (their values' types inferred for the handler), exit codes and the handler, imported
// only when the command runs (so `--help` loads neither Ink nor exceljs).
import { conflictMessage } from '../cli-help.js';
import { dateFlag, yearFlag } from '../core/dates.js';
import { dateTexts } from '../core/texts-dates.js';
import { flagsFrom, type FlagBuilders, type Flags, type FlagValues } from '../core/flags.js';
import { helpTexts } from '../texts-cli-options.js';
import type { CommandContext } from './context.js';
import type { cliTexts } from '../texts-cli.js';

export type ExitText = keyof typeof cliTexts & `exit${string}`;

/** A command module's run(), taking its own flags as commander parsed and checked them. */
export type Handler<T> = (opts: T, ctx: CommandContext, args: string[]) => Promise<number | void>;

export interface CommandDeclaration<F extends Flags> {
  name: string;
  /** Its line in `meterdata --help`, in the run's language (from its catalogue, texts.ts beside it). */
  help: () => string;
  flags: F;
  /** Positional arguments with their fixed values (completion's shell). */
  args?: { name: string; help: () => string; choices: readonly string[] }[];
  /** What the command can end with, in its --help (cron jobs and scripts branch on these). */
  exits: readonly (readonly [number, ExitText])[];
  /** Its success means files written: where a signal cut its output, the line says the files are complete (round 36b F6). */
  writesFiles?: true;
  load: () => Promise<{ run: Handler<FlagValues<F>> }>;
}

export function defineCommand<F extends Flags>(declaration: CommandDeclaration<F>): CommandDeclaration<F> {
  return declaration;
}

/** Every command that signs in takes it. */
export const profileFlag = () => flagsFrom(helpTexts).text('--profile <name>', 'profile');

/** --year, or --from and --to: export and browse read them with the same parsers. */
export const periodFlags = <C extends object>(flag: FlagBuilders<C>, keys: { year: keyof C & string; from: keyof C & string; to: keyof C & string }) => ({
  year: flag.parsed('--year <yyyy>', keys.year, yearFlag('--year'), { conflicts: ['from', 'to'] }),
  from: flag.parsed('--from <date>', keys.from, dateFlag('--from')),
  to: flag.parsed('--to <date>', keys.to, dateFlag('--to')),
});

// One sentence for --year with --from/--to, as export and browse always said it.
conflictMessage('--year', () => ({ message: dateTexts.yearWithRange({ year: '--year', from: '--from', to: '--to' }), hint: dateTexts.yearWithRangeHint }));

/** Any command of the list, its handler's flag types erased (cli.ts hands over what commander parsed). */
export type AnyCommand = Omit<CommandDeclaration<Flags>, 'load'> & { load: () => Promise<{ run: Handler<never> }> };
