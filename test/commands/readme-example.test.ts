// The examples of what `meterdata export --year 2025` prints (README.md: its last lines;
// docs/export.md: all of stderr) are a real run's: the same command against the sandbox of
// `npm run sandbox` (its default data set), in English and German. When the sandbox's data or
// the summary's words change, this fails with the run's lines to paste (both said 2 Properties,
// 30 units, 40 requests long after the sandbox had grown to 3, 48, 62).
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { ROOT } from '../helpers/bin.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // `npm run sandbox`'s data set (default seed and size); no rate limit, so the test does not wait for the pacing
  ({ sandbox, env } = await signedIn({ rateLimitPerMinute: 0, homePrefix: 'md-readme-' }));
});
afterAll(async () => sandbox?.close());

/** The fenced block after `lead` in `doc`. */
async function block(doc: string, lead: string): Promise<string> {
  const text = await readFile(path.join(ROOT, doc), 'utf8');
  const at = text.indexOf(lead);
  expect(at, `${doc} no longer has the line "${lead}"`).toBeGreaterThan(-1);
  const m = /^```\n([\s\S]*?)\n```$/m.exec(text.slice(at));
  return m![1]!;
}

/** What `export --year 2025` prints on stderr, the out folder named as the reader in their folder would. */
async function stderrOf(lang: 'en' | 'de'): Promise<string[]> {
  const cwd = await mkdtemp(path.join(os.tmpdir(), `md-readme-${lang}-`));
  const r = await runCli(['export', '--year', '2025', '--rate-limit', '10000', '--lang', lang], { env, cwd });
  expect(r.code, r.stderr).toBe(0);
  return r.stderr.replaceAll(`${cwd}${path.sep}`, '').trimEnd().split('\n');
}

/** The summary: what follows the progress lines. */
function summary(lines: string[]): string {
  const first = lines.findIndex((l) => /^(wrote|meterdata-\S+ geschrieben) /.test(l));
  expect(first, lines.join('\n')).toBeGreaterThan(-1);
  return lines.slice(first).join('\n');
}

describe('the docs show what `export --year 2025` against the sandbox really prints, in both languages', () => {
  it('README.md (the summary) and docs/export.md (all of stderr)', async () => {
    const [en, de] = [await stderrOf('en'), await stderrOf('de')];
    const readme = `${summary(en)}\n\n${summary(de)}`;
    expect(
      await block('README.md', 'What it ends with on stderr, in English and (`--lang de`) in German:'),
      `README.md's example is stale; the run ends with:\n${readme}\n`,
    ).toBe(readme);
    const doc = `$ meterdata export --year 2025\n${en.join('\n')}\n\n$ meterdata export --year 2025 --lang de\n${de.join('\n')}`;
    expect(await block('docs/export.md', '```\n$ meterdata export --year 2025\n'), `docs/export.md's example is stale; the run prints:\n${doc}\n`).toBe(doc);
  }, 120_000);
});
