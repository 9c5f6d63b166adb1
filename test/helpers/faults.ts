// The fault harness's tools (test/faults): the signed-in fixture with the harness's sandbox,
// the built binary as a child process (so kill -9 is a real kill), the clean run every
// trial is compared with, and the one summary line per scenario.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { signedIn as signedInFixture } from './signed-in.js';
export { assertBuilt, ROOT, runBin, type Run } from './bin.js';
import { assertBuilt as assertBuiltNow, runBin } from './bin.js';
import { startRewritingProxy, type Rewrite } from './rewriting-proxy.js';

/** Same export time in every run, so files compare byte for byte. */
const EPOCH = '1767225600';
export const FINAL = [
  'billing.csv',
  'billing.xlsx',
  'meterdata-manifest.json',
  'plant-points.csv',
  'plausibility.csv',
  'readings.csv',
  'review.csv',
  'segments.csv',
];
export const MANIFEST = 'meterdata-manifest.json';
/** FAULTS_FULL=1 (`npm run test:faults` documents it): every kill point and rate. */
export const FULL = process.env.FAULTS_FULL === '1';

/** The signed-in fixture with the harness's sandbox (seed "faults", admin, no token rate limit), the file store and a fixed export time. */
export async function signedIn(opts: SandboxOptions = {}): Promise<{ sandbox: Sandbox; env: NodeJS.ProcessEnv; home: string }> {
  return signedInFixture({
    admin: true,
    seed: 'faults',
    oauthRateLimitPerMinute: 0,
    ...opts,
    credentialStore: 'file',
    env: { SOURCE_DATE_EPOCH: EPOCH },
    homePrefix: 'md-faults-',
  });
}

/** A proxy test's fixture, filled before its tests: the signed-in sandbox (by default the 30-unit one: Musterstraße and Lindenhof) and its access token. */
export interface ProxyFixture {
  sandbox: Sandbox;
  env: NodeJS.ProcessEnv;
  home: string;
  token: string;
}

/** Wohnbau Rheinblick eG, the monthly information's landlord, for proxyFixture. */
export const RHEINBLICK: SandboxOptions = { autoConsentTenant: 'Wohnbau Rheinblick eG' };

/** Signs in before a file's tests (and closes the sandbox after them), for exportBehindProxy; the sandbox's limit is off. */
export function proxyFixture(
  hooks: {
    beforeAll: (fn: () => Promise<void>, timeout: number) => void;
    afterAll: (fn: () => Promise<void>) => void;
  },
  sandbox: SandboxOptions = { units: 30 },
): ProxyFixture {
  const f = {} as ProxyFixture;
  hooks.beforeAll(async () => {
    assertBuiltNow();
    Object.assign(f, await signedIn({ ...sandbox, rateLimitPerMinute: 0 }));
    f.token = (await runBin(['token'], f.env)).stdout.trim();
  }, 120_000);
  hooks.afterAll(async () => f.sandbox?.close());
  return f;
}

/**
 * The built binary's `args` into `out` through a rewriting proxy before the sandbox (a hostile
 * server): its result, how many answers the proxy changed, and the files written.
 */
export async function exportBehindProxy(sandbox: Sandbox, env: NodeJS.ProcessEnv, token: string, args: string[], out: string, rewrite: Rewrite) {
  const proxy = await startRewritingProxy(sandbox.url, rewrite);
  try {
    const r = await runBin([...args, '--out', out], { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base });
    return { r, rewritten: proxy.rewritten.length, files: await folder(out) };
  } finally {
    await proxy.close();
  }
}

/** A CSV file meterdata wrote (no quoted commas in the columns read), as rows by header. */
export function csvRows(csv: string): Record<string, string>[] {
  const [head, ...body] = csv
    .split('\r\n')
    .filter(Boolean)
    .map((l) => l.split(','));
  return body.map((cells) => Object.fromEntries(head!.map((h, i) => [h, cells[i] ?? ''])));
}

/** Every file of a folder (hidden ones too) as buffers; empty when the folder is missing. */
export async function folder(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  for (const n of names.sort()) out.set(n, await readFile(path.join(dir, n)));
  return out;
}

/** Lines of the clean run's CSV files that a run's files lack ("what was lost"). */
export function lostRows(clean: Map<string, Buffer>, got: Map<string, Buffer>): number {
  let lost = 0;
  for (const [name, buf] of clean) {
    if (!name.endsWith('.csv')) continue;
    const have = new Set((got.get(name)?.toString('utf8') ?? '').split('\r\n'));
    for (const line of buf.toString('utf8').split('\r\n')) if (line && !have.has(line)) lost++;
  }
  return lost;
}

/** Names that differ from the clean run (missing, extra, or other bytes). */
export function differences(clean: Map<string, Buffer>, got: Map<string, Buffer>): string[] {
  const names = new Set([...clean.keys(), ...got.keys()]);
  return [...names].filter((n) => !clean.get(n) || !got.get(n) || !clean.get(n)!.equals(got.get(n)!));
}

/**
 * What a failed or killed run left in its out folder that someone could mistake for
 * a result: a final name whose bytes are not the clean run's, or a manifest without
 * every file it lists. Hidden ".partial" names are the export's scratch space.
 */
export function halfWritten(clean: Map<string, Buffer>, got: Map<string, Buffer>): string[] {
  const bad: string[] = [];
  for (const n of FINAL) if (got.has(n) && !(clean.get(n) && clean.get(n)!.equals(got.get(n)!))) bad.push(n);
  if (got.has(MANIFEST)) for (const n of FINAL) if (!got.has(n)) bad.push(`${n} (listed by the manifest, missing)`);
  return bad;
}

/** Counts POST /oauth/token requests reaching any in-process HTTP server while `fn` runs. */
export async function countTokenRequests<T>(fn: () => Promise<T>): Promise<{ result: T; tokenRequests: number }> {
  let n = 0;
  const onStart = (msg: unknown) => {
    const req = (msg as { request: { method?: string; url?: string } }).request;
    if (req.method === 'POST' && req.url?.startsWith('/oauth/token')) n++;
  };
  subscribe('http.server.request.start', onStart);
  try {
    const result = await fn();
    return { result, tokenRequests: n };
  } finally {
    unsubscribe('http.server.request.start', onStart);
  }
}

export interface ScenarioLine {
  scenario: string;
  trials: number;
  passed: number;
  lost: string[];
}

/** The one line a scenario prints: scenario, trials, passed, what was lost. */
export function report(s: ScenarioLine): string {
  const line = `[faults] ${s.scenario}: trials ${s.trials}, passed ${s.passed}, lost: ${s.lost.length ? s.lost.join('; ') : 'nothing'}`;
  console.log(line);
  return line;
}

/** A deterministic PRNG for kill times: the sandbox's own mulberry32. */
export { mulberry32 as prng } from '../../src/sandbox/data/prng.js';
