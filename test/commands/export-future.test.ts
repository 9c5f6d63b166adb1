// The future-contract sandbox (unknown metrics, unit types, statuses, baseline origins):
// unknown values outside what billing reads still reach review.csv, each once.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 40, futureContract: true, homePrefix: 'md-export-future-' }));
});
afterAll(async () => sandbox?.close());

/** RFC 4180 rows (quoted fields may hold commas and doubled quotes). */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(field), (field = ''));
    else if (c === '\r' && text[i + 1] === '\n') (row.push(field), rows.push(row), (row = []), (field = ''), i++);
    else field += c;
  }
  if (field !== '' || row.length) (row.push(field), rows.push(row));
  const [cols, ...data] = rows;
  return data.map((r) => Object.fromEntries(r.map((v, i) => [cols![i], v])));
}

function unknownRows(csv: string): (Record<string, string> & { fact: string | undefined })[] {
  return parseCsv(csv)
    .filter((r) => r.code === 'UNKNOWN_ENUM_VALUE')
    .map((r: Record<string, string>) => Object.assign({}, r, { fact: /\(field: ([^,]+), value: ([^)]+)\)/.exec(r.message!)?.slice(1, 3).join('=') }));
}

describe('unknown values outside billing', () => {
  it('flags unknown metrics of points the --metric filter left out (seen only in the point lists), each once', async () => {
    const out = path.join(home, 'out-metric');
    const r = await runCli(['export', '--year', '2025', '--metric', 'water_cold', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const rows = unknownRows(await readFile(path.join(out, 'review.csv'), 'utf8'));
    const billedPoints = new Set(parseCsv(await readFile(path.join(out, 'segments.csv'), 'utf8')).map((x) => x.measuring_point_id));
    // Never fetched for consumption, so billing never saw them: the lists' unknown metric is still flagged.
    const listed = rows.filter((x) => x.fact === 'metric=heat_pump_power' && !billedPoints.has(x.measuring_point_id));
    expect(listed.length).toBeGreaterThan(0);
    // One row per field, value, unit and object: billing's own flags are not repeated.
    const keys = rows.map((x) => [x.fact, x.usage_unit_id, x.device_id || x.measuring_point_id || x.usage_unit_id].join('|'));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
