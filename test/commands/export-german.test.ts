// `meterdata export` and `meterdata demo` in a German run (--lang de, or the locale)
// against the sandbox: every line the export itself prints is German, and no English
// phrase of any catalogue shows up. `--lang en` is what the other export tests check.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { findEnglish } from '../helpers/catalogues.js';
import { tenantClients } from '../helpers/portfolio.js';
import { signedIn } from '../helpers/signed-in.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({
    units: 30,
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [
      { name: 'default', tenant: 0 },
      { name: 'sued', tenant: 1 },
    ],
    homePrefix: 'md-export-de-',
  }));
}, 60_000);
afterAll(async () => sandbox?.close());

const FAST = ['--rate-limit', '3000'];

describe('meterdata export --lang de', () => {
  it('progress, summary and flags in German, dates dd.mm.yyyy, no English phrase', async () => {
    const out = path.join(home, 'de1');
    const r = await runCli(['export', '--year', '2025', '--out', out, '--lang', 'de', ...FAST], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^Liegenschaft 1\/\d+ „.+“: \d+ Nutzeinheite?n?, \d+ Hauptzähler, \d+ Hinweise?$/);
    expect(r.stderr).toContain(`${out} geschrieben für 01.01.2025 bis 31.12.2025: billing.csv (`);
    expect(r.stderr).toMatch(/^\d+ Liegenschaften?, \d+ Nutzeinheiten?, \d+ Messstellen? \(davon \d+ Hauptzähler\), \d+ Abfragen?$/m);
    expect(r.stderr).toMatch(/^Hinweise: \d+ nicht abgerechnet, \d+ zu prüfen, \d+ nur zur Information/m);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  }, 60_000);

  it('LANG=de_DE.UTF-8 and --strict: the findings fail the run in German (exit 6)', async () => {
    const out = path.join(home, 'de2');
    const r = await runCli(['export', '--year', '2025', '--out', out, '--strict', ...FAST], { env: { ...env, LANG: 'de_DE.UTF-8' }, cwd: home });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/--strict: \d+ Hinweise erfordern Aufmerksamkeit \(\d+ nicht abgerechnet, \d+ zu prüfen\); die Dateien wurden geschrieben\./);
    expect(r.stderr).toContain(`Siehe review.csv in ${out}.`);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  }, 60_000);

  it('a refused --out folder in German, before any request', async () => {
    const out = path.join(home, 'de1');
    const r = await runCli(['export', '--year', '2024', '--out', out, '--lang', 'de'], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${out} enthält bereits einen Export mit anderen Einstellungen: Zeitraum 2025 → 2024.`);
    expect(r.stderr).toContain('Wählen Sie einen anderen Zielordner für --out, oder löschen Sie diesen Ordner zuerst.');
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  });

  it("--all-profiles: each profile's progress and summary line in German", async () => {
    const out = path.join(home, 'de-all');
    const r = await runCli(['export', '--year', '2025', '--all-profiles', '--out', out, '--lang', 'de', ...FAST], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^default: Liegenschaft 1\/\d+ „/m);
    expect(r.stderr).toMatch(/^sued: Liegenschaft 1\/\d+ „/m);
    expect(r.stderr).toMatch(/^Profil default: exportiert in \d+,\d s: „.+“, \d+ Liegenschaften?, \d+ Nutzeinheiten?, Hinweise \d+ nicht abgerechnet, /m);
    expect(r.stderr).toMatch(/^Profil sued: exportiert in /m);
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  }, 90_000);
});

describe('meterdata demo in German', () => {
  it('LANG=de_DE.UTF-8: the sandbox sign-in, the export and the findings in German', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'md-demo-de-'));
    const r = await runCli(['demo', '--units', '30'], { cwd, env: { HOME: cwd, LANG: 'de_DE.UTF-8' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^demo: Sandbox läuft unter http:\/\/127\.0\.0\.1:\d+; Anmeldung als Demo-Eigentümer …$/m);
    expect(r.stderr).toMatch(/^demo: Export 2025 für .+ …$/m);
    expect(r.stdout).toMatch(/^.*meterdata-demo geschrieben für 01\.01\.2025 bis 31\.12\.2025: billing\.csv \(\d+ Zeilen\)/);
    expect(r.stdout).toMatch(/\nHinweise nach Art:\n\s+\d+ × [A-Z_]+: /);
    expect(r.stdout).toMatch(
      /\nÖffnen Sie \S*meterdata-demo\/billing\.xlsx oder die CSV-Dateien daneben; plausibility\.csv und die Prüfhinweise zeigen die Plausibilitätsprüfung \(Nullverbrauch, Verbrauch je m², Eichfristen, § 9a HeizkostenV\)\.\n$/,
    );
    expect(await findEnglish(r.stdout + r.stderr)).toEqual([]);
  }, 60_000);

  it('--lang de: a bad --units in German', async () => {
    const r = await runCli(['demo', '--units', 'viele', '--lang', 'de']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('meterdata: --units: „viele“ ist keine Anzahl von Nutzeinheiten zwischen 1 und 50.000.\n  Beispiel: --units 60\n');
    expect(await findEnglish(r.stderr)).toEqual([]);
  });
});
