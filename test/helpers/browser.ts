// Test helpers for the browser half of sign-in: a login run whose stderr can be watched
// while it waits, a cookie-keeping redirect follower for auto-consent sandboxes, and the
// Chromium launch options for the real-browser tests.
import { PassThrough, Readable } from 'node:stream';
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/core/io.js';
import { followRedirects } from '../../src/sandbox/follow-redirects.js';
import { BIN } from './bin.js';

export interface LiveRun {
  /** The first https?:// line printed on stderr (the authorize URL). */
  url: Promise<string>;
  done: Promise<{ code: number; stdout: string; stderr: string }>;
  stdin: PassThrough;
}

/** Collects stdout/stderr and resolves `url` with the first line on stderr that is a URL. */
function watch(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
  const text = { out: '', err: '' };
  let resolveUrl!: (u: string) => void;
  let rejectUrl!: (e: Error) => void;
  const url = new Promise<string>((res, rej) => ((resolveUrl = res), (rejectUrl = rej)));
  url.catch(() => undefined);
  stdout.on('data', (c: Buffer) => (text.out += c.toString()));
  stderr.on('data', (c: Buffer) => {
    text.err += c.toString();
    const m = /^(https?:\/\/\S+)$/m.exec(text.err);
    if (m) resolveUrl(m[1]!);
  });
  const ended = (code: number | null) => rejectUrl(new Error(`ended (exit ${code}) before printing a URL: ${text.err}`));
  return { text, url, ended };
}

/** Runs the CLI in-process and exposes the authorize URL as soon as it is printed. */
export function runLive(argv: string[], env: NodeJS.ProcessEnv, opts: { stdinText?: string; signal?: AbortSignal } = {}): LiveRun {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  if (opts.stdinText !== undefined) stdin.end(opts.stdinText);
  const w = watch(stdout, stderr);
  const io: Io = {
    stdout,
    stderr,
    stdin: stdin as unknown as Readable,
    env: { ...env },
    cwd: process.cwd(),
    signal: opts.signal ?? new AbortController().signal,
  };
  const done = main(argv, io).then((code) => {
    w.ended(code);
    return { code, stdout: w.text.out, stderr: w.text.err };
  });
  return { url: w.url, done, stdin };
}

/**
 * Follows redirects by hand with a cookie jar (what a browser does) until the answer leaves
 * the server's origin; returns that final URL without requesting it.
 */
export async function followToRedirect(start: string): Promise<URL> {
  const { res, url, location } = await followRedirects(start, { maxHops: 15, accept: 'text/html', stayOnOrigin: true });
  if (location) return location;
  await res.body?.cancel();
  throw new Error(`no redirect from ${url.pathname} (HTTP ${res.status})`);
}

/** Delivers a redirect URL to the loopback server like a browser would. */
export async function deliver(redirect: URL): Promise<{ status: number; text: string }> {
  const res = await fetch(redirect);
  return { status: res.status, text: await res.text() };
}

/**
 * `meterdata login` in-process against an auto-consent server: follows the printed URL to
 * the redirect as a browser would and delivers it to the CLI's loopback server.
 */
export async function loginLive(
  argv: string[],
  env: NodeJS.ProcessEnv,
  opts: { stdinText?: string; signal?: AbortSignal } = {},
): Promise<{ code: number; stdout: string; stderr: string; redirect: URL; page: { status: number; text: string } }> {
  const run = runLive(argv, env, opts);
  const redirect = await followToRedirect(await run.url);
  const page = await deliver(redirect);
  return { ...(await run.done), redirect, page };
}

export const CHROMIUM = '/usr/bin/chromium';

export function chromiumArgs(): { executablePath: string; args: string[]; userDataDir: string } {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'meterdata-chromium-'));
  return {
    executablePath: CHROMIUM,
    userDataDir,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}

// ---- the built binary as a child process (login e2e tests) ----

export { assertBuilt, BIN, ROOT } from './bin.js';

export interface ChildRun {
  child: ChildProcess;
  url: Promise<string>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves once stderr matches (test hooks announce their pause points there). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/** `opts.command` runs another build (the single executable) with exactly `env`. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv, opts: { stdin?: string; command?: string } = {}): ChildRun {
  const child = opts.command
    ? spawn(opts.command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  else child.stdin!.end();
  const w = watch(child.stdout!, child.stderr!);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => {
      w.ended(code);
      resolve({ code, signal, stdout: w.text.out, stderr: w.text.err });
    });
  });
  const waitForStderr = async (pattern: RegExp, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    while (!pattern.test(w.text.err)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`stderr never matched ${pattern}: ${w.text.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, url: w.url, done, waitForStderr };
}

// ---- a counting, scriptable proxy in front of the sandbox (refresh tests) ----

export interface ProxiedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface SandboxProxy {
  /** Use as a profile's auth_url (the issuer it advertises) and `${url}/v1` as its base_url. */
  url: string;
  /** Every request that reached the proxy, in order. */
  requests: ProxiedRequest[];
  count(method: string, path: string): number;
  /** Answers a request itself when it returns something; otherwise the request is forwarded. */
  intercept: ((r: ProxiedRequest) => Promise<{ status: number; headers?: Record<string, string>; body?: string } | undefined>) | undefined;
  /**
   * After the sandbox has answered a forwarded request: 'stall' never passes its answer on, 'cut' sends half of it and
   * drops the connection, `{ fail: status }` answers that status instead (a server that failed after acting on it), with
   * `body` and `headers` when given (`{"error":"server_error"}` otherwise). 'flood' sends the sandbox's status, then
   * JSON whitespace without end until the client hangs up (an answer with no size limit).
   */
  lose: ((r: ProxiedRequest) => 'stall' | 'cut' | 'flood' | { fail: number; body?: string; headers?: Record<string, string> } | undefined) | undefined;
  /** Changes a forwarded answer's body after the sandbox has acted on the request (a server that answers other than it did). */
  rewrite: ((r: ProxiedRequest, body: string) => string) | undefined;
  close(): Promise<void>;
}

/** Writes `status`, then 1 MiB chunks of spaces as fast as the client takes them, until it hangs up. */
async function flood(res: ServerResponse, status: number, headers: Record<string, string | string[]>): Promise<void> {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  while (!res.destroyed && !res.writableEnded) {
    if (!res.write(chunk)) await new Promise((r) => (res.once('drain', r), res.once('close', r)));
  }
}

/**
 * Forwards everything to the sandbox; its RFC 8414 metadata is rewritten to name the proxy as
 * issuer and endpoints, so the CLI's token requests can be counted and answered by a script.
 * (The sandbox's request log covers /v1 only.)
 */
export async function proxySandbox(target: string): Promise<SandboxProxy> {
  const http = await import('node:http');
  const proxy: SandboxProxy = {
    url: '',
    requests: [],
    count: (method, p) => proxy.requests.filter((r) => r.method === method && r.path === p).length,
    intercept: undefined,
    lose: undefined,
    rewrite: undefined,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
  // The request's body is read inside the try: a client that hangs up mid-body rejects the
  // read, and node:http ignores the handler's promise, so that rejection went unhandled.
  const server = http.createServer((req, res) => void forward(req, res));
  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const rec: ProxiedRequest = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, authorization: req.headers.authorization };
      proxy.requests.push(rec);
      const own = await proxy.intercept?.(rec);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json', ...own.headers });
        res.end(own.body ?? '{}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const up = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(body.length ? { body } : {}), redirect: 'manual' });
      let text = Buffer.from(await up.arrayBuffer());
      if (rec.path.startsWith('/.well-known/')) text = Buffer.from(text.toString('utf8').replaceAll(target, proxy.url));
      if (proxy.rewrite) text = Buffer.from(proxy.rewrite(rec, text.toString('utf8')));
      const out: Record<string, string | string[]> = {};
      up.headers.forEach((v, k) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'set-cookie'].includes(k)) out[k] = v;
      });
      if (up.headers.getSetCookie().length) out['set-cookie'] = up.headers.getSetCookie();
      // A sign-in through the proxy: the sandbox's redirects (and the callback's iss) name the proxy, its issuer here.
      if (typeof out.location === 'string')
        out.location = out.location.replaceAll(target, proxy.url).replaceAll(encodeURIComponent(target), encodeURIComponent(proxy.url));
      const lose = proxy.lose?.(rec);
      if (lose === 'stall') return;
      if (typeof lose === 'object') {
        res.writeHead(lose.fail, { 'content-type': 'application/json', ...lose.headers });
        res.end(lose.body ?? '{"error":"server_error"}');
        return;
      }
      if (lose === 'flood') return flood(res, up.status, out);
      res.writeHead(up.status, lose === 'cut' ? { ...out, 'content-length': String(text.length) } : out);
      if (lose === 'cut') res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.destroy());
      else res.end(text);
    } catch {
      res.destroy();
    }
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  proxy.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return proxy;
}
