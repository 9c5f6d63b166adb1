// Plain-HTTP OAuth helpers for the sandbox conformance tests: PKCE, a tiny cookie jar,
// following the consent flow by hand, token requests, client assertions and DPoP proofs.
// Independent of the project's sign-in code; only the browser's redirect-and-cookie loop is shared.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { CookieJar, followRedirects } from '../../src/sandbox/follow-redirects.js';

export { CookieJar };

export const DEMO_CLIENT = 'sandbox-demo-client';
export const DEMO_REDIRECT = 'http://127.0.0.1:53682/callback';
export const ALL_SCOPES = 'read:units read:devices read:readings';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  /** null leaves the parameter out. */
  scope?: string | null;
  state?: string;
  resource?: string | null;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  [k: string]: string | null | undefined;
}

export function authorizeUrl(origin: string, p: AuthorizeParams): URL {
  const url = new URL('/oauth/authorize', origin);
  const all: AuthorizeParams = { response_type: 'code', client_id: DEMO_CLIENT, redirect_uri: DEMO_REDIRECT, scope: ALL_SCOPES, state: randomUUID(), ...p };
  for (const [k, v] of Object.entries(all)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return url;
}

export async function get(url: string | URL, jar?: CookieJar, accept = 'text/html'): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual', headers: { accept, ...(jar ? { cookie: jar.header() } : {}) } });
  jar?.take(res);
  return res;
}

/** Follows redirects on the sandbox until one leaves it (the client's redirect URI) or a page is shown. */
export async function follow(res: Response, jar: CookieJar): Promise<{ res: Response; location?: URL }> {
  return followRedirects(res, { maxHops: 10, jar, accept: 'text/html', stayOnOrigin: true });
}

export interface ConsentChoice {
  decision?: 'approve' | 'decline';
  tenant?: string;
  scope_mode?: 'all' | 'selection';
  properties?: string[];
}

export interface FlowResult {
  /** Redirect to the client (code or error), if the flow got that far. */
  location?: URL;
  /** The last page shown (consent page, notice, error). */
  page?: { status: number; html: string };
  verifier: string;
  state: string;
}

/** Opens the authorization URL, optionally answers the consent form, and returns the redirect to the client. */
export async function authorize(origin: string, params: AuthorizeParams = {}, choice?: ConsentChoice, jar = new CookieJar()): Promise<FlowResult> {
  const { verifier, challenge } = pkce();
  const state = params.state ?? randomUUID();
  const first = await get(authorizeUrl(origin, { code_challenge: challenge, code_challenge_method: 'S256', ...params, state }), jar);
  let step = await follow(first, jar);
  if (step.location || !choice)
    return { location: step.location, page: step.location ? undefined : { status: step.res.status, html: await step.res.text() }, verifier, state };
  const html = await step.res.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) return { page: { status: step.res.status, html }, verifier, state };
  const form = new URLSearchParams({ decision: choice.decision ?? 'approve', scope_mode: choice.scope_mode ?? 'all' });
  if (choice.tenant) form.set('tenant', choice.tenant);
  for (const p of choice.properties ?? []) form.append('property', p);
  const posted = await fetch(new URL(action, origin), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header(), accept: 'text/html' },
    body: form,
  });
  jar.take(posted);
  step = await follow(posted, jar);
  return { location: step.location, page: step.location ? undefined : { status: step.res.status, html: await step.res.text() }, verifier, state };
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function postForm(url: string, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<TokenAnswer> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export function basic(clientId: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` };
}

export interface TestKey {
  alg: 'RS256' | 'PS256' | 'ES256';
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function testKey(alg: TestKey['alg'], kid = `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export function erpClientId(): string {
  return `erp_${randomBytes(16).toString('hex')}`;
}

export interface AssertionOverrides {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  omit?: string[];
  iat?: number;
  exp?: number;
}

export async function clientAssertion(key: TestKey, clientId: string, aud: string, o: AssertionOverrides = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { iss: clientId, sub: clientId, aud, jti: randomUUID(), iat: o.iat ?? now, exp: o.exp ?? now + 60, ...o.claims };
  for (const k of o.omit ?? []) delete claims[k];
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, ...o.header } as { alg: string });
  return jwt.sign(key.privateKey);
}

export function assertionForm(assertion: string): Record<string, string> {
  return { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion };
}

export interface DpopKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function dpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, jwk: await exportJWK(publicKey) };
}

export async function dpopProof(
  key: DpopKey,
  htm: string,
  htu: string,
  o: { accessToken?: string; claims?: Record<string, unknown>; header?: Record<string, unknown> } = {},
): Promise<string> {
  const claims: Record<string, unknown> = {
    htm,
    htu,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    ...(o.accessToken ? { ath: createHash('sha256').update(o.accessToken).digest('base64url') } : {}),
    ...o.claims,
  };
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, ...o.header } as { alg: string }).sign(key.privateKey);
}

export function codeOf(flow: FlowResult): string {
  const code = flow.location?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${flow.location?.href ?? flow.page?.html.slice(0, 300)}`);
  return code;
}

/** Redeems the code of a finished flow at /oauth/token. */
export function redeem(
  origin: string,
  flow: FlowResult,
  form: Record<string, string | undefined> = {},
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  return postForm(
    `${origin}/oauth/token`,
    { grant_type: 'authorization_code', code: codeOf(flow), client_id: DEMO_CLIENT, redirect_uri: DEMO_REDIRECT, code_verifier: flow.verifier, ...form },
    headers,
  );
}

export function refresh(
  origin: string,
  refreshToken: string,
  form: Record<string, string | undefined> = {},
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  return postForm(`${origin}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: DEMO_CLIENT, ...form }, headers);
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  scope: string;
  expires_in: number;
}

/** Approves the consent as the demo client (all Properties unless told) and redeems the code. */
export async function connect(origin: string, params: AuthorizeParams = {}, choice: ConsentChoice = { decision: 'approve' }): Promise<Tokens> {
  const flow = await authorize(origin, params, choice);
  const answer = await redeem(origin, flow);
  if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as Tokens;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function whoami(
  apiBase: string,
  accessToken: string,
  headers: Record<string, string> = { authorization: `Bearer ${accessToken}` },
): Promise<ApiAnswer> {
  const res = await fetch(`${apiBase}/whoami`, { headers });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}
