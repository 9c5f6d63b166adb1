// 20 profiles kept in a real Secret Service (private dbus-daemon + gnome-keyring) all
// refresh at the same moment in one portfolio export of the built binary: none stalls,
// each keeps its own rotated record. Needs `npm run build`.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_PROPERTY_NAME } from '../../src/sandbox/data/generic.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, spawnCli } from '../helpers/browser.js';
import { hasKeyringTools, requireKeyringTools, startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { signedIn, tenantClients } from '../helpers/signed-in.js';

let sb: Sandbox;
let ks: KeyringSession | undefined;
beforeAll(async () => {
  assertBuilt();
  sb = await startSandbox({
    autoConsent: true,
    admin: true,
    clock: '2026-11-22',
    units: 40,
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: tenantClients(),
  });
  if (hasKeyringTools()) ks = await startKeyringSession();
});
afterAll(async () => {
  await sb?.close();
  await ks?.stop();
});

describe('portfolio export with the keychain store', () => {
  it('20 profiles whose access tokens expired refresh at once through the Secret Service', async (ctx) => {
    requireKeyringTools(ctx, 'the keychain path runs against a real Secret Service');
    const names = Array.from({ length: 20 }, (_, i) => `k${String(i + 1).padStart(2, '0')}`);
    const profiles = names.map((name) => ({ name, tenant: 1 }));
    const { env, home } = await signedIn({ at: sb, login: [], bin: true, profiles, env: ks!.env, homePrefix: 'md-kc-portfolio-' });
    const stored = (n: string) => JSON.parse(ks!.secretTool(['lookup', 'service', 'meterdata', 'username', `${n}@${home}`])) as { refresh_token: string };
    const before = new Map(names.map((n) => [n, stored(n).refresh_token]));
    // two hours on: every access token has expired at the service, so each profile's first request is refused and refreshes
    sb.admin.advanceClock(2 * 3600_000);
    const empty = sb.dataset.propertiesOf(sb.dataset.tenants()[1]!.id).find((p) => p.name === EMPTY_PROPERTY_NAME)!.id;
    const ex = await spawnCli(
      [
        'export',
        '--year',
        '2025',
        '--rate-limit',
        '3000',
        '--profiles',
        names.join(','),
        '--property',
        empty,
        '--format',
        'csv',
        '--out',
        path.join(home, 'out'),
        '--json',
        '--quiet',
      ],
      env,
    ).done;
    expect(ex.code, ex.stderr).toBe(0);
    expect(
      ex.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { outcome: string }).outcome),
    ).toEqual(names.map(() => 'exported'));
    for (const n of names) expect(stored(n).refresh_token, n).not.toBe(before.get(n));
  }, 180_000);
});
