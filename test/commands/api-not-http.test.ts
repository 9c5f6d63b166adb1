// An answer that is no HTTP (round 36a F1: a control byte in a header value, from a hostile server or a broken proxy)
// was "unexpected failure (this is a bug)", exit 1, with undici's stack. It is the service's fault: retried as a cut
// answer, then exit 5 naming the endpoint.
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let server: net.Server;
let port = 0;
let requests = 0;

beforeAll(async () => {
  server = net.createServer((s) =>
    s.on('data', () => {
      requests++;
      s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: a\x1b[2Jb\r\nContent-Length: 2\r\n\r\n{}');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('an answer that does not follow HTTP', () => {
  it('is retried, then exit 5 naming the endpoint and what was wrong, no stack trace', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-not-http-'));
    const env = { METERDATA_HOME: home, METERDATA_BASE_URL: `http://127.0.0.1:${port}/v1`, METERDATA_ACCESS_TOKEN: 'tok' };
    const r = await runCli(['export', '--year', '2025', '--out', path.join(home, 'out'), '--json', '--lang', 'en'], { env });
    const o = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect([r.code, o.error.code], r.stderr).toEqual([5, 'SERVICE_UNAVAILABLE']);
    expect(o.error.message).toMatch(/GET \/v1\/whoami.*an answer that does not follow HTTP/);
    expect(r.stderr).not.toMatch(/unexpected failure|HTTPParserError|at .*undici/);
    expect(requests).toBeGreaterThan(1);
  }, 60_000);
});
