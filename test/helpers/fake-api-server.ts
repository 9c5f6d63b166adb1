// A scriptable stand-in for the Partner API on 127.0.0.1 (real HTTP, real sockets) for
// the API helper's tests: canned answers per path, one-shot faults (429 with Retry-After,
// 5xx, dropped sockets, truncated bodies, slow answers, 401/403/404), and a record of
// every request (arrival time, path, headers) to check pacing and retries against.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  /** performance.now() when the request arrived. */
  at: number;
  /** performance.now() when the answer was finished (or the socket dropped). */
  doneAt: number | null;
  method: string;
  /** Path with query, e.g. /v1/properties?limit=200 */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  status: number | null;
}

export type Reply =
  | { status?: number; json?: unknown; body?: string; headers?: Record<string, string>; delayMs?: number }
  /** Close the connection without an answer. */
  | { destroy: true; delayMs?: number }
  /** Announce the full JSON's length, send half of it, then drop the connection. */
  | { truncate: unknown }
  /** A 200 JSON body of `bytes` bytes sent in 64 KiB chunks (length announced when `announce`); stops when the client goes away. */
  | { stream: { bytes: number; announce?: boolean }; sent?: { bytes: number } };

export type Handler = (req: RecordedRequest) => Reply | undefined | Promise<Reply | undefined>;
type Pattern = string | RegExp;

export interface FakeApi {
  /** Base URL including /v1, for createApiClient. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Answers every request whose pathname matches (exact string or RegExp); later routes win. */
  route(pattern: Pattern, handler: Handler | Reply): void;
  /** One-shot answers for matching requests, used in order before any route. */
  inject(pattern: Pattern, ...replies: Reply[]): void;
  /** Requests whose pathname matches. */
  hits(pattern: Pattern): RecordedRequest[];
  close(): Promise<void>;
}

const DEV = 'https://developer.example.test/errors/';

/** An application/problem+json answer as the contract shapes it. */
export function problem(status: number, code: string, extra: { detail?: string; headers?: Record<string, string> } = {}): Reply {
  const body: Record<string, unknown> = { type: `${DEV}#${code}`, title: code.replace(/-/g, ' '), status, trace_id: `trace-${code}-${status}` };
  if (extra.detail) body.detail = extra.detail;
  return { status, body: JSON.stringify(body), headers: { 'content-type': 'application/problem+json', ...extra.headers } };
}

/** A list page. */
export function pageOf(data: unknown[], next: string | null, prev: string | null = null): Reply {
  return { json: { data, next_cursor: next, prev_cursor: prev } };
}

const matches = (p: Pattern, path: string) => (typeof p === 'string' ? p === path : p.test(path));

export async function startFakeApi(): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  const routes: { pattern: Pattern; handler: Handler }[] = [];
  const injected: { pattern: Pattern; reply: Reply }[] = [];

  async function replyFor(r: RecordedRequest): Promise<Reply> {
    const i = injected.findIndex((x) => matches(x.pattern, r.pathname));
    if (i >= 0) return injected.splice(i, 1)[0]!.reply;
    for (let k = routes.length - 1; k >= 0; k--) {
      if (!matches(routes[k]!.pattern, r.pathname)) continue;
      const reply = await routes[k]!.handler(r);
      if (reply) return reply;
    }
    return problem(404, 'resource-not-found');
  }

  const send = (res: ServerResponse, r: RecordedRequest, reply: Reply) => {
    if ('destroy' in reply) {
      res.socket?.destroy();
      r.doneAt = performance.now();
      return;
    }
    if ('truncate' in reply) {
      const text = JSON.stringify(reply.truncate);
      r.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.write(text.slice(0, Math.floor(text.length / 2)), () => {
        res.socket?.destroy();
        r.doneAt = performance.now();
      });
      return;
    }
    if ('stream' in reply) {
      const { bytes, announce } = reply.stream;
      const counter = reply.sent ?? { bytes: 0 };
      r.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', ...(announce ? { 'content-length': String(bytes) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (counter.bytes < bytes && !res.destroyed) {
          const part = chunk.subarray(0, Math.min(chunk.length, bytes - counter.bytes));
          counter.bytes += part.length;
          if (!res.write(part)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
        r.doneAt = performance.now();
      };
      res.once('close', () => (r.doneAt ??= performance.now()));
      pump();
      return;
    }
    const status = reply.status ?? 200;
    const body = reply.body ?? JSON.stringify(reply.json ?? {});
    r.status = status;
    res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
    res.end(body, () => {
      r.doneAt = performance.now();
    });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const r: RecordedRequest = {
      at: performance.now(),
      doneAt: null,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      pathname: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      status: null,
    };
    requests.push(r);
    req.resume();
    req.on('end', () => {
      void replyFor(r).then((reply) => {
        const delay = 'delayMs' in reply ? (reply.delayMs ?? 0) : 0;
        if (delay > 0) setTimeout(() => send(res, r, reply), delay);
        else send(res, r, reply);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    route(pattern, handler) {
      routes.push({ pattern, handler: typeof handler === 'function' ? handler : () => handler });
    },
    inject(pattern, ...replies) {
      for (const reply of replies) injected.push({ pattern, reply });
    },
    hits(pattern) {
      return requests.filter((r) => matches(pattern, r.pathname));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
