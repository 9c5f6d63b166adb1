// Every client authentication method and DPoP against clients registered in the sandbox.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, importSPKI, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type ClientRegistration } from '../../src/sandbox/server.js';
import { hashClientSecret } from '../../src/sandbox/clients.js';
import { openConnection } from '../../src/auth/connection.js';
import { runCli } from '../helpers/run-cli.js';
import { deliver, followToRedirect, runLive } from '../helpers/browser.js';

const erpId = () => `erp_${randomBytes(16).toString('hex')}`;
const loopback = ['http://127.0.0.1/callback'];
const secret = randomBytes(24).toString('base64url');
const basic: ClientRegistration = {
  client_id: erpId(),
  redirect_uris: loopback,
  token_endpoint_auth_method: 'client_secret_basic',
  client_secret_sha256: hashClientSecret(secret),
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'md-keys-'));

async function keyClient(alg: 'RS256' | 'PS256' | 'ES256', format: 'pem' | 'jwk'): Promise<{ reg: ClientRegistration; file: string; kid: string }> {
  const pair = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `k-${alg}-${format}`;
  const pub = (await exportJWK(await importSPKI(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), alg))) as JWK;
  const file = path.join(dir, `${kid}.${format}`);
  writeFileSync(
    file,
    format === 'pem' ? pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() : JSON.stringify(pair.privateKey.export({ format: 'jwk' })),
    { mode: 0o600 },
  );
  return {
    reg: { client_id: erpId(), redirect_uris: loopback, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ ...pub, kid, alg, use: 'sig' }] } },
    file,
    kid,
  };
}

let sb: Sandbox;
let rs: Awaited<ReturnType<typeof keyClient>>;
let ps: Awaited<ReturnType<typeof keyClient>>;
let es: Awaited<ReturnType<typeof keyClient>>;
const dpopPublic: ClientRegistration = { client_id: erpId(), redirect_uris: loopback, token_endpoint_auth_method: 'none', dpop_bound_access_tokens: true };

beforeAll(async () => {
  [rs, ps, es] = await Promise.all([keyClient('RS256', 'pem'), keyClient('PS256', 'jwk'), keyClient('ES256', 'pem')]);
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22', clients: [basic, rs.reg, ps.reg, es.reg, dpopPublic] });
});
afterAll(async () => sb?.close());

const freshEnv = (extra: NodeJS.ProcessEnv = {}) => ({
  METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-clients-')),
  METERDATA_CREDENTIAL_STORE: 'file',
  ...extra,
});

async function login(env: NodeJS.ProcessEnv, args: string[], stdinText?: string) {
  const run = runLive(['login', '--no-browser', '--auth-url', sb.url, ...args], env, stdinText === undefined ? {} : { stdinText });
  const url = await run.url.catch(() => undefined);
  if (url) await deliver(await followToRedirect(url));
  return run.done;
}

function storeFile(env: NodeJS.ProcessEnv, profile = 'default') {
  return path.join(env.METERDATA_HOME!, 'state', 'credentials', `${profile}.json`);
}

async function refreshWorks(env: NodeJS.ProcessEnv) {
  const conn = await openConnection({ env });
  const before = await conn.credentials.currentToken();
  await conn.credentials.refreshAfterRejection(before);
  const after = await conn.credentials.currentToken();
  expect(after).not.toBe(before);
  const st = await runCli(['status', '--json'], { env });
  expect(st.code, st.stdout).toBe(0);
}

describe('client_secret_basic', () => {
  it('takes the secret from stdin, keeps it only in the credential store, refreshes and revokes with it', async () => {
    const env = freshEnv();
    const r = await login(env, ['--client-id', basic.client_id, '--client-secret-stdin'], `${secret}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(storeFile(env), 'utf8')).client_secret).toBe(secret);
    const config = readFileSync(path.join(env.METERDATA_HOME, 'config', 'config.json'), 'utf8');
    expect(config).not.toContain(secret);
    expect(JSON.parse(config).profiles.default.client_auth).toBe('client_secret_basic');
    expect(r.stdout + r.stderr).not.toContain(secret);
    await refreshWorks(env);
    const out = await runCli(['logout'], { env });
    expect(out.stderr).toMatch(/revoked at the server/);
  });

  it('takes the secret from METERDATA_CLIENT_SECRET', async () => {
    const env = freshEnv({ METERDATA_CLIENT_SECRET: secret });
    const r = await login(env, ['--client-id', basic.client_id]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(storeFile(env), 'utf8')).client_secret).toBeUndefined();
    await refreshWorks(env);
  });

  it('a wrong secret is refused with a message naming the fix, without the secret', async () => {
    const env = freshEnv({ METERDATA_CLIENT_SECRET: 'wrong-secret-value' });
    const r = await login(env, ['--client-id', basic.client_id]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the client's authentication/);
    expect(r.stderr).not.toContain('wrong-secret-value');
  });
});

describe('private_key_jwt', () => {
  it.each([
    ['RS256 PEM', () => rs, 'RS256'],
    ['PS256 JWK', () => ps, 'PS256'],
    ['ES256 PEM', () => es, 'ES256'],
  ])('%s signs in, refreshes and revokes', async (_name, get, alg) => {
    const k = get();
    const env = freshEnv();
    const r = await login(env, ['--client-id', k.reg.client_id, '--client-auth', 'private_key_jwt', '--private-key', k.file, '--kid', k.kid, '--alg', alg]);
    expect(r.code, r.stderr).toBe(0);
    const profile = JSON.parse(readFileSync(path.join(env.METERDATA_HOME, 'config', 'config.json'), 'utf8')).profiles.default;
    expect(profile).toMatchObject({ client_auth: 'private_key_jwt', private_key_file: k.file, kid: k.kid, alg });
    await refreshWorks(env);
    expect((await runCli(['logout'], { env })).stderr).toMatch(/revoked at the server/);
  });

  it('an unreadable key file is a usage error', async () => {
    const env = freshEnv();
    const r = await login(env, ['--client-id', rs.reg.client_id, '--private-key', path.join(dir, 'missing.pem'), '--kid', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Cannot read the private key file/);
  });

  it('a key file that is a FIFO or /dev/zero is refused at once, not waited on or read forever', async () => {
    const fifo = path.join(dir, 'key.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const file of [fifo, '/dev/zero']) {
      const r = await login(freshEnv(), ['--client-id', rs.reg.client_id, '--private-key', file, '--kid', 'x']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`Cannot read the private key file ${file} (it is not a plain file (a pipe or a device?)).`);
    }
  }, 15_000);
});

describe('DPoP', () => {
  it('a DPoP-bound client gets DPoP tokens; API calls carry fresh proofs; the token alone as Bearer is refused', async () => {
    const env = freshEnv();
    const r = await login(env, ['--client-id', dpopPublic.client_id, '--dpop']);
    expect(r.code, r.stderr).toBe(0);
    const rec = JSON.parse(readFileSync(storeFile(env), 'utf8'));
    expect(rec.token_type).toBe('DPoP');
    expect(rec.dpop_jwk.d).toBeTruthy();
    const conn = await openConnection({ env });
    const url = `${sb.apiBase}/whoami`;
    const h = await conn.credentials.headersFor('GET', url);
    expect(h.authorization).toMatch(/^DPoP /);
    expect(h.dpop).toBeTruthy();
    expect((await fetch(url, { headers: h })).status).toBe(200);
    // a replayed proof, a Bearer use, and a proofless DPoP use are all refused
    expect((await fetch(url, { headers: h })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${rec.access_token}` } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: h.authorization! } })).status).toBe(401);
    await refreshWorks(env);
    expect(JSON.parse(readFileSync(storeFile(env), 'utf8')).dpop_jwk).toEqual(rec.dpop_jwk);
  });

  it('the DPoP-bound client refuses to issue tokens to a login without --dpop', async () => {
    const env = freshEnv();
    const r = await login(env, ['--client-id', dpopPublic.client_id]);
    expect(r.code).not.toBe(0);
    // the sandbox answers invalid_dpop_proof: a usage error (exit 2, AUTH_DPOP_REQUIRED) naming --dpop
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/requires DPoP-bound tokens for this client/);
    expect(r.stderr).toMatch(/--dpop/);
    expect(existsSync(storeFile(env))).toBe(false);
  });

  it('--dpop works with the demo client too', async () => {
    const env = freshEnv();
    const r = await login(env, ['--dpop']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/DPoP: +on/);
    await refreshWorks(env);
  });
});
