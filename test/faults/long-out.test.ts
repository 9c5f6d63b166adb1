// An --out whose path leaves no room for the names a run writes below it (round 32 F13): the start checks passed, the
// requests were made, and a letter's temporary name failed with "unexpected failure (this is a bug)", on every re-run.
// Now the file system's refusal is named, with the hint to choose a shorter path.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, runBin, signedIn } from '../helpers/faults.js';

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ autoConsentTenant: 'Wohnbau Rheinblick eG', rateLimitPerMinute: 0 }));
}, 120_000);
afterAll(async () => sandbox?.close());

describe('an --out path close to the system’s limit', () => {
  it('uvi: the refusal named with the hint to choose a shorter path, never "a bug"', async () => {
    let out = home;
    while (Buffer.byteLength(out) < 4002) out = path.join(out, 'x'.repeat(Math.min(200, 4002 - Buffer.byteLength(out) - 1)));
    mkdirSync(out, { recursive: true });
    const r = await runBin(['uvi', '--month', '2025-11', '--rate-limit', '3000', '--lang', 'en', '--out', out, '--json'], env);
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).not.toMatch(/this is a bug/);
    expect(r.stderr).toMatch(/longer than the file system allows[\s\S]*Choose a folder with a shorter path/);
  }, 120_000);
});
