// A plant-room or main meter's /readings answer of another period, over real HTTP: its readings
// dated a year earlier than asked (2024's beside the units' 2025). The units' answers echo their
// period and must agree (API_WRONG_RANGE), but the /readings answer echoes none and was not held
// to it: plant-points.csv billed the other year's figures as this period's, exit 0. Now the run
// is refused like a unit's answer of another period (exit 5, API_WRONG_RANGE, nothing written),
// in the export and in --compare's comparison period.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rewrite } from '../helpers/rewriting-proxy.js';
import { exportBehindProxy, proxyFixture } from '../helpers/faults.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv'];
const f = proxyFixture({ beforeAll, afterAll });

type Json = Record<string, any>;

/** Every /readings answer asked from `year`-01-01 with its readings dated a year earlier. */
const yearEarlier =
  (year: string): Rewrite =>
  (p, json, query) => {
    if (!/^\/v1\/measuring-points\/[^/]+\/readings$/.test(p) || query.get('from') !== `${year}-01-01`) return undefined;
    for (const s of json.segments as Json[]) for (const r of s.readings as Json[]) r.at = `${Number(r.at.slice(0, 4)) - 1}${r.at.slice(4)}`;
    return json;
  };

describe("a plant-room meter's readings of another period", () => {
  it.each([
    ['the export', [] as string[], '2025'],
    ["--compare's comparison period", ['--compare', '2024'], '2024'],
  ])(
    'in %s: refused, exit 5, API_WRONG_RANGE, no files',
    async (name, extra, year) => {
      const { r, rewritten, files } = await exportBehindProxy(
        f.sandbox,
        f.env,
        f.token,
        [...ARGS, ...extra, '--json'],
        path.join(f.home, name.replace(/\W+/g, '-')),
        yearEarlier(year),
      );
      console.log(
        `[faults]   plant readings a year earlier than asked (${name}) → exit ${r.code}: ${r.stderr.split('\n').find((l) => l.startsWith('meterdata:')) ?? ''}`,
      );
      expect(rewritten).toBeGreaterThan(0);
      expect(r.code, r.stderr).toBe(5);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('API_WRONG_RANGE');
      expect(r.stderr).toMatch(
        /readings of the plant-room or main meter \S+ of "[^"]+" with values of \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, but the period of its units is/,
      );
      expect([...files.keys()].filter((n) => n.endsWith('.csv'))).toEqual([]);
    },
    120_000,
  );
});
