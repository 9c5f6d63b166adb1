// Commander in the run's language, through its own hooks: the help's headings, choices and
// defaults (configureHelp), each command's exit codes (addHelpText), every value checked as
// it is read (argParser), and commander's errors as meterdata usage errors.
import { CommanderError, InvalidArgumentError, type Argument, type Command, type HelpConfiguration, type Option } from 'commander';
import { ExitCode, UsageError } from './core/errors.js';
import { commanderUsageCode } from './core/codes.js';
import { words } from './i18n/common.js';
import { cliTexts as t } from './texts-cli.js';

type ExitText = keyof typeof t & `exit${string}`;
const { OK, UNEXPECTED: BUG, USAGE, NOT_SIGNED_IN: AUTH, ACCESS_WITHDRAWN: WITHDRAWN, UNAVAILABLE: DOWN, NEEDS_REVIEW: STRICT, INTERRUPTED } = ExitCode;

/** What `meterdata` itself can end with; each command declares its own (src/commands/<verb>/index.ts). */
export const PROGRAM_EXITS: readonly (readonly [number, ExitText])[] = [
  [OK, 'exit0'],
  [BUG, 'exit1'],
  [USAGE, 'exit2'],
  [AUTH, 'exit3'],
  [WITHDRAWN, 'exit4'],
  [DOWN, 'exit5'],
  [STRICT, 'exit6'],
  [INTERRUPTED, 'exit130'],
];

/** The exit codes a --help lists (rendered when the help is shown, in the run's language). */
export function exitCodesHelp(exits: readonly (readonly [number, ExitText])[]): () => string {
  return () => `\n${t.exitCodes}\n${exits.map(([code, text]) => `  ${String(code).padEnd(2)} ${t[text]}`).join('\n')}\n`;
}

const HEADINGS: Record<string, () => string> = {
  'Usage:': () => t.usage,
  'Arguments:': () => t.arguments,
  'Options:': () => t.options,
  'Commands:': () => t.commands,
  'Global Options:': () => t.globalOptions,
};

/** Commander's Help with its headings, choices and defaults in the run's language. */
export const helpConfiguration: HelpConfiguration = {
  styleTitle: (heading: string) => HEADINGS[heading]?.() ?? heading,
  // Commander's own term hard-codes "[options]".
  subcommandTerm(cmd: Command): string {
    const args = cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`));
    return [cmd.name(), ...(cmd.options.length ? [t.optionsPlaceholder] : []), ...args].join(' ');
  },
  argumentDescription(argument: Argument): string {
    return argument.argChoices
      ? `${argument.description} (${t.choicesAre({ list: argument.argChoices.map((c) => JSON.stringify(c)).join(', ') })})`
      : argument.description;
  },
  optionDescription(option: Option): string {
    const extra: string[] = [];
    if (option.argChoices) extra.push(t.choicesAre({ list: option.argChoices.map((c) => JSON.stringify(c)).join(', ') }));
    if (option.defaultValue !== undefined && (option.required || option.optional)) {
      extra.push(t.defaultIs({ value: option.defaultValueDescription ?? JSON.stringify(option.defaultValue) }));
    }
    return extra.length ? `${option.description} (${extra.join(', ')})`.trim() : option.description;
  },
};

/**
 * Every value-taking option checks its value as commander reads it: an empty one is refused
 * (`--out ""` or `--property "$UNSET"` is a mistake, never a choice: read as "not given" it
 * would widen an export to every Property or write into the current folder), then the
 * option's own parser or choices run, each error naming the flag.
 */
export function checkValues(cmd: Command): void {
  for (const o of cmd.options) {
    if (!o.required && !o.optional) continue;
    const inner = o.parseArg;
    const flag = o.long ?? o.flags;
    o.argParser((value: string, previous: unknown) => {
      if (value.trim() === '') throw new UsageError(t.emptyValue({ flag }), t.emptyValueHint({ flag }), 'USAGE_EMPTY_VALUE');
      if (!inner) return value;
      try {
        return inner(value, previous);
      } catch (e) {
        if (!(e instanceof InvalidArgumentError) || !o.argChoices) throw e;
        throw new UsageError(
          t.invalidChoice({ flags: o.flags, value, choices: o.argChoices.join(', ') }),
          seeHelp(cmd.parent ? cmd.name() : undefined),
          'USAGE_INVALID_ARGUMENT',
        );
      }
    });
  }
}

/** A positional argument with fixed values (completion's shell), refused in the run's language and naming the command's --help. */
export function checkChoice(cmd: Command, argument: Argument): Argument {
  const choices = argument.argChoices ?? [];
  return argument.argParser((value: string) => {
    if (choices.includes(value)) return value;
    throw new UsageError(t.argumentChoice({ name: argument.name(), value, choices: choices.join(', ') }), seeHelp(cmd.name()), 'USAGE_INVALID_ARGUMENT');
  });
}

/** A whole number within bounds (sandbox's --port, --units, rate limits), the error naming the flag. */
export function wholeNumber(flag: string, min: number, max: number, example: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max)
      throw new UsageError(t.notWholeNumber({ flag, min, max, value }), t.example({ text: `${flag} ${example}` }));
    return n;
  };
}

function seeHelp(command: string | undefined): string {
  return words.seeHelp({ command: command ? `${command} ` : '' });
}

/** Conflicts declared with `.conflicts()` whose message is better said as one sentence. */
const CONFLICTS = new Map<string, () => { message: string; hint?: string }>();
export function conflictMessage(long: string, text: () => { message: string; hint?: string }): void {
  CONFLICTS.set(long, text);
}

const quoted = (s: string) => /^'(.*)'$/.exec(s)?.[1] ?? s;
const longOf = (flags: string) => /--[\w-]+/.exec(flags)?.[0] ?? flags;

function suggestion(rest: string): string {
  const m = /^\(Did you mean (one of )?(.+)\?\)$/.exec(rest.trim());
  if (!m) return '';
  return m[1] ? t.didYouMeanOneOf({ names: m[2]! }) : t.didYouMean({ name: m[2]! });
}

/**
 * Commander's error (exitOverride hands over its code and message) as a meterdata usage error
 * in the run's language: the parts commander names (flag, command, suggestion) are read from
 * its message by the error's code; the sentence around them is ours.
 */
export function commanderUsageError(e: CommanderError, command: string | undefined): UsageError {
  const [first = '', ...more] = e.message.replace(/^error:\s*/, '').split('\n');
  const rest = more.join(' ');
  const code = commanderUsageCode(e.code);
  const hint = seeHelp(command);
  let m: RegExpExecArray | null;
  let message: string | undefined;
  if (e.code === 'commander.unknownOption' && (m = /^unknown option (.+)$/.exec(first)))
    message = t.unknownOption({ flag: quoted(m[1]!), suggestion: suggestion(rest) });
  else if (e.code === 'commander.unknownCommand' && (m = /^unknown command (.+)$/.exec(first)))
    message = t.unknownCommand({ name: quoted(m[1]!), suggestion: suggestion(rest) });
  else if (e.code === 'commander.optionMissingArgument' && (m = /^option (.+) argument missing$/.exec(first)))
    message = t.optionMissingArgument({ flags: quoted(m[1]!) });
  else if (e.code === 'commander.missingArgument' && (m = /^missing required argument (.+)$/.exec(first))) message = t.missingArgument({ name: quoted(m[1]!) });
  else if (e.code === 'commander.missingMandatoryOptionValue' && (m = /^required option (.+) not specified$/.exec(first)))
    message = t.missingMandatory({ flags: quoted(m[1]!) });
  else if (e.code === 'commander.conflictingOption' && (m = /^option (.+) cannot be used with option (.+)$/.exec(first))) {
    const [one, other] = [quoted(m[1]!), quoted(m[2]!)];
    const own = CONFLICTS.get(longOf(one))?.();
    if (own) return new UsageError(own.message, own.hint, code);
    message = t.conflicting({ one, other });
  } else if (
    e.code === 'commander.excessArguments' &&
    (m = /^too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+): (.*)\.$/.exec(first))
  ) {
    message = t.excessArguments({ command: m[1] ?? '', expected: Number(m[2]), got: Number(m[3]), list: m[4]! });
  }
  return new UsageError(message ?? t.invalidCall, hint, code);
}
