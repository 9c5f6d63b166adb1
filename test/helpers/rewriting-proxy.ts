// A hostile server on loopback made from an honest one: forwards every request to the
// sandbox and lets a test rewrite the JSON of chosen answers (another object, another
// range, values no meter can show). The CLI reaches it with METERDATA_BASE_URL and
// METERDATA_ACCESS_TOKEN, as a client would reach a broken or malicious service.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Returns the answer to send instead, or undefined to pass the sandbox's through. */
export type Rewrite = (pathname: string, json: Record<string, unknown>, query: URLSearchParams) => unknown;

export interface RewritingProxy {
  /** API base including /v1. */
  base: string;
  /** Answers the rewrite changed. */
  rewritten: string[];
  close(): Promise<void>;
}

export async function startRewritingProxy(target: string, rewrite: Rewrite): Promise<RewritingProxy> {
  const to = new URL(target);
  const rewritten: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const json = (answer.headers['content-type'] ?? '').startsWith('application/json') && answer.statusCode === 200;
      if (!json) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const original = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const changed = rewrite(url.pathname, original, url.searchParams);
        if (changed !== undefined) rewritten.push(url.pathname);
        // A literal body lets a test send what JSON.stringify cannot (1e400).
        const body = typeof changed === 'string' ? changed : JSON.stringify(changed ?? original);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    rewritten,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
