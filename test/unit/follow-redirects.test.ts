import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, followRedirects } from '../../src/sandbox/follow-redirects.js';
import { setLanguage } from '../../src/i18n/index.js';
import { findEnglish } from '../helpers/catalogues.js';

let server: Server;
let origin: string;
let requests: { path: string; cookie: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ path: req.url!, cookie: req.headers.cookie });
    if (req.url === '/forever') return res.writeHead(302, { location: '/forever' }).end('again');
    if (req.url === '/start') return res.writeHead(302, { location: '/consent', 'set-cookie': ['interaction=abc; Path=/; HttpOnly', '=nameless'] }).end();
    if (req.url === '/consent') return res.writeHead(303, { location: 'http://127.0.0.1:9/callback?code=c1' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('followRedirects: the one browser-like redirect loop', () => {
  it('gives up after maxHops requests on a server that redirects forever', async () => {
    requests = [];
    await expect(followRedirects(`${origin}/forever`, { maxHops: 5 })).rejects.toThrow(/too many redirects/);
    expect(requests).toHaveLength(5);
  });

  it("says so in German in a German run (the demo's sign-in quotes it)", async () => {
    setLanguage('de');
    try {
      const e = (await followRedirects(`${origin}/forever`, { maxHops: 2 }).catch((x: unknown) => x)) as Error;
      expect(e.message).toBe(`zu viele Weiterleitungen ab ${origin}/forever`);
      expect(await findEnglish(e.message)).toEqual([]);
    } finally {
      setLanguage('en');
    }
  });

  it('sends the cookies set on the way and stops before leaving the origin', async () => {
    requests = [];
    const jar = new CookieJar();
    const r = await followRedirects(`${origin}/start`, { maxHops: 5, jar, stayOnOrigin: true });
    expect(r.location?.href).toBe('http://127.0.0.1:9/callback?code=c1');
    expect(requests.map((q) => q.path)).toEqual(['/start', '/consent']);
    expect(requests[1]!.cookie).toBe('interaction=abc');
    expect(jar.header()).toBe('interaction=abc');
  });

  it('continues from an answer already had and returns the page that is not a redirect, unread', async () => {
    requests = [];
    const first = await fetch(`${origin}/forever`, { redirect: 'manual' });
    await expect(followRedirects(first, { maxHops: 3 })).rejects.toThrow(/too many redirects/);
    expect(requests).toHaveLength(4);
    const page = await followRedirects(`${origin}/page`, { maxHops: 1 });
    expect(page.res.status).toBe(200);
    expect(await page.res.text()).toBe('<p>page</p>');
  });
});
