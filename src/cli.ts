// The one place that wires commands and turns errors into exit statuses.
// Command modules are imported lazily so that `--help` loads neither Ink nor exceljs.
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, formatError, InterruptedError, isMeterdataError, UsageError } from './core/errors.js';
import { commanderUsageCode } from './core/codes.js';
import type { Io } from './core/io.js';
import { packageVersion } from './core/resources.js';
import { isLang, languageFromArgv, languageFromEnv, LANGUAGES, setLanguage } from './i18n/index.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  unexpected failure (a bug: please report it)
  2  usage error (bad flag, date, file or argument)
  3  not signed in, the connection was revoked or expired, or a refresh answer was lost (run: meterdata login)
  4  access withdrawn: the landlord's property selection no longer covers the data
  5  service unavailable, rate-limited or out of bounds after retries (try again later)
  6  export --strict: files written, but values were not billed or need review
  130 interrupted (Ctrl-C or SIGTERM): nothing half-written; run the same command again
`;

type Handler = (opts: Record<string, unknown>, io: Io, args: string[]) => Promise<number | void>;
type Loader = () => Promise<{ run: Handler }>;

function action(io: Io, load: Loader) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const opts = { ...cmd.optsWithGlobals() };
    refuseEmptyValues(cmd, opts);
    const args = cmd.args;
    const { run } = await load();
    const code = await run(opts, io, args);
    if (typeof code === 'number') exitCode = code;
  };
}

let exitCode: number = ExitCode.OK;
let failedCommand: string | undefined;

/**
 * Commander's "error: unknown option '--yaer'\n(Did you mean --year?)" as a meterdata
 * usage error: one line naming the flag or command, the suggestion kept, a hint to --help.
 */
function commanderUsageError(e: CommanderError, command: string | undefined): UsageError {
  const [first = '', ...rest] = e.message.replace(/^error:\s*/, '').split('\n');
  const suggestion = rest.join(' ').trim().replace(/^\((.*)\)$/, '$1');
  const message = `${first.trim().replace(/\.$/, '')}${suggestion ? ` (${suggestion.charAt(0).toLowerCase()}${suggestion.slice(1)})` : ''}.`;
  return new UsageError(message, `See: meterdata ${command ? `${command} ` : ''}--help`, commanderUsageCode(e.code));
}

/**
 * `--out ""` or `--property "$UNSET"` is a mistake, never a choice: an empty value read
 * as "not given" would widen an export to every Property or write into the current folder.
 */
function refuseEmptyValues(cmd: Command, opts: Record<string, unknown>): void {
  for (const o of cmd.options) {
    const v = opts[o.attributeName()];
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => typeof x === 'string' && x.trim() === '')) {
      throw new UsageError(`${o.long ?? o.flags}: the value is empty.`, `Give a value, or leave ${o.long ?? o.flags} out (check the variable your script passes).`, 'USAGE_EMPTY_VALUE');
    }
  }
}

/** Every command takes it; main() has already read it from argv, before any text was built. */
const langOption = () => new Option('--lang <lang>', 'language of messages, help and workbook (default: from LC_ALL, LC_MESSAGES, LANG)').choices([...LANGUAGES]);

const collect = (value: string, previous: string[] = []) => [...previous, value];

function build(io: Io): Command {
  const program = new Command('meterdata')
    .description('Billing-ready consumption data from the Metering Data Partner API (contract 1.0.0-rc.3).')
    .version(packageVersion(), '-V, --version')
    .addHelpText('after', EXIT_CODES_HELP)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's own errors are reworded in main(), like every other error.
      outputError: () => undefined,
    });

  program.addOption(langOption());
  const profile = () => new Option('--profile <name>', 'connection profile (default: $METERDATA_PROFILE or "default")');

  program
    .command('login')
    .description('sign in to a landlord connection (OAuth 2.1 + PKCE in the browser)')
    .addOption(profile())
    .addOption(new Option('--env <env>', 'preset for the service URLs').choices(['sandbox', 'production']))
    .option('--auth-url <url>', 'authorization server (issuer) URL, for any other server such as a local sandbox')
    .option('--base-url <url>', 'API base URL including /v1')
    .option('--client-id <id>', 'OAuth client id (default for the sandbox: sandbox-demo-client)')
    .addOption(new Option('--client-auth <method>', 'client authentication').choices(['none', 'client_secret_basic', 'private_key_jwt']))
    .option('--client-secret-stdin', 'read the client secret from standard input (never pass it as an argument)')
    .option('--private-key <file>', 'private key for private_key_jwt (PEM or JWK)')
    .option('--kid <kid>', 'key id registered for --private-key')
    .addOption(new Option('--alg <alg>', 'signing algorithm for private_key_jwt').choices(['RS256', 'PS256', 'ES256']))
    .option('--dpop', 'bind tokens to a per-connection key (DPoP, RFC 9449)')
    .option('--scope <scopes>', 'space-separated scopes (default: read:units read:devices read:readings)')
    .option('--no-browser', 'do not open a browser; print the URL and accept the redirected URL pasted on stdin')
    .addOption(new Option('--credential-store <store>', 'where the refresh token is kept').choices(['keychain', 'file']))
    .addOption(new Option('--timeout <seconds>', 'how long to wait for the browser sign-in').default('300').hideHelp())
    .action(action(io, () => import('./commands/login.js')));

  program
    .command('logout')
    .description('revoke the connection and delete the local record')
    .addOption(profile())
    .option('--local-only', 'only delete the local record; do not revoke at the server')
    .action(action(io, () => import('./commands/logout.js')));

  program
    .command('status')
    .description('show the connection of a profile and check that it works')
    .addOption(profile())
    .option('--json', 'machine-readable output')
    .option('--all', 'list every profile')
    .action(action(io, () => import('./commands/status.js')));

  program
    .command('token')
    .description('print a valid access token for scripts (refreshing it if needed)')
    .addOption(profile())
    .action(action(io, () => import('./commands/token.js')));

  program
    .command('export')
    .description('export billing sheets (CSV and XLSX) for a year or a date range')
    .addOption(profile())
    .option('--all-profiles', 'export every signed-in profile at once, each into <out>/<profile>/')
    .option('--profiles <list>', 'export these profiles at once, e.g. a,b,c, each into <out>/<profile>/')
    .option('--year <yyyy>', 'calendar year, e.g. 2025')
    .option('--from <date>', 'start date (yyyy-mm-dd), widened to the start of its month')
    .option('--to <date>', 'end date (yyyy-mm-dd), widened to the end of its month')
    .option('--property <id>', 'only this Property (repeatable)', collect)
    .option('--metric <list>', 'comma-separated metrics, e.g. heat,water_warm')
    .option('--format <list>', 'csv, xlsx or both', 'csv,xlsx')
    .option('--out <dir>', 'output folder (default: ./meterdata-<from>_<to>)')
    .option('--template <name|file>', 'layout: generic, de, or a template file', 'generic')
    .option('--rate-limit <n>', 'requests per minute for this connection', '300')
    .option('--json', 'print a machine-readable summary on stdout')
    .option('--quiet', 'print nothing but errors')
    .option('--strict', 'exit non-zero when values were not billed or need review')
    .option('--compare <yyyy|dir>', 'plausibility review against another year, or an earlier export folder')
    .option('--compare-from <date>', 'start of the comparison period (yyyy-mm-dd)')
    .option('--compare-to <date>', 'end of the comparison period (yyyy-mm-dd)')
    .option('--threshold <percent>', 'review changes above this percentage (default 25)')
    .option('--plausibility', 'plausibility review of this period alone (no comparison)')
    .action(action(io, () => import('./commands/export.js')));

  program
    .command('browse')
    .description("browse a landlord's properties, units, meters and readings (interactive)")
    .addOption(profile())
    .option('--year <yyyy>', 'calendar year to show')
    .option('--from <date>', 'start date (yyyy-mm-dd)')
    .option('--to <date>', 'end date (yyyy-mm-dd)')
    .action(action(io, () => import('./commands/browse.js')));

  program
    .command('sandbox')
    .description('run a local emulator of the Partner API and its authorization server')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', '0')
    .option('--seed <s>', 'seed of the synthetic data', '1')
    .option('--units <n>', 'number of usage units to generate (1 to 50000)')
    .option('--auto-consent', 'approve every consent as the demo landlord with all Properties')
    .option('--clock <date>', 'start the server clock at this date (yyyy-mm-dd, midnight UTC); it then ticks on with real time (default: now)')
    .option('--admin', 'enable the operator interface under /admin (for tests)')
    .option('--clients <file>', 'JSON file registering confidential and DPoP-bound test clients')
    .option('--future-contract', 'add unknown fields and enum values to answers')
    .option('--fault <spec>', 'inject faults, e.g. 429:0.05, 500@12 (repeatable)', collect)
    .option('--rate-limit <n>', 'API requests per minute per connection (default 300; 0: off)')
    .option('--oauth-rate-limit <n>', '/oauth/* requests per minute per client and per caller address (default 60; 0: off)')
    .action(action(io, () => import('./commands/sandbox.js')));

  program
    .command('demo')
    .description('run the whole job against an embedded sandbox: sign in and export 2025')
    .option('--out <dir>', 'output folder', 'meterdata-demo')
    .option('--units <n>', 'units in the embedded sandbox')
    .action(action(io, () => import('./commands/demo.js')));

  // Cron jobs and scripts branch on these: every command's --help lists them.
  for (const cmd of program.commands) {
    cmd.addOption(langOption());
    cmd.addHelpText('after', EXIT_CODES_HELP);
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
  // Before the program is built: its help texts are rendered in this language.
  const asked = languageFromArgv(argv);
  setLanguage(isLang(asked) ? asked : languageFromEnv(ctx.env));
  try {
    await build(ctx).parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version are successful exits; everything else is a usage error
      if (e.exitCode === 0) return ExitCode.OK;
      // `meterdata` alone: commander has already printed the help (to stderr)
      if (e.code !== 'commander.help') ctx.stderr.write(`${formatError(commanderUsageError(e, failedCommand)).text}\n`);
      return ExitCode.USAGE;
    }
    const { text, exitCode: code } = formatError(e);
    if (ctx.signal.aborted) {
      // Whatever a command made of the abort, the run was interrupted: 130, never a stack trace.
      ctx.stderr.write(`${isMeterdataError(e) ? text : formatError(ctx.signal.reason instanceof InterruptedError ? ctx.signal.reason : new InterruptedError()).text}\n`);
      return ExitCode.INTERRUPTED;
    }
    ctx.stderr.write(`${text}\n`);
    return code;
  }
}

function processIo(): Io {
  const controller = new AbortController();
  // The first Ctrl-C asks the running command to stop cleanly (temp files removed,
  // journal kept); a second one ends the process at once. Listeners stay installed:
  // with `once`, proper-lockfile's signal-exit handler would re-raise the signal and
  // kill the process before the command could clean up.
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED);
    controller.abort(new InterruptedError(`Interrupted by ${signal}.`));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd(), signal: controller.signal, isolate: true };
}
