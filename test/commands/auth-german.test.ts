// login, status and logout in German (--lang de, or LANG=de_DE.UTF-8) against the sandbox:
// what they print is German, no English phrase of any catalogue is left, and the codes and
// the --json keys stay as they are.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { configFile } from '../../src/core/config.js';
import { formatError, InterruptedError, ServiceUnavailableError } from '../../src/core/errors.js';
import { checkCallback } from '../../src/auth/authorize.js';
import { setLanguage } from '../../src/i18n/index.js';
import { runCli } from '../helpers/run-cli.js';
import { loginLive, runLive } from '../helpers/browser.js';
import { findEnglish } from '../helpers/catalogues.js';
import { setAccessExpiry, signedIn, storeFile } from '../helpers/signed-in.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 });
});
afterAll(async () => sb?.close());
afterEach(() => setLanguage('en'));

const freshEnv = (): NodeJS.ProcessEnv => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-de-')), METERDATA_CREDENTIAL_STORE: 'file' });
const GERMAN = { LANG: 'de_DE.UTF-8' };

describe('sign-in in German', () => {
  it('login --lang de, then status (LANG=de_DE.UTF-8) and logout --lang de: German, no English phrase, codes and JSON keys unchanged', async () => {
    const env = freshEnv();
    const login = await loginLive(['login', '--lang', 'de', '--no-browser', '--auth-url', sb.url], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(
      /^Um meterdata zu verbinden, öffnen Sie diese Adresse in einem Browser und geben Sie den Zugriff frei:\nhttp:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+$/m,
    );
    expect(login.stderr).toMatch(/^Warte auf die Anmeldung\./m);
    expect(login.stdout).toMatch(/^Profil „default“ ist mit .+ verbunden\.\n {2}Berechtigungen: {7}read:units read:devices read:readings\n/);
    expect(login.stdout).toMatch(/\n {2}DPoP: {17}aus\n {2}Token gespeichert in: Datei .*credentials\/default\.json \(Modus 0600\)\n/);
    expect(login.page.text).toMatch(
      /<html lang="de">.*<h1 id="meterdata-result">Angemeldet<\/h1><p>meterdata hat die Anmeldung erhalten\. Sie können diesen Tab schließen/,
    );
    expect(await findEnglish([login.stdout, login.stderr, login.page.text].join('\n'))).toEqual([]);

    const status = await runCli(['status'], { env: { ...env, ...GERMAN } });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Profil „default“: verbunden, funktioniert\n {2}Anmeldeserver: {4}http:\/\/127\.0\.0\.1:\d+\n {2}API: {14}http/);
    expect(status.stdout).toMatch(/\n {2}Zugriffstoken: {4}läuft ab 20\d\d-/);
    expect(status.stdout).toMatch(/\n {2}Gespeichert in: {3}Datei /);
    expect(await findEnglish(status.stdout + status.stderr)).toEqual([]);
    const json = await runCli(['status', '--json', '--lang', 'de'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'default', signed_in: true, working: true, storage: expect.stringMatching(/^Datei /) });

    const logout = await runCli(['logout', '--lang', 'de'], { env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toBe('Profil „default“ abgemeldet: Verbindung beim Server widerrufen; die lokale Anmeldung wurde aus der Anmeldedatei gelöscht.\n');
    const again = await runCli(['logout', '--lang', 'de'], { env });
    expect(again.stderr).toBe('Das Profil „default“ ist nicht angemeldet; nichts zu widerrufen oder zu löschen.\n');
  });

  it('a damaged stored sign-in: status names the field in German (exit 3), login replaces it saying so, logout clears it', async () => {
    const { env } = await signedIn({ at: sb, login: [], credentialStore: 'file', homePrefix: 'md-de-' });
    const rec = JSON.parse(readFileSync(storeFile(env), 'utf8'));
    writeFileSync(storeFile(env), JSON.stringify({ ...rec, refresh_intent: { at: rec.updated_at, pid: 'x', host: 'h' } }), { mode: 0o600 });
    const status = await runCli(['status'], { env: { ...env, ...GERMAN } });
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/^Profil „default“: nicht angemeldet\n/);
    expect(status.stdout).toMatch(
      /\n {2}Problem: {10}Die gespeicherte Anmeldung in .*default\.json ist beschädigt: „refresh_intent\.pid“ muss eine Zahl sein\.\n {20}Führen Sie `meterdata login` aus, um sie zu ersetzen/,
    );
    expect(status.stdout).not.toContain(rec.refresh_token);
    expect(await findEnglish(status.stdout)).toEqual([]);
    const json = JSON.parse((await runCli(['status', '--json'], { env })).stdout);
    expect(json.problem).toMatchObject({ code: 'AUTH_STORE_DAMAGED', message: expect.stringMatching(/is damaged: "refresh_intent\.pid" must be a number\.$/) });
    // Signing in again replaces it, and says that its connection could not be revoked.
    const relogin = await loginLive(['login', '--lang', 'de', '--no-browser', '--auth-url', sb.url], env);
    expect(relogin.code, relogin.stderr).toBe(0);
    expect(relogin.stderr).toMatch(
      /^Die gespeicherte Anmeldung in .*default\.json ist beschädigt: „refresh_intent\.pid“ muss eine Zahl sein\. Diese Anmeldung ersetzt sie; ihre Verbindung wurde nicht widerrufen/m,
    );
    expect(JSON.parse(readFileSync(storeFile(env), 'utf8')).refresh_intent).toBeUndefined();
    writeFileSync(storeFile(env), '{"v":1,"refresh_tok', { mode: 0o600 });
    const logout = await runCli(['logout'], { env: { ...env, ...GERMAN } });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toMatch(
      /^Profil „default“ abgemeldet: die gespeicherte Anmeldung war beschädigt, .* der beschädigte Eintrag wurde aus der Anmeldedatei gelöscht\.\n$/,
    );
  });

  it('login replaces a damaged profile and says so, in both languages', async () => {
    for (const lang of ['en', 'de'] as const) {
      const env = freshEnv();
      mkdirSync(path.dirname(configFile(env)), { recursive: true });
      writeFileSync(configFile(env), JSON.stringify({ profiles: { default: { name: 'default', auth_url: sb.url, dpop: 'yes' } } }));
      expect((await runCli(['status', '--lang', lang], { env })).code).toBe(2);
      const r = await loginLive(['login', '--lang', lang, '--no-browser', '--auth-url', sb.url], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        lang === 'en'
          ? /^The profile "default" in .*config\.json cannot be used: "base_url" is missing\. This sign-in replaces the profile\.$/m
          : /^Das Profil „default“ in .*config\.json ist nicht verwendbar: „base_url“ fehlt\. Diese Anmeldung ersetzt das Profil\.$/m,
      );
      expect(JSON.parse(readFileSync(configFile(env), 'utf8')).profiles.default).toMatchObject({ dpop: false, base_url: `${sb.url}/v1` });
      expect((await runCli(['status'], { env })).code).toBe(0);
    }
  });
});

describe('status --all with a damaged profile', () => {
  it('lists it with its problem (the field named) and still checks the others; exit 3', async () => {
    const { env } = await signedIn({ at: sb, login: [], profiles: ['good'], credentialStore: 'file', homePrefix: 'md-de-' });
    const config = JSON.parse(readFileSync(configFile(env), 'utf8'));
    config.profiles.bad = { ...config.profiles.good, name: 'bad', scopes: 'read:units' };
    writeFileSync(configFile(env), JSON.stringify(config));
    const json = await runCli(['status', '--all', '--json'], { env });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        profile: 'bad',
        signed_in: false,
        working: false,
        problem: expect.objectContaining({ code: 'CONFIG_PROFILE_INVALID', message: expect.stringMatching(/"scopes" must be a list, not "read:units"\.$/) }),
      },
      expect.objectContaining({ profile: 'good', signed_in: true, working: true }),
    ]);
    const de = await runCli(['status', '--all', '--lang', 'de'], { env });
    expect(de.stdout).toMatch(
      /^Profil „bad“: nicht angemeldet\n {2}Problem: {10}Das Profil „bad“ in .*config\.json ist nicht verwendbar: „scopes“ muss eine Liste sein, nicht "read:units"\.\n/,
    );
    expect(de.stdout).toMatch(/\nProfil „good“: verbunden, funktioniert\n/);
    // Only that profile is named: `status --profile bad` is a usage error (exit 2), `--profile good` works.
    expect((await runCli(['status', '--profile', 'bad'], { env })).code).toBe(2);
    expect((await runCli(['status', '--profile', 'good'], { env })).code).toBe(0);
  });
});

describe('error lines in German', () => {
  it('a usage error, a sign-in timeout and an interruption: one German line and hint each, no English phrase', async () => {
    const env = { ...freshEnv(), ...GERMAN };
    const usage = await runCli(['login'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      'meterdata: meterdata weiß nicht, wo die Anmeldung stattfinden soll.\n  Geben Sie --env sandbox oder --env production an (URLs aus der Konfigurationsdatei), oder --auth-url (und --base-url) für einen anderen Server.\n',
    );
    const timeout = await runLive(['login', '--no-browser', '--timeout', '1', '--auth-url', sb.url], env).done;
    expect(timeout.code).toBe(3);
    expect(timeout.stderr).toMatch(
      /\nmeterdata: Innerhalb von 1 Sekunde kam keine Antwort der Anmeldung; es wurde nichts geändert\.\n {2}Führen Sie `meterdata login` erneut aus und geben Sie den Zugriff im Browser frei\.\n$/,
    );
    const stop = new AbortController();
    const live = runLive(['login', '--no-browser', '--auth-url', sb.url], env, { signal: stop.signal });
    await live.url;
    stop.abort(new InterruptedError());
    const interrupted = await live.done;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toMatch(/\nmeterdata: Anmeldung abgebrochen; es wurde nichts geändert\.\n {2}Führen Sie `meterdata login` erneut aus\.\n$/);
    expect(await findEnglish([usage.stderr, timeout.stderr, interrupted.stderr].join('\n'))).toEqual([]);
  });

  it('login --timeout is checked as the flags are read: a bad value is named before anything else, with an example, in both languages', async () => {
    const env = freshEnv();
    // No server is given either: the flag's own error comes first, not "where to sign in".
    const de = await runCli(['login', '--timeout', 'bald', '--lang', 'de'], { env });
    expect(de.code).toBe(2);
    expect(de.stderr).toBe('meterdata: --timeout muss eine positive Zahl von Sekunden sein, nicht „bald“.\n  Beispiel: --timeout 300\n');
    expect(await findEnglish(de.stderr)).toEqual([]);
    const en = await runCli(['login', '--timeout', '0', '--lang', 'en'], { env });
    expect(en.code).toBe(2);
    expect(en.stderr).toBe('meterdata: --timeout must be a positive number of seconds, not "0".\n  Example: --timeout 300\n');
  });

  it('a connection the landlord ended: the refresh is refused, said in German (exit 3)', async () => {
    const { env, sid } = await signedIn({ at: sb, login: [], credentialStore: 'file', homePrefix: 'md-de-' });
    expect(await sb.admin.disconnect(sid)).toBe(true);
    setAccessExpiry(storeFile(env));
    const tok = await runCli(['token', '--lang', 'de'], { env });
    expect(tok.code).toBe(3);
    expect(tok.stderr).toBe(
      'meterdata: Die Verbindung wurde widerrufen oder ist abgelaufen (der Eigentümer hat sie getrennt, die Freigabe ist beendet, oder sie wurde 90 Tage nicht genutzt).\n' +
        '  Führen Sie `meterdata login` aus, um die Verbindung neu herzustellen.\n',
    );
    expect(await findEnglish(tok.stderr)).toEqual([]);
  });

  it("the error family's own texts and a forged sign-in answer", async () => {
    setLanguage('de');
    expect(formatError(new TypeError('x is undefined')).text).toMatch(
      /^meterdata: unerwarteter Fehler \(ein Programmfehler; bitte melden Sie ihn mit den folgenden Zeilen\)\nTypeError: x is undefined/,
    );
    expect(formatError(new InterruptedError()).text).toBe(
      'meterdata: Abgebrochen.\n  Es wurde nichts halb geschrieben; führen Sie denselben Befehl erneut aus, um fortzufahren.',
    );
    expect(new ServiceUnavailableError('x').hint).toBe('Bitte versuchen Sie es später erneut; wenn der Fehler bleibt, prüfen Sie den Status des Dienstes.');
    const forged = checkCallback(
      new URLSearchParams({ iss: 'https://evil.example', state: 's', code: 'c' }),
      { issuer: 'https://auth.example', state: 's' },
      'Führen Sie `meterdata login` erneut aus',
    );
    expect(forged.ok).toBe(false);
    const { text } = formatError(!forged.ok && forged.error);
    expect(text).toBe(
      'meterdata: Die Antwort der Anmeldung nennt einen anderen Server (https://evil.example) als den, bei dem meterdata angefragt hat (https://auth.example); ihr Code wurde nicht verwendet.\n' +
        '  Führen Sie `meterdata login` erneut aus. Wenn das wieder passiert, stört etwas zwischen Browser und meterdata.',
    );
    expect(await findEnglish(text)).toEqual([]);
    setLanguage('en');
    expect(formatError(new InterruptedError()).text).toBe('meterdata: Interrupted.\n  Nothing was half-written; run the same command again to continue.');
  });
});
