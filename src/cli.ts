// The one place that wires commands and turns errors into exit statuses.
// Command modules are imported lazily so that `--help` loads neither Ink nor exceljs.
import { writeSync } from 'node:fs';
import { Argument, Command, CommanderError, Option } from 'commander';
import { checkChoice, checkValues, commanderUsageError, exitCodesHelp, helpConfiguration, PROGRAM_EXITS } from './cli-help.js';
import { createContext, type CommandContext, type ContextParts } from './commands/context.js';
import type { AnyCommand } from './commands/define.js';
import { COMMANDS } from './commands/list.js';
import { diskError } from './core/disk.js';
import { describeError, ExitCode, failureJson, formatError, InterruptedError, isMeterdataError, MeterdataError, wasToldInJson } from './core/errors.js';
import type { Io } from './core/io.js';
import { quietNodeWarnings } from './core/node-warnings.js';
import { pauseAt } from './auth/test-hooks.js';
import { HomeUnknownError } from './core/paths.js';
import { packageVersion } from './core/resources.js';
import { isLang, languageFromArgv, languageFromEnv, LANGUAGES, setLanguage } from './i18n/index.js';
import { cliTexts } from './texts-cli.js';
import { helpTexts as h } from './texts-cli-options.js';

/** For the launcher (bin/meterdata.js, src/sea/main.ts): the process's end once the CLI is done. */
import { endWhenDrained as endAfter, type Ending } from './core/process-end.js';

/**
 * The launcher's end of the process (src/core/process-end.ts), saying in the run's language why a signal cut its
 * output: the files are complete only after a command that writes them (round 36b F6: said after `status` too).
 * `command`: the one main() ran (a test names it).
 */
export const endWhenDrained = (proc: Ending = process, everyMs = 1000, command = commandRun): void => {
  const files = COMMANDS.some((c) => c.name === command && c.writesFiles === true);
  const line = (p: { signal: string; code: number; complete: boolean; stopped: boolean }) =>
    p.stopped
      ? cliTexts.outputUnread({ signal: p.signal, files: files && p.complete })
      : !p.complete
        ? cliTexts.outputCutFailed(p)
        : files
          ? cliTexts.outputCutBySignal(p)
          : cliTexts.outputCut(p);
  endAfter(proc, everyMs, line, signalled);
};

let exitCode: number = ExitCode.OK;
let failedCommand: string | undefined;
/** As the command parsed its flags: --json given. Unset where parsing failed (then argv tells). */
let jsonAsked: boolean | undefined;
/**
 * Something reached stdout (an answer, a multi-profile run's objects, the failure's object): a second Ctrl-C
 * after it adds no object of its own, which a script reading one object per profile could not place (round 32 F14).
 */
let stdoutWritten = false;
/** main() has returned: a signal is the launcher's to handle now (src/core/process-end.ts), whatever came before it. */
let returned = false;
/** The command main() ran last (for the launcher's line: endWhenDrained). */
let commandRun: string | undefined;
/** The signal that asked this process to stop (the launcher then waits for a slow reader only briefly). */
let signalled: NodeJS.Signals | undefined;

function action(context: () => CommandContext, load: AnyCommand['load']) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    commandRun = cmd.name();
    const { run } = await load();
    const opts = cmd.optsWithGlobals<Record<string, unknown>>();
    jsonAsked = opts.json === true;
    const code = await run({ ...opts } as never, context(), cmd.args);
    if (typeof code === 'number') exitCode = code;
  };
}

/**
 * The command argv names takes --json and argv gives it: read from argv, because a flag commander
 * refuses ends its parsing (`export --yaer 2025 --json`), also of the global --lang given after it.
 */
function asksJson(program: Command, argv: string[]): boolean {
  const args = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const name = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '--lang');
  const cmd = program.commands.find((c) => c.name() === name);
  return cmd !== undefined && cmd.options.some((o) => o.long === '--json') && args.includes('--json');
}

/** Every command takes it; main() has already read it from argv, before any text was built. */
const langOption = () => new Option('--lang <lang>', h.lang).choices([...LANGUAGES]);

/**
 * A declared command as commander's subcommand, its flags in declaration order, --lang last.
 * Only a command argv names can run or show its own help (`export --help`, `help export`):
 * the others keep their name, arguments and description for the program's help, and --lang
 * (which that help's "[options]" stands for), as building every flag is a part of each start.
 */
function addCommand(program: Command, context: () => CommandContext, c: AnyCommand, named: boolean): void {
  const args = (c.args ?? []).map((a) => ` <${a.name}>`).join('');
  const cmd = program.command(c.name).description(c.help()).usage(`${cliTexts.optionsPlaceholder}${args}`);
  for (const a of c.args ?? []) cmd.addArgument(checkChoice(cmd, new Argument(`<${a.name}>`, a.help()).choices([...a.choices])));
  cmd.action(action(context, c.load));
  if (!named) {
    cmd.addOption(langOption());
    return;
  }
  for (const [key, f] of Object.entries(c.flags)) {
    for (const o of f.build(Option)) {
      // The handler's type is inferred from the key: it must be the name commander stores the value under.
      if (o.attributeName() !== key) throw new Error(`${c.name} ${f.long}: declared as ${key}, parsed as ${o.attributeName()}`);
      cmd.addOption(o);
    }
  }
  cmd.addOption(langOption());
  // Cron jobs and scripts branch on these: every command's --help lists its own.
  cmd.addHelpText('after', exitCodesHelp(c.exits));
  checkValues(cmd);
  // Remember which command rejected its arguments, so the hint names its --help.
  cmd.configureOutput({ ...cmd.configureOutput(), outputError: () => (failedCommand = cmd.name()) });
}

function build(io: Io, parts: ContextParts, argv: string[]): Command {
  const program = new Command('meterdata')
    .description(h.program)
    .usage(`${cliTexts.optionsPlaceholder} ${cliTexts.commandPlaceholder}`)
    .version(packageVersion(), '-V, --version', cliTexts.version)
    .helpOption('-h, --help', cliTexts.help)
    .helpCommand(`help ${cliTexts.commandPlaceholder}`, cliTexts.help)
    .configureHelp(helpConfiguration)
    .addHelpText('after', exitCodesHelp(PROGRAM_EXITS))
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's own errors are reworded in main(), like every other error.
      outputError: () => undefined,
    });
  program.addOption(langOption());
  checkValues(program);
  // Built once, when a command runs (not for --help).
  let context: CommandContext | undefined;
  for (const c of COMMANDS) addCommand(program, () => (context ??= createContext(io, parts)), c, argv.includes(c.name));
  return program;
}

/** Runs the CLI and returns the exit status; never calls process.exit itself. `parts` replace the context's (tests). */
export async function main(argv: string[], io?: Io, parts: ContextParts = {}): Promise<number> {
  const ctx = io ?? processIo();
  exitCode = ExitCode.OK;
  failedCommand = undefined;
  jsonAsked = undefined;
  stdoutWritten = false;
  returned = false;
  commandRun = undefined;
  // Before the program is built: its help texts are rendered in this language.
  const asked = languageFromArgv(argv);
  setLanguage(isLang(asked) ? asked : languageFromEnv(ctx.env, ctx.locale));
  const program = build(ctx, parts, argv);
  try {
    // Anything relative (a path, Node's own path.resolve) needs it: one line, not a stack of process.cwd() (round 32 F12).
    if (io === undefined && workingFolderGone)
      throw new MeterdataError(cliTexts.noWorkingFolder, { code: 'WORKING_FOLDER_GONE', exitCode: ExitCode.USAGE, hint: cliTexts.noWorkingFolderHint });
    await program.parseAsync(argv, { from: 'user' });
    return await outputKept(ctx, exitCode);
  } catch (e) {
    if (e instanceof CommanderError && e.exitCode === 0) return ExitCode.OK; // help and version
    // `meterdata` alone: commander has already printed the help (to stderr)
    if (e instanceof CommanderError && e.code === 'commander.help') return ExitCode.USAGE;
    // a file of meterdata's own on a full or failing disk (config.json after a refresh …): told as such, not as a bug
    let shown = e instanceof CommanderError ? commanderUsageError(e, failedCommand) : (diskError(e) ?? homeUnknown(e) ?? e);
    let { text, exitCode: code } = formatError(shown);
    // Whatever a command made of the abort, the run was interrupted: 130, never a stack trace.
    if (ctx.signal.aborted && !(e instanceof CommanderError)) {
      const interrupted =
        ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError(cliTexts.interrupted, { hint: cliTexts.interruptedHint });
      if (!isMeterdataError(e)) ({ text } = formatError((shown = interrupted)));
      // Another failure met on the way out (the root taken over): told too, but the code is the signal's, as its
      // status is (round 27: one object paired EXPORT_OUT_TAKEN_OVER with 130).
      else if (e.exitCode !== ExitCode.INTERRUPTED) text = `${formatError((shown = interrupted)).text}\n${text}`;
      code = ExitCode.INTERRUPTED;
    }
    ctx.stderr.write(`${text}\n`);
    // Scripts read the failure of a command given --json on stdout, as its other answers.
    if ((jsonAsked ?? asksJson(program, argv)) && !wasToldInJson(shown) && !wasToldInJson(e)) {
      ctx.stdout.write(`${failureJson({ ...describeError(shown), exitCode: code })}\n`);
    }
    return code;
  } finally {
    // where the kill tests send a second signal after the command's own output (src/auth/test-hooks.ts)
    await pauseAt(ctx.env, 'CLI_END', (l) => ctx.stderr.write(l));
    returned = true;
  }
}

/** No home folder to keep meterdata's files in (src/core/paths.ts): told as the user's to fix, not as a bug. */
function homeUnknown(e: unknown): MeterdataError | null {
  if (!(e instanceof HomeUnknownError)) return null;
  if (e.relative !== undefined)
    return new MeterdataError(cliTexts.homeRelative({ value: e.relative }), {
      code: 'HOME_UNKNOWN',
      exitCode: ExitCode.USAGE,
      hint: cliTexts.homeRelativeHint,
    });
  return new MeterdataError(cliTexts.noHome, { code: 'HOME_UNKNOWN', exitCode: ExitCode.USAGE, hint: cliTexts.noHomeHint });
}

/** The working folder was removed (or moved) under the process: main refuses to run (process.cwd() throws). */
let workingFolderGone = false;

function workingFolder(): string {
  try {
    return process.cwd();
  } catch {
    workingFolderGone = true;
    return '/';
  }
}

/** Why stdout failed, where it did not merely lose its reader (guardOutput); undefined while it works. */
let stdoutFailed: string | undefined;
let guarded = false;

/**
 * A failed write to stdout or stderr ends nothing: the reader went away (`| head`, a log reader that died:
 * EPIPE), the terminal did (EIO), or the disk under a redirected log is full (ENOSPC) — the messages are
 * dropped and the run finishes with the status its work gives. Exiting at the first EPIPE once ended an
 * export mid-walk with 0 and nothing written; rethrowing ENOSPC ended it with a stack and its partial files.
 * stdout lost otherwise than by its reader leaving is told at the end (outputKept): a script's answer is gone.
 */
function guardOutput(): void {
  if (guarded) return;
  guarded = true;
  noteStdoutWrites();
  process.stderr.on('error', () => {});
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'EIO') stdoutFailed ??= e.code ?? e.message;
  });
}

/** The run's status, or OUTPUT_WRITE_FAILED (exit 1) where it succeeded but what it printed on stdout was lost. */
async function outputKept(ctx: Io, code: number): Promise<number> {
  // a failed write is told by an event after it: the last lines' (the --json answer) come a turn later
  if (code === ExitCode.OK && guarded) await new Promise((resolve) => setImmediate(resolve));
  if (code !== ExitCode.OK || stdoutFailed === undefined) return code;
  const lost = new MeterdataError(cliTexts.outputLost({ reason: stdoutFailed }), {
    code: 'OUTPUT_WRITE_FAILED',
    exitCode: ExitCode.UNEXPECTED,
    hint: cliTexts.outputLostHint,
  });
  ctx.stderr.write(`${formatError(lost).text}\n`);
  return lost.exitCode;
}

/** Every write to stdout, the worker threads' forwarded ones included, noted for the second signal's stop. */
function noteStdoutWrites(): void {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((...args: Parameters<typeof write>) => {
    stdoutWritten = true;
    return write(...args);
  }) as typeof process.stdout.write;
}

function processIo(): Io {
  // A dependency's deprecated call (DEP0005 in the executable's bundle) is no concern of the user's.
  quietNodeWarnings();
  guardOutput();
  const controller = new AbortController();
  // The first Ctrl-C (or SIGTERM, SIGHUP) asks the running command to stop cleanly (temp files removed,
  // journal kept); a second one ends the process at once. Listeners stay installed:
  // with `once`, proper-lockfile's signal-exit handler would re-raise the signal and
  // kill the process before the command could clean up.
  const stop = (signal: NodeJS.Signals) => {
    // round 34 F2: a first signal absorbed by the commit made a second one after the run a bare 130, the launcher's
    // line (the files are complete) never said
    if (returned) return;
    if (controller.signal.aborted) {
      // Exiting at once leaves no turn for the command's error path: a script given --json still reads why (written before exit returns).
      if (jsonAsked === true && !stdoutWritten) {
        const interrupted = new InterruptedError(cliTexts.interruptedBy({ signal }), { hint: cliTexts.interruptedHint });
        try {
          writeSync(1, `${failureJson({ ...describeError(interrupted), exitCode: ExitCode.INTERRUPTED })}\n`);
        } catch {
          // stdout gone or full: the status below still says it
        }
      }
      process.exit(ExitCode.INTERRUPTED);
    }
    signalled = signal;
    controller.abort(new InterruptedError(cliTexts.interruptedBy({ signal }), { hint: cliTexts.interruptedHint }));
  };
  // SIGHUP (the terminal closed, an ssh session dropped) as SIGTERM: killed by it, a run left its
  // locks and said nothing. Node.js undoes an ignore inherited from `nohup` when it starts (the
  // process dies of SIGHUP without a listener), so a nohup start cannot be told apart: docs/export.md.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // read when a command reads it: making process.stdin loads Node's file streams and fs/promises (bench/README.md, "Start-up")
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: workingFolder(),
    signal: controller.signal,
    isolate: true,
  };
}
