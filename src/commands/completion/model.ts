// What a shell can complete, read off the command list's declarations: each command with
// its documented flags (and the --lang and --help every command takes), the fixed values
// of a flag or argument, and the help texts in the run's language.
import type { AnyCommand } from '../define.js';
import { LANGUAGES } from '../../i18n/index.js';
import { helpTexts as h } from '../../texts-cli-options.js';
import { cliTexts } from '../../texts-cli.js';

export interface CompletionFlag {
  long: string;
  short?: string;
  takesValue: boolean;
  /** Fixed values, offered first. */
  choices: readonly string[];
  /** Else: file names (a file or folder is asked for) or nothing (a date, a name, a number). */
  files: boolean;
  help: string;
}

export interface CompletionCommand {
  name: string;
  help: string;
  flags: CompletionFlag[];
  /** Fixed values of its positional argument. */
  args: readonly string[];
}

export interface CompletionModel {
  program: string;
  globals: CompletionFlag[];
  commands: CompletionCommand[];
}

export function completionModel(commands: readonly AnyCommand[]): CompletionModel {
  const lang: CompletionFlag = { long: '--lang', takesValue: true, files: false, choices: LANGUAGES, help: h.lang };
  const help: CompletionFlag = { long: '--help', short: '-h', takesValue: false, files: false, choices: [], help: cliTexts.help };
  const declared = commands.map((c) => ({
    name: c.name,
    help: c.help(),
    flags: [
      ...Object.values(c.flags)
        .filter((f) => !f.hidden)
        .map((f) => ({ long: f.long, takesValue: f.takesValue, files: f.files, choices: f.choices, help: f.help() })),
      lang,
      help,
    ],
    args: (c.args ?? []).flatMap((a) => a.choices),
  }));
  // Commander's own `help [command]`.
  const helpCommand = { name: 'help', help: cliTexts.help, flags: [], args: commands.map((c) => c.name) };
  const version: CompletionFlag = { long: '--version', short: '-V', takesValue: false, files: false, choices: [], help: cliTexts.version };
  return { program: 'meterdata', globals: [help, version, lang], commands: [...declared, helpCommand] };
}
