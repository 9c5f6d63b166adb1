// The loopback redirect target: http://127.0.0.1:<free port>/callback, bound to 127.0.0.1
// only. Exactly one valid callback ends the wait: one whose iss and state match this sign-in
// (a success or an error redirect). Anything else sent to /callback (a forged or stale answer,
// a request without code or error) gets a 400 page and the wait goes on, so a local page
// cannot end or hijack the sign-in. Every other path is 404.
import http from 'node:http';
import { ExitCode, MeterdataError } from '../core/errors.js';
import { language } from '../i18n/index.js';
import { signInTexts as t } from './texts.js';

export interface CallbackPage {
  ok: boolean;
  message: string;
  /** True when this answer belongs to the sign-in (iss and state match) and ends the wait. */
  final: boolean;
}

export interface CallbackServer {
  redirectUri: string;
  /** Resolves with the query of the first /callback request judged `final`. */
  received: Promise<URLSearchParams>;
  close(): Promise<void>;
}

/** `judge` decides which page the browser sees for the callback it delivered. */
export async function startCallbackServer(judge: (params: URLSearchParams) => CallbackPage): Promise<CallbackServer> {
  let deliver!: (p: URLSearchParams) => void;
  const received = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  let done = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      page(res, 404, t.pageNotFound, t.pageNotFoundText);
      return;
    }
    if (done) {
      page(res, 409, t.pageAnswered, t.pageAnsweredText);
      return;
    }
    const verdict = judge(url.searchParams);
    if (!verdict.final) {
      page(res, 400, t.pageInvalid, t.pageInvalidText({ message: verdict.message }));
      return;
    }
    done = true;
    page(res, verdict.ok ? 200 : 400, verdict.ok ? t.pageSignedIn : t.pageNotCompleted, t.pageDoneText({ message: verdict.message }));
    deliver(url.searchParams);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new MeterdataError(t.noPort({ reason: e.code ?? e.message }), {
          code: 'AUTH_NO_LOOPBACK_PORT',
          exitCode: ExitCode.UNAVAILABLE,
          hint: t.noPortHint,
          cause: e,
        }),
      ),
    );
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function page(res: http.ServerResponse, status: number, title: string, text: string): void {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  res.end(
    `<!doctype html><html lang="${language()}"><head><meta charset="utf-8"><title>meterdata: ${esc(title)}</title></head><body><h1 id="meterdata-result">${esc(title)}</h1><p>${esc(text)}</p></body></html>`,
  );
}
