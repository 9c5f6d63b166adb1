// The test helper that proxies the sandbox (test/helpers/browser.ts) survives a client that
// hangs up while sending a body: before, the handler read the body outside its try and
// node:http drops the handler's promise, so the read's rejection went unhandled (vitest
// fails the run on it) and the proxy's next request was never reached.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { proxySandbox, type SandboxProxy } from '../helpers/browser.js';

let upstream: http.Server;
let proxy: SandboxProxy;
beforeAll(async () => {
  upstream = http.createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const addr = upstream.address();
  proxy = await proxySandbox(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => upstream.close(() => r()));
});

it('a client hanging up mid-body leaves no unhandled rejection, and the next request is forwarded', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    const port = Number(new URL(proxy.url).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write('POST /token HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf');
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(`${proxy.url}/v1/ping`);
    expect(await res.text()).toBe('{"ok":true}');
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
