// A token request that timed out before any byte of it was written was judged "answer lost": the record marked, a
// valid sign-in (and the landlord's consent) thrown away on every scheduled run that met it (round 29). Three ways it
// happens: an HTTPS proxy (Node's own, NODE_USE_ENV_PROXY with HTTPS_PROXY) that never answers the CONNECT, one that
// opens the tunnel and then passes nothing, and a TLS endpoint that accepts and never completes the handshake. The
// request is never written then (undici writes it after the tunnel and the handshake), so it is "never sent": exit 5,
// the record untouched, the next run refreshes. The built binary, so the process must also end: with the proxy's
// CONNECT unanswered it printed its error and then never exited (its socket kept it alive).
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy(
  { autoConsent: true, admin: true, clock: '2026-11-22', units: 10, oauthRateLimitPerMinute: 0, rateLimitPerMinute: 0 },
  'md-never-left-',
);
beforeAll(() => assertBuilt());

type Mode = 'connect unanswered' | 'tunnel silent' | 'handshake unanswered';
const servers: Server[] = [];
const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
});

/** A proxy (or TLS endpoint) on loopback that stalls as `mode` says; what it saw first on each connection. */
async function stalling(mode: Mode): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const s = createServer((sock) => {
    sockets.push(sock);
    sock.on('error', () => undefined);
    sock.once('data', (d) => {
      seen.push(d.toString('latin1').split('\r\n')[0]!.slice(0, 60));
      if (mode === 'tunnel silent') sock.write('HTTP/1.1 200 Connection established\r\n\r\n');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { port: (s.address() as { port: number }).port, seen };
}

describe('a token request that timed out before it was written', () => {
  it.each(['connect unanswered', 'tunnel silent', 'handshake unanswered'] as Mode[])(
    '%s: never sent (exit 5, the record untouched, the process ends); the next run refreshes',
    async (mode) => {
      const f = await stalling(mode);
      const tls = mode === 'handshake unanswered' ? f.port : 44443;
      const { env, file, sid, rec, stored } = await at.refreshDue(3000);
      // the sign-in server's metadata names a TLS token endpoint that stalls (directly, or behind the proxy)
      at.proxy.rewrite = (r, body) =>
        r.path.startsWith('/.well-known/') ? body.replaceAll(`${at.proxy.url}/oauth/`, `https://127.0.0.1:${tls}/oauth/`) : body;
      const proxied = mode === 'handshake unanswered' ? env : { ...env, NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: `http://127.0.0.1:${f.port}` };
      const r = await runBin(['token', '--lang', 'en'], proxied, { timeoutMs: 30_000 });
      at.proxy.rewrite = undefined;
      expect(r.signal, 'the process did not end by itself').toBeNull();
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).not.toMatch(/meterdata login/);
      expect(f.seen.length).toBeGreaterThan(0);
      const after = stored();
      expect([after.refresh_uncertain_since, after.refresh_intent, after.refresh_token]).toEqual([undefined, undefined, rec.refresh_token]);
      const next = await runBin(['token'], env);
      expect(next.code, next.stderr).toBe(0);
      expect(at.stateOf(sid)).toBe('connected');
      expect(file).toBeTruthy();
    },
    60_000,
  );
});
