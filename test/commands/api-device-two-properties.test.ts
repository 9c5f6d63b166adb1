// One device at the points of two Properties at the same time: within a Property billing refuses both points
// (DEVICE_AT_TWO_POINTS); across Properties nothing compared them, and a server sending one building's meter also
// under a flat of another building had it billed in both (round 26: 44.393 m³ twice, exit 0, no finding). The run
// now stops (API_BAD_ANSWER, exit 5), nothing committed; a device moved from one building to another (windows that
// do not overlap) is no conflict.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startRewritingProxy, type Rewrite } from '../helpers/rewriting-proxy.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
let token: string;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ clock: '2026-11-22', units: 30, homePrefix: 'md-device-two-' }));
  token = (await runCli(['token'], { env, cwd: home })).stdout.trim();
}, 60_000);
afterAll(async () => sandbox?.close());

type Json = Record<string, any>;

/**
 * The first segment of the first consumption answer of a second Property takes the device id of a segment the
 * first Property's answers showed; `window` sets that segment's installation dates (null: as sent).
 */
function deviceOfAnotherBuilding(moved = false): Rewrite {
  const propertyOf = new Map<string, string>();
  let first: { property: string; device: string; serial: string; installed: string } | null = null;
  let done = false;
  return (p, json, query) => {
    if (p === '/v1/usage-units') for (const u of json.data as Json[]) propertyOf.set(u.id as string, query.get('property_id') ?? (u.property_id as string));
    const m = /^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p);
    if (!m) return undefined;
    const property = propertyOf.get(m[1]!)!;
    // a segment with a documented installation, so that a window before it can be given
    const segment = (json.measuring_points as Json[]).flatMap((mp) => mp.segments as Json[]).find((sg) => sg.installed_at !== null);
    if (!segment) return undefined;
    if (first === null) {
      first = { property, device: segment.device_id as string, serial: segment.serial as string, installed: segment.installed_at as string };
      return undefined;
    }
    if (done || property === first.property) return undefined;
    done = true;
    segment.device_id = first.device;
    segment.serial = first.serial;
    // moved: here until the day it was installed in the first building
    if (moved) Object.assign(segment, { installed_at: '1990-01-01', deinstalled_at: first.installed });
    return json;
  };
}

async function exportBehind(rewrite: Rewrite, out: string, lang = 'en') {
  const proxy = await startRewritingProxy(sandbox.url, rewrite);
  try {
    const r = await runCli(['export', '--year', '2025', '--format', 'csv', '--out', out, '--json', '--lang', lang], {
      env: { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base },
      cwd: home,
    });
    return { ...r, rewritten: proxy.rewritten.length };
  } finally {
    await proxy.close();
  }
}

describe('one device at points of two Properties', () => {
  it('at the same time: the run stops (API_BAD_ANSWER, exit 5) naming the device and both points, nothing committed', async () => {
    const out = path.join(home, 'same-time');
    const r = await exportBehind(deviceOfAnotherBuilding(), out);
    expect(r.rewritten).toBe(1);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(
      /breaks the API contract: device .* is placed at measuring point .* of Property .* and at the same time at a measuring point of Property /,
    );
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ exit_code: 5, error: { code: 'API_BAD_ANSWER' } });
    expect(existsSync(path.join(out, 'billing.csv'))).toBe(false);
  }, 120_000);

  it('moved from one building to the other (the windows do not overlap): no conflict, exit 0', async () => {
    const r = await exportBehind(deviceOfAnotherBuilding(true), path.join(home, 'moved'));
    expect(r.rewritten).toBe(1);
    expect(r.stderr).not.toMatch(/at the same time at a measuring point/);
  }, 120_000);

  it('says so in German', async () => {
    const r = await exportBehind(deviceOfAnotherBuilding(), path.join(home, 'de'), 'de');
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /hängt an der Messstelle .* der Liegenschaft .* und zur selben Zeit an einer Messstelle der Liegenschaft .*; ein Zähler kann nicht in zwei Gebäuden abgerechnet werden/,
    );
  }, 120_000);
});

describe('one device at points of two Properties, the first read back from the journal', () => {
  it('a resumed run still finds it: API_BAD_ANSWER, exit 5, nothing committed', async () => {
    const out = path.join(home, 'resumed');
    // run 1: the first Property is fetched and saved; every consumption answer of another Property names another
    // unit, so the run stops there (exit 5) and leaves its journal; a device of the first Property is noted
    const propertyOf = new Map<string, string>();
    let first: { property: string; device: string; serial: string } | null = null;
    const learnThenFail: Rewrite = (p, json, query) => {
      if (p === '/v1/usage-units') for (const u of json.data as Json[]) propertyOf.set(u.id as string, query.get('property_id') ?? (u.property_id as string));
      const m = /^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p);
      if (!m) return undefined;
      const property = propertyOf.get(m[1]!)!;
      const segment = (json.measuring_points as Json[]).flatMap((mp) => mp.segments as Json[]).find((sg) => sg.installed_at !== null);
      if (first === null && segment) first = { property, device: segment.device_id as string, serial: segment.serial as string };
      if (first !== null && property !== first.property) return { ...json, usage_unit_id: '00000000-0000-4000-8000-00000000beef' };
      return undefined;
    };
    const failed = await exportBehind(learnThenFail, out);
    expect(failed.code, failed.stderr).toBe(5);
    expect(first).not.toBeNull();
    // run 2: resumed; the second Property's first answer carries the first Property's device over the same time
    let placed = false;
    const sameDevice: Rewrite = (p, json, query) => {
      if (p === '/v1/usage-units') for (const u of json.data as Json[]) propertyOf.set(u.id as string, query.get('property_id') ?? (u.property_id as string));
      const m = /^\/v1\/usage-units\/([^/]+)\/consumption$/.exec(p);
      if (!m || placed || propertyOf.get(m[1]!) === first!.property) return undefined;
      const segment = (json.measuring_points as Json[]).flatMap((mp) => mp.segments as Json[]).find((sg) => sg.installed_at !== null);
      if (!segment) return undefined;
      placed = true;
      Object.assign(segment, { device_id: first!.device, serial: first!.serial });
      return json;
    };
    const resumed = await exportBehind(sameDevice, out);
    expect(placed).toBe(true);
    expect(resumed.stderr).toMatch(/resum|journal/i);
    expect(resumed.code, resumed.stderr).toBe(5);
    expect(resumed.stderr).toMatch(/at the same time at a measuring point of Property /);
    expect(existsSync(path.join(out, 'billing.csv'))).toBe(false);
  }, 180_000);
});
