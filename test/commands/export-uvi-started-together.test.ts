// An export and the monthly information (`uvi`) started together into one --out: each checked the
// other's files at start, found none yet, and both committed, the month folder inside the export's
// folder. Now the one started second is refused while the first runs (EXPORT_OUT_BUSY, exit 2, one
// line naming the folder), and the first's folder holds only its own files. The first runs in this
// process at 60 requests a minute; the second, the built binary, starts after its third request.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { binaryIn, signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-export-uvi-together-'));
});
afterAll(async () => sandbox?.close());

const exportRun = (rate: string) => ['export', '--year', '2025', '--format', 'csv', '--rate-limit', rate, '--profile', 'nord'];
const uviRun = (rate: string) => ['uvi', '--month', '2025-11', '--rate-limit', rate, '--profile', 'nord'];

const binary = (argv: string[]) => binaryIn(home, env, argv);

describe('export and uvi started together into one --out', () => {
  it.each([
    ['the export first, the uvi refused', exportRun, uviRun, ['billing.csv', 'meterdata-manifest.json']],
    ['the uvi first, the export refused', uviRun, exportRun, ['2025-11']],
  ])(
    '%s (exit 2, one line naming the folder), the first exits 0 with only its own files',
    async (name, first, second, has) => {
      const out = path.join(home, name.replace(/\W+/g, '-'));
      const before = sandbox.log.total;
      const running = runCli([...first('60'), '--out', out], { env, cwd: home });
      while (sandbox.log.total < before + 3) await new Promise((r) => setTimeout(r, 100));
      const refused = await binary([...second('3000'), '--out', out]);
      const done = await running;
      expect([done.code, refused.code], refused.stderr).toEqual([0, 2]);
      expect(refused.stderr.trim().split('\n')[0]).toBe(
        `meterdata: Another \`meterdata export\` or \`meterdata uvi\` is writing to ${out}; one run owns a folder at a time.`,
      );
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      const files = await readdir(out);
      for (const f of has) expect(files).toContain(f);
      // the refused run's files are nowhere: no month folder beside an export, no export beside a month folder
      expect(
        files.filter((f) => !has.includes(f) && !['plant-points.csv', 'readings.csv', 'review.csv', 'segments.csv', 'plausibility.csv'].includes(f)),
      ).toEqual([]);
      if (has.includes('2025-11')) expect(files).toEqual(['2025-11']);
    },
    300_000,
  );
});
