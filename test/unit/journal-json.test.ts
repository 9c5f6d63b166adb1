// The journal's JSON of a Property whose units' JSON was made as the answers came
// (stream.ts): the same text as JSON.stringify of the answers, and saved without joining
// the pieces into one string (which held the Property's JSON three times on the heap: the
// pieces, the units joined, the whole; a large Property that saved before then ran out of
// memory under the export's heap limit).
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { answersJson, gzipAnswers } from '../../src/export/journal/journal-json.js';
import type { PropertyAnswers } from '../../src/api/walk.js';

const answersOf = (n: number, name: string) =>
  ({
    property: { id: 'p', name: 'P' },
    units: Array.from({ length: n }, (_, k) => ({
      unit: { id: `u${k}`, name },
      consumption: { usage_unit_id: `u${k}`, from: '2025-01-01', to: '2025-12-31', measuring_points: [] },
    })),
    points: [],
    plantPoints: [],
    comparison: undefined,
  }) as unknown as PropertyAnswers;

describe("the journal's JSON from the units' JSON made as they came", () => {
  it("is JSON.stringify of the answers, gzip'd; the pieces are let go as they are taken", async () => {
    const answers = answersOf(3000, 'ä'.repeat(700)); // over a megabyte: several pieces to gzip
    const pieces = answers.units.map((u) => JSON.stringify(u));
    expect(answersJson(answers, pieces)).toBe(JSON.stringify(answers));
    expect(pieces.every((p) => p.length > 0)).toBe(true); // answersJson leaves them
    const bytes = await gzipAnswers(answers, pieces);
    expect(gunzipSync(bytes).toString('utf8')).toBe(JSON.stringify(answers));
    expect(pieces.every((p) => p === '')).toBe(true);
    // pieces an earlier save took are never written as units: the answers are serialised whole
    expect(gunzipSync(await gzipAnswers(answers, pieces)).toString('utf8')).toBe(JSON.stringify(answers));
    // without the pieces (or with a hole), the answers are serialised whole
    expect(gunzipSync(await gzipAnswers(answers)).toString('utf8')).toBe(JSON.stringify(answers));
    const holed = answers.units.map((u) => JSON.stringify(u));
    delete holed[7];
    expect(gunzipSync(await gzipAnswers(answers, holed)).toString('utf8')).toBe(JSON.stringify(answers));
  });

  // Node 24 runs the TypeScript source itself (its imports of "./x.js" resolved to x.ts).
  it.runIf(Number(process.versions.node.split('.')[0]) >= 24)(
    "is saved within the heap the whole answers' JSON.stringify needs (120 MB of JSON, old space capped at 200 MB)",
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'md-journal-mem-'));
      const script = path.join(dir, 'save.mjs');
      const journal = path.resolve('src/export/journal/journal.ts');
      await writeFile(
        script,
        `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(s, c, n) { try { return await n(s, c); } catch (e) { if (s.startsWith('.') && s.endsWith('.js')) return n(s.slice(0, -3) + '.ts', c); throw e; } }\`));
const { Journal } = await import(${JSON.stringify(journal)});
const name = 'x'.repeat(25000); // one string in the answers, 4800 copies in their JSON
const units = Array.from({ length: 4800 }, (_, k) => ({ unit: { id: 'u' + k, name }, consumption: { usage_unit_id: 'u' + k, from: '2025-01-01', to: '2025-12-31', measuring_points: [] } }));
const answers = { property: { id: 'p', name: 'P' }, units, points: [], plantPoints: [] };
const pieces = units.map((u) => JSON.stringify(u));
const who = { tenant_id: 't', tenant_name: 'T', client_id: 'c', granted_scopes: [], property_scope: 'all' };
const out = ${JSON.stringify(path.join(dir, 'out'))};
const j = await Journal.open(${JSON.stringify(path.join(dir, 'state'))}, { profile: 'default', out }, who, new Date(), out);
await j.save(0, answers, pieces);
await j.close();
console.log('saved');
`,
      );
      const run = spawnSync(process.execPath, ['--max-old-space-size=200', '--experimental-transform-types', '--no-warnings', script], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect({ out: run.stdout.trim(), oom: /heap out of memory/.test(run.stderr) }).toEqual({ out: 'saved', oom: false });
    },
  );
});
