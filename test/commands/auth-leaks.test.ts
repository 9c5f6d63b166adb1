// The token-leak scanner: a whole connection life (login, status, refresh, failures,
// logout) with every secret it ever held collected from the store, then every captured
// output, callback page and non-credential file is scanned for those values.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { hashClientSecret } from '../../src/sandbox/clients.js';
import { runCli } from '../helpers/run-cli.js';
import { loginLive } from '../helpers/browser.js';

const secret = randomBytes(24).toString('base64url');
const clientId = `erp_${randomBytes(16).toString('hex')}`;
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({
    autoConsent: true,
    admin: true,
    clock: '2026-11-22',
    clients: [
      {
        client_id: clientId,
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret_sha256: hashClientSecret(secret),
      },
    ],
  });
});
afterAll(async () => sb?.close());

it('no token, secret or DPoP key appears in any output, page, log or config file', async () => {
  const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-leaks-')), METERDATA_CREDENTIAL_STORE: 'file' };
  const file = path.join(env.METERDATA_HOME, 'state', 'credentials', 'default.json');
  const secrets = new Set<string>([secret]);
  const outputs: string[] = [];
  const collect = () => {
    try {
      const rec = JSON.parse(readFileSync(file, 'utf8'));
      for (const v of [rec.access_token, rec.refresh_token, rec.client_secret, rec.dpop_jwk?.d]) if (v) secrets.add(v);
    } catch {
      // no record (yet / any more)
    }
  };
  const cli = async (argv: string[], opts: { stdin?: string; tokenOnStdout?: boolean } = {}) => {
    const r = await runCli(argv, { env, ...(opts.stdin ? { stdin: opts.stdin } : {}) });
    outputs.push(r.stderr, opts.tokenOnStdout ? '' : r.stdout);
    collect();
    return r;
  };

  // login with a secret on stdin and DPoP
  const before = new Set(sb.admin.connections().map((c) => c.sid));
  const done = await loginLive(['login', '--no-browser', '--auth-url', sb.url, '--client-id', clientId, '--client-secret-stdin', '--dpop'], env, {
    stdinText: `${secret}\n`,
  });
  const page = done.page;
  expect(done.code, done.stderr).toBe(0);
  outputs.push(done.stdout, done.stderr, page.text);
  collect();

  await cli(['status']);
  await cli(['status', '--json', '--all']);
  // force two refreshes
  for (let i = 0; i < 2; i++) {
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    rec.access_expires_at = new Date(0).toISOString();
    writeFileSync(file, JSON.stringify(rec), { mode: 0o600 });
    expect((await cli(['token'], { tokenOnStdout: true })).code).toBe(0);
  }
  // the connection ends: every failing command's message
  const sid = sb.admin.connections().find((c) => !before.has(c.sid))!.sid;
  await sb.admin.disconnect(sid);
  expect((await cli(['status'])).code).toBe(3);
  expect((await cli(['status', '--json'])).code).toBe(3);
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  rec.access_expires_at = new Date(0).toISOString();
  writeFileSync(file, JSON.stringify(rec), { mode: 0o600 });
  expect((await cli(['token'])).code).toBe(3);
  expect((await cli(['logout'])).code).toBe(0);
  expect((await cli(['logout'])).code).toBe(0);

  expect(secrets.size).toBeGreaterThanOrEqual(8); // 3 access + 3 refresh tokens, secret, DPoP key
  const files = readdirSync(env.METERDATA_HOME, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
  const haystacks = [...outputs, ...files.map((f) => readFileSync(f, 'utf8'))];
  for (const s of secrets) {
    for (const h of haystacks) expect(h.includes(s), `a secret (${s.slice(0, 6)}…) leaked`).toBe(false);
  }
});
