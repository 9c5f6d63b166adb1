// What one token request did on the wire: whether it left and which status came back, so a
// failure can be judged "never sent" (the refresh token was not used) or "lost after sending"
// (the server may have rotated it).
import dc from 'node:diagnostics_channel';
import * as oidc from 'openid-client';
import { MAX_AUTH_ANSWER_BYTES, cappedFetch } from './capped-fetch.js';

/** What one token request did on the wire: whether it left, and the status of the answer if one came. */
export interface Wire {
  sent: boolean;
  status: number | undefined;
  /** `expires_in` as a 2xx answer's body gave it: openid-client reads the text "0x10" as 0 before meterdata sees it. */
  lifetime?: unknown;
  /** A numeric `expires_in` as its characters were sent: JSON reads 1e400 as Infinity (shown "null") and -0 as 0. */
  lifetimeText?: string;
  /**
   * Whether fetch wrote the request's headers (undici's `sendHeaders`): false when it made the request but never
   * wrote it (a proxy's tunnel or a TLS handshake that never completed before the timeout), undefined when fetch
   * told nothing (then only the failure's kind judges it: neverSent).
   */
  written?: boolean;
  /** `token_type` as a 2xx answer's body gave it: openid-client hands it on in lower case ("Bearer " as "bearer "). */
  tokenType?: unknown;
  /** A 2xx answer's refresh token, else its access token: what ends the connection it opened, whatever then refuses it. */
  opened?: string;
}

/** A 4xx turned the refresh token away unused (a 429, a DPoP nonce asked for); after any other answer it may be rotated. */
const refusedUnused = (status: number) => status >= 400 && status < 500;

/** Runs `fn` with the configuration's fetch watched, so a failure can be judged "lost after sending". */
export async function watched<T>(config: oidc.Configuration, fn: (wire: Wire) => Promise<T>): Promise<T> {
  const wire: Wire = { sent: false, status: undefined };
  const previous = config[oidc.customFetch] as oidc.CustomFetch | undefined;
  const send = previous ?? cappedFetch;
  // openid-client sends the request again by itself after a DPoP nonce challenge on any status but 200 (a 503
  // or 201 included): such a retry gets the first answer once more, so it fails as that answer does.
  let replay: Response | undefined;
  config[oidc.customFetch] = async (url, options) => {
    if (wire.sent && (wire.status === undefined || !refusedUnused(wire.status))) {
      if (replay) return replay;
      throw new Error(`HTTP ${wire.status ?? '-'}: not sent again`);
    }
    wire.sent = true;
    wire.status = undefined;
    wire.written = undefined;
    // A redirect of the token request is never followed: its answer is the 3xx itself, a lost answer (lostAfterSending).
    const res = await writing(url, wire, () => send(url, { ...options, redirect: 'manual' }));
    wire.status = res.status;
    if (res.ok) Object.assign(wire, answered(await asFarAsItCame(res)));
    replay = res.status !== 200 && !refusedUnused(res.status) ? res.clone() : undefined;
    return res;
  };
  try {
    return await fn(wire);
  } finally {
    // openid-client falls back to the global fetch when none is set.
    config[oidc.customFetch] = previous as oidc.CustomFetch;
  }
}

/**
 * Runs `send` watching undici's diagnostics for the POST to `url`: made, and its headers written or not. A request
 * that timed out before that (an HTTPS proxy that never answers the CONNECT, a TLS handshake left hanging) never
 * left, and judged lost it threw a valid sign-in away (round 29). Another POST to the same URL at the same moment
 * (two profiles of one token endpoint) can only make it look written: the safe side.
 */
async function writing<T>(url: string, wire: Wire, send: () => Promise<T>): Promise<T> {
  const target = new URL(url);
  type Req = { request?: { method?: unknown; origin?: unknown; path?: unknown } };
  const ours = (m: unknown) => {
    const r = (m as Req).request;
    return r?.method === 'POST' && r.origin === target.origin && r.path === `${target.pathname}${target.search}`;
  };
  const made = (m: unknown) => void (ours(m) && (wire.written ??= false));
  const headers = (m: unknown) => void (ours(m) && (wire.written = true));
  dc.subscribe('undici:request:create', made);
  dc.subscribe('undici:client:sendHeaders', headers);
  try {
    return await send();
  } finally {
    dc.unsubscribe('undici:request:create', made);
    dc.unsubscribe('undici:client:sendHeaders', headers);
  }
}

/**
 * The body of `res` as far as it came, read from a copy: an answer cut on the wire or past the cap fails `text()`, and
 * the token at its start, live at the server, was then never found to be revoked (round 44 N1).
 */
async function asFarAsItCame(res: Response): Promise<string> {
  const reader = res.clone().body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    // bounded here too: `send` may be a caller's own fetch without cappedFetch's cap
    while (text.length <= MAX_AUTH_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    void reader.cancel().catch(() => undefined);
  } catch {
    // cut, or over the cap: what came before is searched all the same
  }
  return text + decoder.decode();
}

/** What meterdata keeps of a 2xx token answer's body as sent (sentLifetime; the token that would end its connection). */
function answered(body: string): Pick<Wire, 'lifetime' | 'lifetimeText' | 'opened' | 'tokenType'> {
  type Answer = { refresh_token?: unknown; access_token?: unknown; token_type?: unknown } | null;
  const read = ((): Answer => {
    try {
      return JSON.parse(body) as Answer;
    } catch {
      return null; // openid-client says what is wrong with a body it cannot read
    }
  })();
  // a body JSON does not read as one object (cut, wrapped, trailing bytes) may hold live tokens all the same (round 43 F2)
  const inText = (field: string) => new RegExp(`"${field}"\\s*:\\s*"([^"\\\\]+)"`).exec(body.slice(0, 1 << 20))?.[1];
  const token = [read?.refresh_token, read?.access_token, inText('refresh_token'), inText('access_token')].find(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  return {
    ...sentLifetime(body),
    ...(token !== undefined ? { opened: token } : {}),
    ...(read?.token_type !== undefined ? { tokenType: read.token_type } : {}),
  };
}

/** A number as JSON writes it. */
const LIFETIME_LITERAL = /"expires_in"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** `expires_in` of a token answer's body as sent: its value, and a number's characters (the last, as JSON.parse keeps the last of a key given twice). */
export function sentLifetime(body: string): Pick<Wire, 'lifetime' | 'lifetimeText'> {
  let lifetime: unknown;
  try {
    lifetime = (JSON.parse(body) as { expires_in?: unknown } | null)?.expires_in;
  } catch {
    return {}; // openid-client says what is wrong with a body it cannot read
  }
  const literal = typeof lifetime === 'number' ? [...body.matchAll(LIFETIME_LITERAL)].at(-1)?.[1] : undefined;
  return { lifetime, ...(literal !== undefined ? { lifetimeText: literal.slice(0, 40) } : {}) };
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/**
 * A TLS handshake that failed (a certificate refused, no TLS server there): the request is only
 * written after the handshake, so it never left. Only handshake-time codes: an error later in
 * the stream (a bad record, a reset) may follow a request the server used.
 */
const HANDSHAKE_FAILED =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_UNSUPPORTED_PROTOCOL|ERR_SSL_\w*HANDSHAKE_FAILURE|ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION|CERT_\w+|\w*SELF_SIGNED_CERT\w*|UNABLE_TO_\w+|HOSTNAME_MISMATCH|INVALID_CA)$/;

/**
 * Failures that by their kind come before any byte of the request was written (round 26: each was taken as a lost
 * answer, the record marked, a valid sign-in thrown away): the socket's own connect failed or was reset (`syscall:
 * 'connect'`: undici writes nothing before it connected, its TLS handshake included), a TLS socket closed before the
 * handshake ended, and fetch's refusal of a port it never connects to; and an HTTPS proxy that refused the tunnel
 * (round 27: `NODE_USE_ENV_PROXY` with `HTTPS_PROXY`, which Node's fetch reads itself; the request goes only through
 * an established tunnel).
 */
const BEFORE_WRITE =
  /^(Client network socket disconnected before secure TLS connection was established|bad port|Proxy response \(\d+\) !== 200 when HTTP Tunneling)$/;

export const neverSent = (e: unknown) =>
  causeCodes(e).some((c) => NEVER_SENT.has(c) || HANDSHAKE_FAILED.test(c)) ||
  causeChain(e).some((c) => c.syscall === 'connect' || (typeof c.message === 'string' && BEFORE_WRITE.test(c.message)));

/**
 * The request left and no usable answer came back: none at all, a 2xx we could not read, a 5xx
 * (the server may have failed after committing the rotation; docs/auth.md, "A 5xx"), or any
 * other answer that is no 4xx refusal: a 3xx (a gateway's redirect may come after the server
 * rotated), a 1xx. Only a 4xx turned the token away unused (refusedUnused).
 */
export function lostAfterSending(e: unknown, wire: Wire): boolean {
  if (!wire.sent) return false;
  if (wire.status === undefined) return !neverLeft(e, wire);
  return !refusedUnused(wire.status);
}

/** No answer came, and the request never left: by the failure's kind, or because fetch never wrote it (writing). */
export const neverLeft = (e: unknown, wire: Wire | undefined): boolean =>
  // headers known written: whatever the failure looks like afterwards (a renegotiation's handshake alert), it may have been read (round 30)
  wire?.written === false || (wire?.written !== true && neverSent(e));

function causeChain(e: unknown): { syscall?: unknown; message?: unknown }[] {
  const chain: { syscall?: unknown; message?: unknown }[] = [];
  for (let cur = e as { syscall?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; cur && typeof cur === 'object' && i < 6; i++) {
    chain.push(cur);
    cur = cur.cause as typeof cur;
  }
  return chain;
}

export function causeCodes(e: unknown): string[] {
  const codes: string[] = [];
  let cur = e as { code?: unknown; cause?: unknown; name?: unknown } | undefined;
  for (let i = 0; cur && i < 6; i++) {
    if (typeof cur.code === 'string') codes.push(cur.code);
    if (typeof cur.name === 'string') codes.push(cur.name);
    cur = cur.cause as typeof cur;
  }
  return codes;
}
