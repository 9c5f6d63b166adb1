// `meterdata sandbox`: a local emulator of the Partner API and its authorization server.
import { wholeNumber } from '../../cli-help.js';
import { ExitCode } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { parseClock } from '../../core/dates.js';
import { cliTexts } from '../../texts-cli.js';
import { defineCommand } from '../define.js';
import { helpTexts as h } from './texts.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const flag = flagsFrom(h);
const flags = {
  port: flag.parsedOr('--port <n>', 'port', (v) => wholeNumber('--port', 0, 65535, `0 ${cliTexts.anyFreePort}`)(v), 0, '"0"'),
  seed: flag.textOr('--seed <s>', 'seed', '1'),
  units: flag.parsed('--units <n>', 'units', (v) => wholeNumber('--units', 1, 50000, '60')(v)),
  autoConsent: flag.bool('--auto-consent', 'autoConsent'),
  autoConsentTenant: flag.text('--auto-consent-tenant <id|name>', 'autoConsentTenant'),
  clock: flag.parsed('--clock <date>', 'clock', (v) => (parseClock(v), v)),
  admin: flag.bool('--admin', 'admin'),
  clients: flag.text('--clients <file>', 'clients'),
  futureContract: flag.bool('--future-contract', 'futureContract'),
  fault: flag.parsed('--fault <spec>', 'fault', collect),
  rateLimit: flag.parsed('--rate-limit <n>', 'sandboxRateLimit', (v) => wholeNumber('--rate-limit', 0, 1_000_000, `300 ${cliTexts.limitOff}`)(v)),
  oauthRateLimit: flag.parsed('--oauth-rate-limit <n>', 'oauthRateLimit', (v) => wholeNumber('--oauth-rate-limit', 0, 1_000_000, `60 ${cliTexts.limitOff}`)(v)),
};
export type SandboxFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE } = ExitCode;
export const sandbox = defineCommand({
  name: 'sandbox',
  help: () => h.sandbox,
  flags,
  // It stops on a signal with 0.
  exits: [
    [OK, 'exit0Sandbox'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2Sandbox'],
    [ExitCode.INTERRUPTED, 'exit130Sandbox'],
  ],
  load: () => import('./run.js'),
});
