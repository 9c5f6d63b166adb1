// Ctrl-C or SIGTERM while the last Property's letters are drawn (after the walk's last check
// before a Property, before the commit): the run stops with 130 and commits nothing, as it
// does earlier. The signal is sent when the first letter's temporary file appears, so it lands
// while the letters are drawn, the last Property's included (the sandbox has one Property).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, ROOT } from '../helpers/bin.js';
import { signedInNord } from '../helpers/portfolio.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedInNord('md-uvi-signal-'));
});
afterAll(async () => sandbox?.close());

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name],
  );
}

describe('uvi interrupted while the letters are drawn', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: exit 130, one line, nothing committed',
    async (signal) => {
      const out = path.join(home, `out-${signal}`);
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'meterdata.js'), 'uvi', '--month', '2025-11', '--profile', 'nord', '--out', out], {
        env: { ...process.env, ...env },
        cwd: home,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      let sent = false;
      for (let i = 0; i < 1200 && !sent && child.exitCode === null; i++) {
        if (filesUnder(out).some((f) => /letter-.*\.pdf/.test(f))) sent = child.kill(signal);
        else await new Promise((r) => setTimeout(r, 25));
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await done;
      clearTimeout(timer);
      expect(sent, stderr).toBe(true);
      expect(code, stderr).toBe(130);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).toContain('Run the same `meterdata uvi` command again');
      expect(stderr).not.toMatch(/export/i);
      expect(filesUnder(out)).toEqual([]);
    },
    180_000,
  );
});
