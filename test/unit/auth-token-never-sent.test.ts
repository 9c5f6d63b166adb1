// A refresh whose request provably never left must not be taken as a lost answer (that marks the record and throws
// a valid sign-in away). Round 26: a TLS endpoint resetting new connections (a load balancer during a deploy), and
// fetch's refusal of a port it never connects to, were judged "may have been used" (exit 3, sign in again).
// Real sockets on loopback, real fetch; a request the server did read stays a lost answer.
import { createServer as createNet, type Server, type Socket } from 'node:net';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { lostAfterSending, neverSent } from '../../src/auth/token-wire.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function listen(s: Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

async function failureOf(url: string): Promise<unknown> {
  const e = await fetch(url, { method: 'POST', body: 'grant_type=refresh_token&refresh_token=r', signal: AbortSignal.timeout(5000) }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).not.toBeNull();
  return e;
}

const sent = { sent: true, status: undefined };

describe('a token request that never left', () => {
  it('https to a server that resets every new connection: never sent, so not lost', async () => {
    const port = await listen(createNet((s: Socket) => s.resetAndDestroy()));
    const e = await failureOf(`https://127.0.0.1:${port}/oauth/token`);
    expect(neverSent(e)).toBe(true);
    expect(lostAfterSending(e, sent)).toBe(false);
  });

  it('https to a server that closes every new connection before the handshake: never sent', async () => {
    const port = await listen(createNet((s: Socket) => s.destroy()));
    const e = await failureOf(`https://127.0.0.1:${port}/oauth/token`);
    expect(neverSent(e)).toBe(true);
  });

  it('plain http to a server that resets every new connection at accept: never sent (the connect itself was reset)', async () => {
    const port = await listen(createNet((s: Socket) => s.resetAndDestroy()));
    const e = await failureOf(`http://127.0.0.1:${port}/oauth/token`);
    expect(neverSent(e)).toBe(true);
    expect(lostAfterSending(e, sent)).toBe(false);
  });

  it("a port fetch refuses to connect to ('bad port'): never sent", async () => {
    const e = await failureOf('http://127.0.0.1:6000/oauth/token');
    expect(neverSent(e)).toBe(true);
  });

  it('a connection refused: never sent (as before)', async () => {
    const s = createNet();
    const port = await listen(s);
    await new Promise((r) => s.close(r));
    servers.splice(servers.indexOf(s), 1);
    expect(neverSent(await failureOf(`http://127.0.0.1:${port}/oauth/token`))).toBe(true);
  });
});

// Round 27: behind an HTTPS proxy (NODE_USE_ENV_PROXY with HTTPS_PROXY, which Node's fetch reads itself) a proxy
// refusing the tunnel to the token endpoint was a lost answer: the record marked, though the request never left.
describe('a token request whose proxy refused the tunnel', () => {
  it.each([502, 403])('CONNECT answered %i: never sent', async (status) => {
    const port = await listen(
      createNet((s: Socket) => {
        s.once('data', () => s.end(`HTTP/1.1 ${status} No\r\ncontent-length: 0\r\n\r\n`));
      }),
    );
    const e = await undiciFetch('https://127.0.0.1:44443/oauth/token', {
      method: 'POST',
      body: 'grant_type=refresh_token&refresh_token=r',
      dispatcher: new ProxyAgent(`http://127.0.0.1:${port}`),
      signal: AbortSignal.timeout(5000),
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).not.toBeNull();
    expect(neverSent(e)).toBe(true);
    expect(lostAfterSending(e, sent)).toBe(false);
  });
});

describe('a token request the server read', () => {
  it('plain http, the server accepts and closes ("other side closed"): lost, since the request may have been written', async () => {
    const port = await listen(createNet((s: Socket) => s.destroy()));
    const e = await failureOf(`http://127.0.0.1:${port}/oauth/token`);
    expect(neverSent(e)).toBe(false);
    expect(lostAfterSending(e, sent)).toBe(true);
  });

  it('http, the server reads the request and closes without an answer: lost (it may have rotated)', async () => {
    let read = false;
    const port = await listen(
      createHttp((req) => {
        req.on('data', () => undefined);
        req.on('end', () => {
          read = true;
          req.socket.destroy();
        });
      }),
    );
    const e = await failureOf(`http://127.0.0.1:${port}/oauth/token`);
    expect(read).toBe(true);
    expect(neverSent(e)).toBe(false);
    expect(lostAfterSending(e, sent)).toBe(true);
  });
});

// Round 30: once undici said the request's headers were written, a failure that looks like a handshake's or a
// connect's (a TLS renegotiation's alert after the server read the request) was still "never sent", and the next run
// would have re-sent a token the server may have rotated. Written decides; unknown leaves it to the failure's kind.
describe('a token request whose headers fetch wrote', () => {
  const handshake = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' } });
  const connect = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET', syscall: 'connect' } });
  it.each([
    ['a handshake alert', handshake],
    ['a reset told as the connect', connect],
  ])('%s after it: lost (it may have been read); before it (not written): never sent; unknown: by its kind', (_what, e) => {
    expect(lostAfterSending(e, { ...sent, written: true })).toBe(true);
    expect(lostAfterSending(e, { ...sent, written: false })).toBe(false);
    expect(lostAfterSending(e, sent)).toBe(false);
  });
});
