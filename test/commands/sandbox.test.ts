import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';
import { startCommand, stopCommands } from '../helpers/sandbox-command.js';

afterEach(stopCommands);

test('sandbox --port 0 prints its URL, serves discovery and the API, and stops when the signal aborts', async () => {
  const s = await startCommand(['--port', '0', '--units', '3']);
  expect(s.output().out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  const meta = (await (await fetch(`${s.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(meta.issuer).toBe(s.origin);
  expect(meta.token_endpoint).toBe(`${s.origin}/oauth/token`);
  const api = await fetch(`${s.origin}/v1/whoami`);
  expect(api.status).toBe(401);
  expect((await fetch(`${s.origin}/admin/connections`)).status).toBe(404);
  s.ac.abort();
  expect(await s.exit).toBe(0);
  expect(s.output().err).toContain('sandbox stopped');
  await expect(fetch(`${s.origin}/.well-known/oauth-authorization-server`)).rejects.toThrow();
});

test('sandbox in German: its own lines in German, the "listening on" line that scripts read unchanged', async () => {
  const s = await startCommand(['--auto-consent', '--admin', '--units', '2'], { LANG: 'de_DE.UTF-8' });
  s.ac.abort();
  expect(await s.exit).toBe(0);
  const { out, err } = s.output();
  expect(out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  expect(err).toMatch(
    /^auth_url http:\/\/127\.0\.0\.1:\d+ {2}base_url \S+\/v1 {2}Client sandbox-demo-client {2}\(Zustimmung automatisch\) {2}Betreiberschnittstelle unter \/admin\nSandbox beendet\n$/,
  );
  expect(await findEnglish(err)).toEqual([]);
});

test.each([
  [['--port', '70000'], 'meterdata: --port muss eine ganze Zahl von 0 bis 65535 sein, nicht „70000“.\n  Beispiel: --port 0 (ein beliebiger freier Port)\n'],
  [
    ['--clock', '2026-02-30'],
    'meterdata: --clock: „2026-02-30“ ist kein Datum; bitte als jjjj-mm-tt angeben, z. B. 2025-01-01.\n  Datumsangaben als jjjj-mm-tt (2025-03-31), Jahre vierstellig (2025).\n',
  ],
])('sandbox %j is refused in German', async (args, text) => {
  const r = await runCli(['sandbox', ...args, '--lang', 'de']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(text);
});

test('sandbox --admin --clock serves the admin interface with the given date', async () => {
  const s = await startCommand(['--admin', '--clock', '2026-11-22', '--units', '2']);
  const clock = (await (await fetch(`${s.origin}/admin/clock`)).json()) as { now: string };
  expect(clock.now.slice(0, 10)).toBe('2026-11-22');
  s.ac.abort();
  expect(await s.exit).toBe(0);
});

test.each([
  [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
  [['--units', '0'], /--units must be a whole number from 1 to 50000/],
  [['--rate-limit', '-1'], /--rate-limit/],
  [['--oauth-rate-limit', 'x'], /--oauth-rate-limit must be a whole number from 0 to 1000000, not "x"/],
  [['--clock', '2026-13-01'], /--clock: "2026-13-01" is not a date; use yyyy-mm-dd/],
  [['--clock', 'Nov 22 2026'], /--clock: "Nov 22 2026" is not a date; use yyyy-mm-dd/],
  [['--clock', '1899-12-31'], /--clock: 1899-12-31 lies outside the years 1900 to 2999/],
  [['--fault', 'nonsense'], /Invalid fault spec 'nonsense'/],
  [['--clients', '/nonexistent/clients.json'], /cannot read clients file/],
  // read only as a plain file within a bound: a FIFO hung the command, /dev/zero filled the memory
  [['--clients', '/dev/zero'], /cannot read clients file \/dev\/zero: it is not a plain file/],
])('sandbox %j is refused with a usage error', async (args, message) => {
  const r = await runCli(['sandbox', ...args]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(message);
});

test('sandbox --clients FIFO: refused at once, not waited on', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'meterdata-clients-'));
  const fifo = join(dir, 'clients.json');
  execFileSync('mkfifo', [fifo]);
  const r = await runCli(['sandbox', '--clients', fifo]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`cannot read clients file ${fifo}: it is not a plain file`);
}, 10_000);

test('sandbox --oauth-rate-limit 2: the third /oauth/authorize request within a minute is 429', async () => {
  const s = await startCommand(['--oauth-rate-limit', '2', '--units', '2']);
  const open = () => fetch(`${s.origin}/oauth/authorize?client_id=sandbox-demo-client`, { redirect: 'manual' });
  expect((await open()).status).not.toBe(429);
  expect((await open()).status).not.toBe(429);
  const third = await open();
  expect(third.status).toBe(429);
  expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  s.ac.abort();
  expect(await s.exit).toBe(0);
});

test('a port already in use gives a clear error', async () => {
  const s = await startCommand(['--units', '2']);
  const port = new URL(s.origin).port;
  const r = await runCli(['sandbox', '--port', port, '--units', '2']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
  s.ac.abort();
  await s.exit;
});

test.each([
  [
    ['--fault', 'nonsense'],
    /^meterdata: Ungültige Fehlerangabe „nonsense“: nicht in der Form KIND:RATE oder KIND@N,N\.\n {2}Bitte als KIND:RATE oder KIND@N,N angeben/,
  ],
  [['--fault', '500:2'], /^meterdata: Ungültige Fehlerangabe „500:2“: die Rate muss eine Zahl von 0 bis 1 sein\./],
  [['--fault', '418@1'], /^meterdata: Ungültige Fehlerangabe „418@1“: unbekannte Art „418“\./],
  [
    ['--clients', '/nonexistent/clients.json'],
    /^meterdata: Die Client-Datei \/nonexistent\/clients\.json lässt sich nicht lesen: ENOENT\n {2}Das Format der Client-Datei beschreibt docs\/sandbox\.md\.\n$/,
  ],
])('sandbox %j is refused in German, naming the fix', async (args, message) => {
  const r = await runCli(['sandbox', ...args, '--lang', 'de']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(await findEnglish(r.stderr)).toEqual([]);
});

test('a clients file with a bad registration is refused in German, each check in German', async () => {
  const { writeFile } = await import('node:fs/promises');
  const dir = await mkdtemp(join(tmpdir(), 'meterdata-clients-'));
  const cases: [unknown, RegExp][] = [
    ['{"clients": [', /Die Client-Datei \S+ lässt sich nicht lesen: kein gültiges JSON/],
    [{ clients: 'x' }, /muss \{"clients": \[\.\.\.\]\} oder eine Liste enthalten/],
    [
      [{ client_id: 'erp_x', redirect_uris: ['https://erp.example/cb'], token_endpoint_auth_method: 'none' }],
      /Client erp_x: client_id muss erp_ gefolgt von 32 Hex-Zeichen/,
    ],
    [
      [{ client_id: `erp_${'a'.repeat(32)}`, redirect_uris: ['http://erp.example/cb'], token_endpoint_auth_method: 'none' }],
      /Redirect-URI http:\/\/erp\.example\/cb muss https sein/,
    ],
    [
      [
        {
          client_id: `erp_${'a'.repeat(32)}`,
          redirect_uris: ['https://erp.example/cb'],
          token_endpoint_auth_method: 'none',
          auto_consent_tenant: 'Niemand GmbH',
        },
      ],
      /auto_consent_tenant Niemand GmbH ist kein Eigentümer dieser Sandbox/,
    ],
  ];
  for (const [i, [content, message]] of cases.entries()) {
    const file = join(dir, `clients-${i}.json`);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    const r = await runCli(['sandbox', '--clients', file, '--units', '2', '--lang', 'de']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(await findEnglish(r.stderr)).toEqual([]);
  }
});
