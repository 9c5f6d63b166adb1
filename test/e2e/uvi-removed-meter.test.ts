// `meterdata uvi --month 2026-10`, the built binary against the sandbox's Musterstraße 1-5, whose WE 04
// warm-water meter was removed on 10 September 2025 without replacement (DeviceRemoval): in the 13 months
// from October 2025 the answer has no segment for it (`data_gap`) and the Property's list no active
// device, so the letter says no meter was installed, not that a reading is missing. Needs `npm run build`.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, runBin, type Run } from '../helpers/bin.js';
import { signedIn, type SignedIn } from '../helpers/signed-in.js';

let si: SignedIn;
let run: Run;
let out: string;

beforeAll(async () => {
  assertBuilt();
  si = await signedIn({ autoConsentTenant: 'Hausverwaltung Nordlicht GmbH', homePrefix: 'md-e2e-uvi-removed-' });
  out = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-uvi-removed-out-'));
  run = await runBin(['uvi', '--month', '2026-10', '--out', out], si.env, { timeoutMs: 240_000 });
}, 300_000);

afterAll(async () => {
  await si?.close();
});

it('a warm-water meter removed before the 13 months is no meter installed in each of them, not a missing reading', async () => {
  expect(run.code, run.stderr).toBe(0);
  const rows = (await readFile(path.join(out, '2026-10', 'uvi.csv'), 'utf8')).split('\n');
  const we04 = rows.filter((l) => l.includes(',Musterstraße 1-5,') && l.includes(',WE 04,') && l.includes(',HOT_WATER,'));
  expect(we04).toHaveLength(13);
  for (const row of we04) expect(row).toContain(',no_device,');
  const review = await readFile(path.join(out, '2026-10', 'review.csv'), 'utf8');
  expect(review).toContain('WE 04,,HOT_WATER,Letter incomplete: no hot water figure for October 2026 (no meter installed in this month).');
  expect(review).not.toContain('(a month-end reading is missing)');
});
