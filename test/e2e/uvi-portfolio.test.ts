// `meterdata uvi --all-profiles` of the built binary against two landlords of the sandbox (Wohnbau
// Rheinblick eG and Hausverwaltung Nordlicht GmbH): each profile's month folder is written at once
// by the export's portfolio, with its summary, --json objects and exit code, and each folder holds
// the bytes of a single `meterdata uvi --profile P`. Needs `npm run build`.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { signedIn, tenantClients, type SignedIn } from '../helpers/signed-in.js';

// The sandbox's limit is off: the client paces itself at this rate (the files do not depend on it).
const FAST = ['--rate-limit', '3000'];
const FILES = ['uvi.csv', 'uvi.json', 'review.csv'];
let si: SignedIn;

beforeAll(async () => {
  assertBuilt();
  si = await signedIn({
    autoConsentTenant: 'Wohnbau Rheinblick eG',
    rateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [{ name: 'rheinblick' }, { name: 'nord', tenant: 0 }],
    homePrefix: 'md-e2e-uvi-portfolio-',
    env: { SOURCE_DATE_EPOCH: '1767225600' },
  });
}, 120_000);
afterAll(async () => si?.close());

describe('meterdata uvi for every signed-in landlord', () => {
  it('writes <out>/<profile>/<month>/ for each profile at once, each as its single run writes it, with the portfolio summary', async () => {
    const out = path.join(si.home, 'monthly');
    const run = await runBin(['uvi', '--month', '2025-11', ...FAST, '--all-profiles', '--out', out, '--json'], si.env, { cwd: si.home, timeoutMs: 300_000 });
    // in the monthly information's words, not the export's ("exported", "flags … not billed")
    expect(run.stderr).toMatch(
      /^profile rheinblick: monthly information written in [\d.]+s: "Wohnbau Rheinblick eG", 3 Properties, 16 units, \d+ with no or an incomplete letter \(review\.csv\), \d+ requests -> /m,
    );
    expect(run.stderr).toMatch(/^profile nord: monthly information written in /m);
    expect(run.stderr).toMatch(/^portfolio: monthly information written for 2 of 2 profiles; summary in .*portfolio-summary\.csv$/m);
    expect(run.stderr).not.toMatch(/exported|not billed/);
    expect(run.code).toBe(0);
    const objects = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { profile: string; outcome: string; out: string; tenant: string });
    expect(objects.map((o) => [o.profile, o.outcome, o.out, o.tenant])).toEqual([
      ['nord', 'exported', path.join(out, 'nord', '2025-11'), 'Hausverwaltung Nordlicht GmbH'],
      ['rheinblick', 'exported', path.join(out, 'rheinblick', '2025-11'), 'Wohnbau Rheinblick eG'],
    ]);
    const summary = (await readFile(path.join(out, 'portfolio-summary.csv'), 'utf8')).split('\r\n');
    expect(summary.slice(1, 3).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['nord,exported,0', 'rheinblick,exported,0']);
    expect((await readdir(out)).sort()).toEqual(['nord', 'portfolio-summary.csv', 'rheinblick']);

    for (const profile of ['rheinblick', 'nord']) {
      const single = path.join(si.home, `single-${profile}`);
      const alone = await runBin(['uvi', '--month', '2025-11', ...FAST, '--profile', profile, '--out', single], si.env, { cwd: si.home, timeoutMs: 300_000 });
      expect(alone.code, alone.stderr).toBe(0);
      const folder = path.join(out, profile, '2025-11');
      const names = (await readdir(folder)).sort();
      expect(names).toEqual((await readdir(path.join(single, '2025-11'))).sort());
      expect(names.filter((n) => n.endsWith('.pdf')).length).toBeGreaterThan(0);
      for (const f of FILES)
        expect(await readFile(path.join(folder, f), 'utf8'), `${profile}/${f}`).toBe(await readFile(path.join(single, '2025-11', f), 'utf8'));
    }
  }, 900_000);

  it('refuses --profile beside --all-profiles in one line with exit 2, as the export does', async () => {
    const before = si.sandbox.log.total;
    const run = await runBin(['uvi', '--month', '2025-11', '--all-profiles', '--profile', 'nord', '--out', path.join(si.home, 'refused')], si.env, {
      cwd: si.home,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^meterdata: --all-profiles cannot be combined with --profile\./);
    expect(run.stdout).toBe('');
    expect(si.sandbox.log.total).toBe(before);
  });
});
