// In a shared --out, the folder meterdata made for a run (`<out>/<month>` of uvi, a portfolio's `<out>/<profile>`)
// moved away mid-run and a link put in its place carried the run's files, letters and commit to the link's target,
// exit 0 (round 29). The built binary behind a proxy that does the swap while the run walks: the run is refused
// (EXPORT_OUT_TAKEN_OVER, exit 2) before any file is put under a final name, and nothing lands in the link's target.
import { mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folder, proxyFixture, RHEINBLICK } from '../helpers/faults.js';
import { startRewritingProxy } from '../helpers/rewriting-proxy.js';
import { runBin } from '../helpers/faults.js';

const f = proxyFixture({ beforeAll, afterAll }, RHEINBLICK);
const UVI = ['uvi', '--month', '2025-11', '--rate-limit', '6000', '--lang', 'en', '--json'];

/** uvi into `out` whose month folder is swapped as `swap` says at the first unit's consumption answer. */
async function uviSwapped(out: string, swap: (month: string) => void) {
  let swapped = false;
  const proxy = await startRewritingProxy(f.sandbox.url, (p) => {
    if (!swapped && p.includes('/consumption')) {
      swapped = true;
      swap(path.join(out, '2025-11'));
    }
    return undefined;
  });
  try {
    const r = await runBin([...UVI, '--out', out], { ...f.env, METERDATA_ACCESS_TOKEN: f.token, METERDATA_BASE_URL: proxy.base });
    return { r, swapped };
  } finally {
    await proxy.close();
  }
}

describe("uvi's month folder swapped mid-run", () => {
  it.each([
    ['moved away, a link to it put in its place', (month: string) => (renameSync(month, `${month}.moved`), symlinkSync(`${month}.moved`, month))],
    ['moved away, a link to another folder put in its place', (month: string) => (renameSync(month, `${month}.moved`), symlinkSync(`${month}.target`, month))],
    ['moved away, a new folder put in its place', (month: string) => (renameSync(month, `${month}.moved`), mkdirSync(month))],
  ])(
    '%s: refused (EXPORT_OUT_TAKEN_OVER, exit 2), no final file anywhere, nothing in the target',
    async (_what, swap) => {
      const out = path.join(f.home, `swap-${Math.random().toString(36).slice(2, 8)}`);
      mkdirSync(path.join(out, '2025-11.target'), { recursive: true });
      const { r, swapped } = await uviSwapped(out, swap);
      expect(swapped).toBe(true);
      expect(r.code, r.stderr).toBe(2);
      const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
      expect(last.error.code).toBe('EXPORT_OUT_TAKEN_OVER');
      expect(last.error.message).toMatch(/is no longer the folder this run wrote into: it was moved away or replaced/);
      for (const d of ['2025-11.moved', '2025-11.target', '2025-11']) {
        const names = [...(await folder(path.join(out, d))).keys()];
        expect(
          names.filter((n) => !n.startsWith('.')),
          d,
        ).toEqual([]);
      }
      expect(readdirSync(path.join(out, '2025-11.target'))).toEqual([]);
    },
    120_000,
  );
});
