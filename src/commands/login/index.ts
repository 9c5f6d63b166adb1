// `meterdata login`: sign in to a landlord connection.
import { ExitCode, UsageError } from '../../core/errors.js';
import { flagsFrom, type FlagValues } from '../../core/flags.js';
import { cliTexts } from '../../texts-cli.js';
import { defineCommand, profileFlag } from '../define.js';
import { helpTexts as h } from './texts.js';
import { loginTexts } from '../texts-auth.js';

/** --timeout: how long to wait for the sign-in's answer, in seconds (fractions allowed). */
const seconds = (value: string): number => {
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n <= 0) throw new UsageError(loginTexts.badTimeout({ value }), cliTexts.example({ text: '--timeout 300' }));
  return n;
};

const flag = flagsFrom(h);
const flags = {
  profile: profileFlag(),
  env: flag.choice('--env <env>', 'env', ['sandbox', 'production']),
  authUrl: flag.text('--auth-url <url>', 'authUrl'),
  baseUrl: flag.text('--base-url <url>', 'baseUrl'),
  clientId: flag.text('--client-id <id>', 'clientId'),
  clientAuth: flag.choice('--client-auth <method>', 'clientAuth', ['none', 'client_secret_basic', 'private_key_jwt']),
  clientSecretStdin: flag.bool('--client-secret-stdin', 'clientSecretStdin'),
  privateKey: flag.text('--private-key <file>', 'privateKey'),
  kid: flag.text('--kid <kid>', 'kid'),
  alg: flag.choice('--alg <alg>', 'alg', ['RS256', 'PS256', 'ES256']),
  dpop: flag.bool('--dpop', 'dpop'),
  scope: flag.text('--scope <scopes>', 'scope'),
  browser: flag.off('--no-browser', 'noBrowser'),
  credentialStore: flag.choice('--credential-store <store>', 'credentialStore', ['keychain', 'file']),
  timeout: flag.parsedOr('--timeout <seconds>', undefined, seconds, 300, undefined, { hidden: true }),
};
export type LoginFlags = FlagValues<typeof flags>;

const { OK, UNEXPECTED, USAGE, NOT_SIGNED_IN, UNAVAILABLE, INTERRUPTED } = ExitCode;
export const login = defineCommand({
  name: 'login',
  help: () => h.login,
  flags,
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
    [NOT_SIGNED_IN, 'exit3Login'],
    [UNAVAILABLE, 'exit5Keychain'],
    [INTERRUPTED, 'exit130'],
  ],
  load: () => import('./run.js'),
});
