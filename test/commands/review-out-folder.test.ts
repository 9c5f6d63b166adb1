// Adversarial review (issues 11, 14): a re-run into the same --out folder must never leave
// the files of two configurations side by side. The template file is named by its path in
// the export's identity, so editing it (a table dropped, a file renamed) keeps the identity.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22', units: 4 });
  home = await mkdtemp(path.join(os.tmpdir(), 'md-review-out-'));
  env = { METERDATA_HOME: home };
  await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env, signal: new AbortController().signal });
});
afterAll(async () => sandbox?.close());

const listed = async (out: string) => (JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] }).files.map((f) => f.name).sort();

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
