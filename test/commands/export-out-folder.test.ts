// The --out folder (issues 11, 14): a re-run into the same --out folder must never leave
// the files of two configurations side by side. The template file is named by its path in
// the export's identity, so editing it (a table dropped, a file renamed) keeps the identity.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 4, homePrefix: 'md-out-folder-' }));
});
afterAll(async () => sandbox?.close());

const listed = async (out: string) =>
  (JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] }).files.map((f) => f.name).sort();

describe('a re-run after the template file was edited', () => {
  it('removes the files the earlier export wrote and this one does not; other files stay', async () => {
    const out = path.join(home, 'out');
    const template = path.join(home, 'mine.json');
    await writeFile(template, JSON.stringify({ extends: 'generic' }));
    const args = ['export', '--year', '2025', '--format', 'csv', '--template', './mine.json', '--out', out];
    expect((await runCli(args, { env, cwd: home })).code).toBe(0);
    expect(await readdir(out)).toContain('readings.csv');
    await writeFile(path.join(out, 'notes.txt'), 'mine');

    await writeFile(template, JSON.stringify({ extends: 'generic', files: { readings: false, segments: { file: 'segmente.csv' } } }));
    const r = await runCli(args, { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files).not.toContain('readings.csv');
    expect(files).not.toContain('segments.csv');
    expect(files).toContain('segmente.csv');
    expect(files.filter((f) => f.endsWith('.csv')).sort()).toEqual((await listed(out)).filter((f) => f.endsWith('.csv')));
    expect(files).toContain('notes.txt');
  });

  it('never removes what a hand-edited manifest names outside the folder or under no plain name', async () => {
    const out = path.join(home, 'out2');
    const args = ['export', '--year', '2025', '--format', 'csv', '--out', out];
    expect((await runCli(args, { env, cwd: home })).code).toBe(0);
    await writeFile(path.join(home, 'victim.txt'), 'keep');
    const file = path.join(out, 'meterdata-manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as { files: { name: string }[] };
    manifest.files.push({ name: '../victim.txt' }, { name: '..' }, { name: '.' });
    await writeFile(file, JSON.stringify(manifest));
    expect((await runCli(args, { env, cwd: home })).code).toBe(0);
    expect(await readFile(path.join(home, 'victim.txt'), 'utf8')).toBe('keep');
  });
});

describe('an erp_ref a spreadsheet would run as a formula', () => {
  it('is text with a leading apostrophe in billing.csv and a plain string cell (never a formula) in the workbook', async () => {
    const first = path.join(home, 'plain');
    expect((await runCli(['export', '--year', '2025', '--format', 'csv', '--out', first], { env, cwd: home })).code).toBe(0);
    const [, ...rows] = (await readFile(path.join(first, 'billing.csv'), 'utf8')).trim().split('\r\n');
    const units = [...new Set(rows.map((r) => r.split(',')[2]!))];
    const refs = ['=1+1', '0001234560001', '-0001', '@SUM(A1)'];
    expect(units.length).toBeGreaterThanOrEqual(refs.length);
    await writeFile(
      path.join(home, 'formula-refs.csv'),
      `usage_unit_id;erp_ref\n${units
        .slice(0, refs.length)
        .map((u, i) => `${u};"${refs[i]}"`)
        .join('\n')}\n`,
    );
    const out = path.join(home, 'formula');
    const r = await runCli(['export', '--year', '2025', '--unit-refs', 'formula-refs.csv', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const billing = await readFile(path.join(out, 'billing.csv'), 'utf8');
    expect(billing).toContain(',0001234560001,');
    for (const ref of refs.filter((x) => /^[=+\-@]/.test(x))) expect(billing).toContain(`,'${ref},`);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
    const ws = wb.getWorksheet('Overview')!;
    const col = (ws.getRow(1).values as unknown[]).indexOf('erp_ref');
    const cells: unknown[] = [];
    ws.eachRow((row, n) => n > 1 && cells.push(row.getCell(col).value));
    expect(cells.filter((c) => c !== null && c !== '').sort()).toEqual([...refs].sort());
  });
});
