// The API helper's messages in German (issue 11): representative error answers of a hostile
// service, run through the CLI with --lang de, come out German with no English phrase of any
// catalogue; with --lang en they stay what they were.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeApi, pageOf, problem, type FakeApi } from '../helpers/fake-api-server.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';
import { aProperty, aWhoAmI, uuid } from '../helpers/builders.js';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => api?.close());

const env = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-api-de-')), METERDATA_ACCESS_TOKEN: 'tok', METERDATA_BASE_URL: api.baseUrl });

async function exportIn(lang: 'de' | 'en', extra: string[] = []) {
  const e = env();
  return runCli(['export', '--year', '2025', '--out', path.join(e.METERDATA_HOME, 'out'), '--quiet', '--lang', lang, ...extra], { env: e });
}

/** The error block (message and hint) the CLI printed. */
const said = (r: { stderr: string }) => r.stderr;

describe('API errors in German', () => {
  it('a missing permission (403 insufficient-scope) names it in German, the command line unchanged', async () => {
    api.inject(
      '/v1/whoami',
      problem(403, 'insufficient-scope', { headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="read:readings"' } }),
    );
    const de = await exportIn('de');
    expect(de.code).toBe(3);
    expect(said(de)).toContain(
      'Die Anmeldung enthält die Berechtigung "read:readings" nicht, die GET /v1/whoami benötigt (Trace-ID trace-insufficient-scope-403).',
    );
    expect(said(de)).toContain("Bitte mit dieser Berechtigung neu anmelden: meterdata login --scope 'read:units read:devices read:readings'");
    expect(await findEnglish(said(de))).toEqual([]);
    api.inject(
      '/v1/whoami',
      problem(403, 'insufficient-scope', { headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="read:readings"' } }),
    );
    const en = await exportIn('en');
    expect(said(en)).toContain(
      'The sign-in does not include the permission "read:readings", which GET /v1/whoami needs (trace id trace-insufficient-scope-403).',
    );
  });

  it('a Retry-After beyond the bound (RATE_LIMITED_TOO_LONG) says in German how long and when to come back', async () => {
    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '7200' } }));
    const de = await exportIn('de');
    expect(de.code).toBe(5);
    expect(said(de)).toContain(
      'eine Wartezeit von 2 Stunden (HTTP 429, Retry-After), länger als die 5 Minuten, die meterdata wartet; abgebrochen statt zu warten.',
    );
    expect(said(de)).toMatch(/Bitte den Befehl nach \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(UTC\) erneut ausführen\./);
    expect(await findEnglish(said(de))).toEqual([]);
  });

  it('a list that does not end (API_EMPTY_PAGE) and an answer that breaks the contract (API_BAD_ANSWER)', async () => {
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/properties', pageOf([], 'again'));
    const empty = await exportIn('de');
    expect(empty.code).toBe(5);
    expect(said(empty)).toContain(
      'Die Liste GET /v1/properties des Messdienstes endet nicht: Seite 1 kommt ohne Einträge, verweist aber auf eine weitere Seite; nach 1 Seite abgebrochen',
    );
    expect(await findEnglish(said(empty))).toEqual([]);

    api.inject('/v1/properties', pageOf([{ id: uuid() }], null));
    const bad = await exportIn('de');
    expect(bad.code).toBe(5);
    expect(said(bad)).toContain('Der Messdienst hat auf GET /v1/properties eine Antwort gesendet, die den API-Vertrag verletzt: data[0].tenant_id fehlt.');
    expect(await findEnglish(said(bad))).toEqual([]);
    api.inject('/v1/properties', pageOf([{ id: uuid() }], null));
    expect(said(await exportIn('en'))).toContain(
      'The metering service sent an answer to GET /v1/properties that breaks the API contract: data[0].tenant_id is missing.',
    );
  });

  it('an answer about another Property than the one asked for (API_WRONG_OBJECT)', async () => {
    const asked = uuid();
    api.inject(`/v1/properties/${asked}`, { json: aProperty({ id: uuid(), name: 'Musterhof' }) });
    const de = await exportIn('de', ['--property', asked]);
    expect(de.code).toBe(5);
    expect(said(de)).toContain(`Der Messdienst hat GET /v1/properties/${asked} für die Liegenschaft`);
    expect(said(de)).toContain('Aus dieser Antwort wurde nichts abgerechnet und keine Datei geschrieben.');
    expect(await findEnglish(said(de))).toEqual([]);
  });

  it('an id that is not there (NOT_FOUND) is named with its kind in German', async () => {
    const asked = uuid();
    api.inject(`/v1/properties/${asked}`, problem(404, 'resource-not-found'));
    const de = await exportIn('de', ['--property', asked]);
    expect(de.code).toBe(2);
    expect(said(de)).toContain(`Die Liegenschaft ${asked} ist in der Auswahl des Eigentümers nicht vorhanden (Trace-ID trace-resource-not-found-404).`);
    expect(said(de)).toContain('Bitte die ID prüfen; `meterdata browse` zeigt, was diese Verbindung sehen darf.');
    expect(await findEnglish(said(de))).toEqual([]);
  });

  it('a profile that is not signed in (AUTH_NOT_SIGNED_IN): message and hint of the session in German', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-api-de-'));
    const de = await runCli(['export', '--year', '2025', '--out', path.join(home, 'out'), '--profile', 'buero', '--lang', 'de'], {
      env: { METERDATA_HOME: home },
    });
    expect(de.code).toBe(3);
    expect(said(de)).toContain('Das Profil "buero" ist nicht angemeldet.');
    expect(said(de)).toContain('Bitte `meterdata login --profile buero` ausführen.');
    expect(await findEnglish(said(de))).toEqual([]);
  });
});
