// The operator interface (--admin), auto-consent and the clients file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashClientSecret } from '../../src/sandbox/clients.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  assertionForm,
  authorize,
  basic,
  clientAssertion,
  connect,
  dpopKey,
  dpopProof,
  erpClientId,
  postForm,
  redeem,
  refresh,
  testKey,
  whoami,
} from '../helpers/sandbox-oauth.js';

const adminFetch = async (sb: Sandbox, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('admin interface', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ units: 3, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 });
  });
  afterAll(() => sb.close());

  test('GET /admin/connections lists connections with their state', async () => {
    await connect(sb.url);
    const r = await adminFetch(sb, 'GET', '/admin/connections');
    expect(r.status).toBe(200);
    const list = r.body.connections as { sid: string; state: string; client_id: string; tenant_id: string; property_scope: unknown }[];
    expect(list.at(-1)).toMatchObject({ state: 'connected', client_id: 'sandbox-demo-client', property_scope: 'all' });
  });

  test('POST /admin/connections/{sid}/disconnect revokes it; unknown sid is 404', async () => {
    const t = await connect(sb.url);
    const sid = sb.admin.connections().at(-1)!.sid;
    const r = await adminFetch(sb, 'POST', `/admin/connections/${sid}/disconnect`);
    expect(r).toMatchObject({ status: 200, body: { sid, state: 'revoked' } });
    expect((await whoami(sb.apiBase, t.access_token)).status).toBe(401);
    expect((await adminFetch(sb, 'POST', '/admin/connections/nope/disconnect')).status).toBe(404);
  });

  test('end-access revokes all connections of the tenant; enable-access restores nothing', async () => {
    const tenant = sb.dataset.tenants()[0]!;
    const t = await connect(sb.url, {}, { decision: 'approve', tenant: tenant.id });
    const end = await adminFetch(sb, 'POST', `/admin/tenants/${tenant.id}/end-access`);
    expect(end.status).toBe(200);
    expect((end.body.revoked as string[]).length).toBeGreaterThan(0);
    const me = await whoami(sb.apiBase, t.access_token);
    expect(me.status).toBe(401);
    expect(String(me.body.type)).toMatch(/#invalid-token$/);
    expect((await adminFetch(sb, 'POST', `/admin/tenants/${tenant.id}/enable-access`)).status).toBe(200);
    expect((await whoami(sb.apiBase, t.access_token)).status).toBe(401);
    expect((await refresh(sb.url, t.refresh_token)).body.error).toBe('invalid_grant');
    expect((await adminFetch(sb, 'POST', '/admin/tenants/unknown/end-access')).status).toBe(404);
  });

  test('POST /admin/clock sets and advances the sandbox clock', async () => {
    expect((await adminFetch(sb, 'GET', '/admin/clock')).body.now).toMatch(/^2026-11-22T/);
    const set = await adminFetch(sb, 'POST', '/admin/clock', { set: '2027-01-15' });
    expect(set.body.now).toMatch(/^2027-01-15T00:00/);
    const adv = await adminFetch(sb, 'POST', '/admin/clock', { advance_ms: 86_400_000 });
    expect(adv.body.now).toMatch(/^2027-01-16T00:00/);
    expect(sb.clock.now().toISOString()).toMatch(/^2027-01-16/);
    expect((await adminFetch(sb, 'POST', '/admin/clock', { set: 'soon' })).status).toBe(400);
    expect((await adminFetch(sb, 'POST', '/admin/clock', {})).status).toBe(400);
    sb.admin.setClock('2026-11-22');
  });

  test('GET /admin/log returns the request log as JSON', async () => {
    const t = await connect(sb.url);
    await whoami(sb.apiBase, t.access_token);
    const r = await adminFetch(sb, 'GET', '/admin/log');
    expect(r.status).toBe(200);
    expect(r.body.total).toBeGreaterThan(0);
  });

  test('POST /admin/revoke-all ends every open connection', async () => {
    const t = await connect(sb.url);
    const r = await adminFetch(sb, 'POST', '/admin/revoke-all');
    expect(r.body.revoked).toBeGreaterThan(0);
    expect((await whoami(sb.apiBase, t.access_token)).status).toBe(401);
    expect(sb.admin.connections().every((c) => c.state === 'revoked')).toBe(true);
  });
});

test('without --admin the admin endpoints answer 404', async () => {
  const sb = await startSandbox({ units: 2 });
  try {
    for (const [m, p] of [
      ['GET', '/admin/connections'],
      ['POST', '/admin/clock'],
      ['GET', '/admin/log'],
    ] as const)
      expect((await adminFetch(sb, m, p)).status).toBe(404);
  } finally {
    await sb.close();
  }
});

test('auto-consent approves as the demo landlord with all Properties of the first tenant, without a page', async () => {
  const sb = await startSandbox({ units: 2, autoConsent: true });
  try {
    const flow = await authorize(sb.url);
    expect(flow.page).toBeUndefined();
    expect(flow.location!.searchParams.get('iss')).toBe(sb.issuer);
    const answer = await redeem(sb.url, flow);
    const me = await whoami(sb.apiBase, answer.body.access_token as string);
    expect(me.body).toMatchObject({ tenant_id: sb.dataset.tenants()[0]!.id, property_scope: 'all' });
  } finally {
    await sb.close();
  }
});

test('a clients file registers confidential clients (secret hash, inline JWKS, DPoP binding)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'meterdata-clients-'));
  const basicId = erpClientId();
  const dpopId = erpClientId();
  const key = await testKey('ES256');
  const file = join(dir, 'clients.json');
  await writeFile(
    file,
    JSON.stringify({
      clients: [
        {
          client_id: basicId,
          client_name: 'File ERP',
          redirect_uris: ['http://127.0.0.1/callback'],
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret_sha256: hashClientSecret('s3cret'),
        },
        {
          client_id: dpopId,
          redirect_uris: ['https://erp.example/cb', 'http://127.0.0.1/callback'],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [key.publicJwk] },
          dpop_bound_access_tokens: true,
        },
      ],
    }),
  );
  const sb = await startSandbox({ units: 2, clientsFile: file, autoConsent: true });
  try {
    const flow = await authorize(sb.url, { client_id: basicId });
    const answer = await postForm(
      `${sb.url}/oauth/token`,
      {
        grant_type: 'authorization_code',
        code: flow.location!.searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1:53682/callback',
        code_verifier: flow.verifier,
      },
      basic(basicId, 's3cret'),
    );
    expect(answer.status).toBe(200);

    // The DPoP-bound private_key_jwt client of the file: no proof, no tokens; with one, DPoP tokens.
    const tokenUrl = `${sb.url}/oauth/token`;
    const dpopFlow = await authorize(sb.url, { client_id: dpopId });
    const form = async () => ({
      grant_type: 'authorization_code',
      code: dpopFlow.location!.searchParams.get('code')!,
      redirect_uri: 'http://127.0.0.1:53682/callback',
      code_verifier: dpopFlow.verifier,
      ...assertionForm(await clientAssertion(key, dpopId, tokenUrl)),
    });
    const refused = await postForm(tokenUrl, await form());
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_dpop_proof');
    const pop = await dpopKey();
    const bound = await postForm(tokenUrl, await form(), { dpop: await dpopProof(pop, 'POST', tokenUrl) });
    expect(bound.status).toBe(200);
    expect(bound.body.token_type).toBe('DPoP');
    const at = String(bound.body.access_token);
    const me = await whoami(sb.apiBase, at, { authorization: `DPoP ${at}`, dpop: await dpopProof(pop, 'GET', `${sb.apiBase}/whoami`, { accessToken: at }) });
    expect(me.status).toBe(200);
    expect(me.body.client_id).toBe(dpopId);
    expect((await whoami(sb.apiBase, at)).status).toBe(401);
  } finally {
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a bad clients file is refused with a message naming the client and the fix', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'meterdata-clients-'));
  const file = join(dir, 'clients.json');
  await writeFile(file, JSON.stringify([{ client_id: 'erp_x', redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'none' }]));
  try {
    await expect(startSandbox({ clientsFile: file })).rejects.toThrow(/client erp_x: client_id must be erp_ followed by 32/);
    await writeFile(file, '{not json');
    await expect(startSandbox({ clientsFile: file })).rejects.toThrow(/cannot read clients file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
