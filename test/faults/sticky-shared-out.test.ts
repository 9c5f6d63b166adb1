// Two users exporting into one shared folder with the sticky bit (/tmp, a team share): there only a file's owner may
// replace it, so the second user's commit could never move the first one's export aside or rename over its files. It
// failed after every request with exit 1 ("a file could not be written … run the same command again: it continues"),
// and again on every re-run (round 28 F3). It is refused before any request now, naming the other user's file.
import { chmodSync, chownSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRewritingProxy } from '../helpers/rewriting-proxy.js';
import { folder, proxyFixture, runBin } from '../helpers/faults.js';

const f = proxyFixture({ beforeAll, afterAll });
const ARGS = ['export', '--year', '2025', '--rate-limit', '6000'];
const asRoot = process.getuid?.() === 0;
if (!asRoot && process.env.CI !== 'true') console.warn('sticky-shared-out: skipped, needs root to play two users with setpriv');

/** A home of the user's own, and how many API answers the run asked for (through a counting proxy). */
const UVI = ['uvi', '--month', '2025-11', '--rate-limit', '6000'];

async function exportAs(uid: number, out: string, extra: string[] = [], args = ARGS) {
  const home = mkdtempSync(path.join(os.tmpdir(), `md-user${uid}-`));
  chownSync(home, uid, uid);
  let asked = 0;
  const proxy = await startRewritingProxy(f.sandbox.url, () => void asked++);
  try {
    const env = { HOME: home, METERDATA_HOME: home, METERDATA_ACCESS_TOKEN: f.token, METERDATA_BASE_URL: proxy.base };
    const r = await runBin([...args, '--out', out, ...extra], env, { uid });
    return { r, asked };
  } finally {
    await proxy.close();
  }
}

describe.skipIf(!asRoot && process.env.CI !== 'true')("another user's export in a sticky shared --out", () => {
  it('is refused before any request (EXPORT_OUT_IN_USE, exit 2, naming the file); its files stay; its owner re-runs it', async () => {
    const shared = mkdtempSync(path.join(os.tmpdir(), 'md-sticky-out-'));
    chmodSync(shared, 0o1777);
    const out = path.join(shared, 'common');
    const first = await exportAs(1001, out);
    expect(first.r.code, first.r.stderr).toBe(0);
    chmodSync(out, 0o1777); // the team's folder: everyone may write, only owners replace
    const before = await folder(out);

    const second = await exportAs(1002, out, ['--json']);
    expect(second.r.code, second.r.stderr).toBe(2);
    expect(second.asked).toBe(0);
    const line = JSON.parse(second.r.stdout.trim()) as { error: { code: string; message: string } };
    expect(line.error.code).toBe('EXPORT_OUT_IN_USE');
    expect(line.error.message).toBe(
      `${out} holds meterdata-manifest.json, written by another user's meterdata run; in this shared folder only its owner may replace it, so this run's files could not be put there.`,
    );
    expect([...(await folder(out)).keys()]).toEqual([...before.keys()]);
    // round 30: an --out that is a link to the shared folder is the same folder
    const link = path.join(shared, 'team-link');
    symlinkSync(out, link);
    const linked = await exportAs(1002, link, ['--json']);
    expect(linked.r.code, linked.r.stderr).toBe(2);
    expect(linked.asked).toBe(0);
    expect((JSON.parse(linked.r.stdout.trim()) as { error: { code: string } }).error.code).toBe('EXPORT_OUT_IN_USE');

    // round 32 F3: the monthly information into another user's month folder was told as an export, its month folder as --out
    const months = path.join(shared, 'months');
    expect((await exportAs(1001, months, [], UVI)).r.code).toBe(0);
    chmodSync(path.join(months, '2025-11'), 0o1777);
    const uvi = await exportAs(1002, months, ['--json'], UVI);
    expect([uvi.r.code, uvi.asked]).toEqual([2, 0]);
    expect((JSON.parse(uvi.r.stdout.trim()) as { error: { message: string } }).error.message).toMatch(
      /^\S+\/2025-11 holds \S+, written by another user's meterdata run; .* so this run's files could not be put there\.$/,
    );

    const again = await exportAs(1001, out);
    expect(again.r.code, again.r.stderr).toBe(0);
  }, 120_000);
});
