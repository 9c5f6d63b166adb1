// The one place that wires commands and turns errors into exit statuses.
// Command modules are imported lazily so that `--help` loads neither Ink nor exceljs.
import { Command, CommanderError, Option } from 'commander';
import { checkValues, commanderUsageError, conflictMessage, exitCodesHelp, helpConfiguration, wholeNumber, type CommandName } from './cli-help.js';
import { dateFlag, parseClock, yearFlag } from './core/dates.js';
import { diskError } from './core/disk.js';
import { describeError, ExitCode, failureJson, formatError, InterruptedError, isMeterdataError, UsageError, wasToldInJson } from './core/errors.js';
import type { Io } from './core/io.js';
import { quietNodeWarnings } from './core/node-warnings.js';
import { packageVersion } from './core/resources.js';
import { formatFlag, metricFlag, propertyFlag, rateLimitFlag } from './export/options.js';
import { thresholdFlag } from './export/review-options.js';
import { dateTexts } from './core/texts-dates.js';
import { optionTexts } from './export/texts-options.js';
import { isLang, languageFromArgv, languageFromEnv, LANGUAGES, setLanguage } from './i18n/index.js';
import { loginTexts } from './commands/texts-auth.js';
import { demoText } from './commands/texts-export.js';
import { cliTexts } from './texts-cli.js';
import { helpTexts as h } from './texts-cli-options.js';

/** A command module's run(), taking its own typed flags as commander parsed and checked them. */
type Handler<T> = (opts: T, io: Io, args: string[]) => Promise<number | void>;

function action<T extends object>(io: Io, load: () => Promise<{ run: Handler<T> }>) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const { run } = await load();
    const opts = cmd.optsWithGlobals<T & Record<string, unknown>>();
    jsonAsked = opts.json === true;
    const code = await run({ ...opts }, io, cmd.args);
    if (typeof code === 'number') exitCode = code;
  };
}

let exitCode: number = ExitCode.OK;
let failedCommand: string | undefined;
/** As the command parsed its flags: --json given. Unset where parsing failed (then argv tells). */
let jsonAsked: boolean | undefined;

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

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** login --timeout: how long to wait for the sign-in's answer, in seconds (fractions allowed). */
const seconds = (value: string): number => {
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n <= 0) throw new UsageError(loginTexts.badTimeout({ value }), cliTexts.example({ text: '--timeout 300' }));
  return n;
};

/** demo --units: the embedded sandbox's size, said as the demo always said it. */
const demoUnits = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 50_000) throw new UsageError(demoText.badUnits({ raw: value }), cliTexts.example({ text: '--units 60' }));
  return Number(value);
};

// One sentence for the pairs that exclude each other, as the commands always said it.
conflictMessage('--year', () => ({ message: dateTexts.yearWithRange({ year: '--year', from: '--from', to: '--to' }), hint: dateTexts.yearWithRangeHint }));
conflictMessage('--compare', () => ({ message: optionTexts.compareWithPair, hint: optionTexts.compareWithPairHint }));

/** --year, or --from and --to: export and browse read them with the same parsers. */
function period(cmd: Command, texts: { year: string; from: string; to: string }): Command {
  return cmd
    .addOption(new Option('--year <yyyy>', texts.year).argParser(yearFlag('--year')).conflicts(['from', 'to']))
    .addOption(new Option('--from <date>', texts.from).argParser(dateFlag('--from')))
    .addOption(new Option('--to <date>', texts.to).argParser(dateFlag('--to')));
}

function build(io: Io): Command {
  const program = new Command('meterdata')
    .description(h.program)
    .usage(`${cliTexts.optionsPlaceholder} ${cliTexts.commandPlaceholder}`)
    .version(packageVersion(), '-V, --version', cliTexts.version)
    .helpOption('-h, --help', cliTexts.help)
    .helpCommand(`help ${cliTexts.commandPlaceholder}`, cliTexts.help)
    .configureHelp(helpConfiguration)
    .addHelpText('after', exitCodesHelp('meterdata'))
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's own errors are reworded in main(), like every other error.
      outputError: () => undefined,
    });

  program.addOption(langOption());
  const profile = () => new Option('--profile <name>', h.profile);
  const command = (name: CommandName, description: string) => program.command(name).description(description).usage(cliTexts.optionsPlaceholder);

  command('login', h.login)
    .addOption(profile())
    .addOption(new Option('--env <env>', h.env).choices(['sandbox', 'production']))
    .option('--auth-url <url>', h.authUrl)
    .option('--base-url <url>', h.baseUrl)
    .option('--client-id <id>', h.clientId)
    .addOption(new Option('--client-auth <method>', h.clientAuth).choices(['none', 'client_secret_basic', 'private_key_jwt']))
    .option('--client-secret-stdin', h.clientSecretStdin)
    .option('--private-key <file>', h.privateKey)
    .option('--kid <kid>', h.kid)
    .addOption(new Option('--alg <alg>', h.alg).choices(['RS256', 'PS256', 'ES256']))
    .option('--dpop', h.dpop)
    .option('--scope <scopes>', h.scope)
    .option('--no-browser', h.noBrowser)
    .addOption(new Option('--credential-store <store>', h.credentialStore).choices(['keychain', 'file']))
    .addOption(new Option('--timeout <seconds>').argParser(seconds).default(300).hideHelp())
    .action(action(io, () => import('./commands/login.js')));

  command('logout', h.logout)
    .addOption(profile())
    .option('--local-only', h.localOnly)
    .action(action(io, () => import('./commands/logout.js')));

  command('status', h.status)
    .addOption(profile())
    .option('--json', h.statusJson)
    .option('--all', h.all)
    .action(action(io, () => import('./commands/status.js')));

  command('token', h.token)
    .addOption(profile())
    .action(action(io, () => import('./commands/token.js')));

  const exp = command('export', h.export)
    .addOption(profile())
    .option('--all-profiles', h.allProfiles)
    .option('--profiles <list>', h.profiles);
  period(exp, h)
    .addOption(new Option('--property <id>', h.property).argParser(propertyFlag))
    .addOption(new Option('--metric <list>', h.metric).argParser(metricFlag))
    .addOption(new Option('--format <list>', h.format).argParser(formatFlag).default(['csv', 'xlsx'], '"csv,xlsx"'))
    .option('--out <dir>', h.out)
    .option('--template <name|file>', h.template, 'generic')
    .addOption(new Option('--rate-limit <n>', h.rateLimit).argParser(rateLimitFlag).default(300, '"300"'))
    .option('--json', h.json)
    .option('--quiet', h.quiet)
    .option('--strict', h.strict)
    .addOption(new Option('--compare <yyyy|dir>', h.compare).conflicts(['compareFrom', 'compareTo']))
    .addOption(new Option('--compare-from <date>', h.compareFrom).argParser(dateFlag('--compare-from')))
    .addOption(new Option('--compare-to <date>', h.compareTo).argParser(dateFlag('--compare-to')))
    .addOption(new Option('--threshold <percent>', h.threshold).argParser(thresholdFlag))
    // --plausibility was the switch before the review ran by default; older scripts keep working.
    .addOption(new Option('--plausibility').hideHelp())
    .option('--no-plausibility', h.noPlausibility)
    .option('--unit-refs <file>', h.unitRefs)
    .action(action(io, () => import('./commands/export.js')));

  period(command('browse', h.browse).addOption(profile()), { year: h.browseYear, from: h.browseFrom, to: h.browseTo })
    .action(action(io, () => import('./commands/browse.js')));

  const limitOff = `300 ${cliTexts.limitOff}`;
  command('sandbox', h.sandbox)
    .addOption(new Option('--port <n>', h.port).argParser(wholeNumber('--port', 0, 65535, `0 ${cliTexts.anyFreePort}`)).default(0, '"0"'))
    .option('--seed <s>', h.seed, '1')
    .addOption(new Option('--units <n>', h.units).argParser(wholeNumber('--units', 1, 50000, '60')))
    .option('--auto-consent', h.autoConsent)
    .addOption(new Option('--clock <date>', h.clock).argParser((v) => (parseClock(v), v)))
    .option('--admin', h.admin)
    .option('--clients <file>', h.clients)
    .option('--future-contract', h.futureContract)
    .addOption(new Option('--fault <spec>', h.fault).argParser(collect))
    .addOption(new Option('--rate-limit <n>', h.sandboxRateLimit).argParser(wholeNumber('--rate-limit', 0, 1_000_000, limitOff)))
    .addOption(new Option('--oauth-rate-limit <n>', h.oauthRateLimit).argParser(wholeNumber('--oauth-rate-limit', 0, 1_000_000, `60 ${cliTexts.limitOff}`)))
    .action(action(io, () => import('./commands/sandbox.js')));

  command('demo', h.demo)
    .option('--out <dir>', h.demoOut, 'meterdata-demo')
    .addOption(new Option('--units <n>', h.demoUnits).argParser(demoUnits))
    .action(action(io, () => import('./commands/demo.js')));

  checkValues(program);
  for (const cmd of program.commands) {
    cmd.addOption(langOption());
    // Cron jobs and scripts branch on these: every command's --help lists its own.
    cmd.addHelpText('after', exitCodesHelp(cmd.name() as CommandName));
    checkValues(cmd);
    // Remember which command rejected its arguments, so the hint names its --help.
    cmd.configureOutput({ ...cmd.configureOutput(), outputError: () => (failedCommand = cmd.name()) });
  }
  return program;
}

/** Runs the CLI and returns the exit status; never calls process.exit itself. */
export async function main(argv: string[], io?: Io): Promise<number> {
  const ctx = io ?? processIo();
  exitCode = ExitCode.OK;
  failedCommand = undefined;
  jsonAsked = undefined;
  // Before the program is built: its help texts are rendered in this language.
  const asked = languageFromArgv(argv);
  setLanguage(isLang(asked) ? asked : languageFromEnv(ctx.env, ctx.locale));
  const program = build(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError && e.exitCode === 0) return ExitCode.OK; // help and version
    // `meterdata` alone: commander has already printed the help (to stderr)
    if (e instanceof CommanderError && e.code === 'commander.help') return ExitCode.USAGE;
    // a file of meterdata's own on a full or failing disk (config.json after a refresh …): told as such, not as a bug
    let shown = e instanceof CommanderError ? commanderUsageError(e, failedCommand) : (diskError(e) ?? e);
    let { text, exitCode: code } = formatError(shown);
    // Whatever a command made of the abort, the run was interrupted: 130, never a stack trace.
    if (ctx.signal.aborted && !(e instanceof CommanderError)) {
      if (!isMeterdataError(e)) ({ text } = formatError((shown = ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError(cliTexts.interrupted, { hint: cliTexts.interruptedHint }))));
      code = ExitCode.INTERRUPTED;
    }
    ctx.stderr.write(`${text}\n`);
    // Scripts read the failure of a command given --json on stdout, as its other answers.
    if ((jsonAsked ?? asksJson(program, argv)) && !wasToldInJson(shown)) ctx.stdout.write(`${failureJson({ ...describeError(shown), exitCode: code })}\n`);
    return code;
  }
}

function processIo(): Io {
  // A dependency's deprecated call (DEP0005 in the executable's bundle) is no concern of the user's.
  quietNodeWarnings();
  const controller = new AbortController();
  // The first Ctrl-C asks the running command to stop cleanly (temp files removed,
  // journal kept); a second one ends the process at once. Listeners stay installed:
  // with `once`, proper-lockfile's signal-exit handler would re-raise the signal and
  // kill the process before the command could clean up.
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED);
    controller.abort(new InterruptedError(cliTexts.interruptedBy({ signal }), { hint: cliTexts.interruptedHint }));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd(), signal: controller.signal, isolate: true };
}
