// One device under two points, over real HTTP: Musterstraße's WE 02 answer carries WE 01's
// cold-water device (the same device id, serial, window and readings) under WE 02's own
// cold-water point. Before, both units were billed the device's consumption (WE 01 and WE 02
// each 44.393), with no finding. A device hangs at one place at a time: now neither point is
// billed, DEVICE_AT_TWO_POINTS (not_billed) on each, naming the serial and the other unit.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { csvRows, exportBehindProxy, proxyFixture } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--strict'];
const MUSTER = 'Musterstraße 1-5';
const f = proxyFixture({ beforeAll, afterAll });

type Json = Record<string, any>;
const notBilled = (stderr: string) => Number(/--strict: .*\((\d+) not billed/.exec(stderr)?.[1] ?? NaN);

/** Learns Musterstraße's WE 01 and WE 02; `edit` gets each one's consumption answer and may change it. */
function unitsOfMuster(edit: (name: 'WE 01' | 'WE 02', answer: Json) => boolean): Rewrite {
  let muster: string | null = null;
  const ids = new Map<string, 'WE 01' | 'WE 02'>();
  return (p, json, query) => {
    if (p === '/v1/properties') muster = (json.data as Json[]).find((x) => x.name === MUSTER)?.id ?? muster;
    if (p === '/v1/usage-units' && query.get('property_id') === muster)
      for (const u of json.data as Json[]) if (u.name === 'WE 01' || u.name === 'WE 02') ids.set(u.id, u.name);
    const name = ids.get(/^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p)?.[1] ?? '');
    return name && edit(name, json) ? json : undefined;
  };
}

const coldOf = (answer: Json) => (answer.measuring_points as Json[]).find((x) => x.metric === 'water_cold')!;

describe('one device under two points of a Property', () => {
  it("WE 01's cold-water device under WE 02's cold-water point too: neither billed, a not_billed finding on each", async () => {
    let we01Segments: Json[] | null = null;
    const learn = unitsOfMuster((name, answer) => {
      if (name === 'WE 01') we01Segments = structuredClone(coldOf(answer).segments);
      return false;
    });
    const clean = await exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, 'clean'), learn);
    expect(we01Segments).not.toBeNull();
    const moved = unitsOfMuster((name, answer) => {
      if (name !== 'WE 02') return false;
      const cold = coldOf(answer);
      cold.segments = structuredClone(we01Segments);
      for (const s of cold.segments) s.period_consumption.weighted_billable_value = s.period_consumption.billable_value * (cold.unit_share ?? 1);
      return true;
    });
    const { r, rewritten, files } = await exportBehindProxy(f.sandbox, f.env, f.token, ARGS, path.join(f.home, 'moved'), moved);
    expect(rewritten).toBe(1);
    const cold = (billing: Buffer, unit: string) =>
      csvRows(billing.toString('utf8')).find((x) => x.property_name === MUSTER && x.usage_unit_name === unit && x.metric === 'water_cold')!.billable_value;
    const review = csvRows(files.get('review.csv')!.toString('utf8')).filter((x) => x.code === 'DEVICE_AT_TWO_POINTS');
    console.log(
      `[faults]   WE 01's cold-water device under WE 02's cold-water point → exit ${r.code}, billed WE 01 ${cold(files.get('billing.csv')!, 'WE 01')}, WE 02 ${cold(files.get('billing.csv')!, 'WE 02')} (clean WE 01 ${cold(clean.files.get('billing.csv')!, 'WE 01')}), ${review.length} DEVICE_AT_TWO_POINTS, not billed ${notBilled(r.stderr)} (clean ${notBilled(clean.r.stderr)})`,
    );
    expect(Number(cold(clean.files.get('billing.csv')!, 'WE 01'))).toBeGreaterThan(0);
    expect([cold(files.get('billing.csv')!, 'WE 01'), cold(files.get('billing.csv')!, 'WE 02')]).toEqual(['0', '0']);
    expect(review.map((x) => [x.usage_unit_name, x.severity])).toEqual([
      ['WE 01', 'not_billed'],
      ['WE 02', 'not_billed'],
    ]);
    const text = files.get('review.csv')!.toString('utf8');
    expect([/at: WE 02\)/.test(text), /at: WE 01\)/.test(text)]).toEqual([true, true]);
    // and WE 02's own device, which the Property's list shows installed, is not in its answer (LISTED_DEVICE_NOT_SENT)
    expect(text).toContain('LISTED_DEVICE_NOT_SENT');
    expect(notBilled(r.stderr)).toBe(notBilled(clean.r.stderr) + 3);
    expect(r.code).toBe(6);
  }, 120_000);
});
