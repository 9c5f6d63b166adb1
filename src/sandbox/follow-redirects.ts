// What a browser does between the authorize URL and the client's redirect URI: follow
// redirects by hand, keeping the authorization server's interaction cookies. One loop for
// the demo's headless sandbox sign-in and the tests that drive the consent flow.
import { t } from './texts-sign-in.js';

/** The cookies a server set, sent back on every later request (names and values only). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      if (i > 0) this.cookies.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface FollowOptions {
  /** At most this many requests; a server that redirects longer fails instead of looping. */
  maxHops: number;
  jar?: CookieJar;
  signal?: AbortSignal;
  accept?: string;
  /** Stop at the first redirect to another origin than the start, without requesting it. */
  stayOnOrigin?: boolean;
}

export interface Followed {
  /** The last answer: not a redirect (body unread), or the redirect that leaves the origin. */
  res: Response;
  url: URL;
  /** With stayOnOrigin: where the server sent the browser off its origin. */
  location?: URL;
}

/** Requests `start` (or continues from an answer already had) and follows its redirects. */
export async function followRedirects(start: string | URL | Response, o: FollowOptions): Promise<Followed> {
  const jar = o.jar ?? new CookieJar();
  let res = start instanceof Response ? start : undefined;
  let url = new URL(start instanceof Response ? start.url : start);
  const origin = url.origin;
  for (let requests = 0; ;) {
    if (!res) {
      if (requests === o.maxHops) throw new Error(t.tooManyRedirects({ url: start instanceof Response ? start.url : String(start) }));
      requests++;
      const cookie = jar.header();
      res = await fetch(url, {
        redirect: 'manual',
        ...(o.signal ? { signal: o.signal } : {}),
        headers: { ...(o.accept ? { accept: o.accept } : {}), ...(cookie ? { cookie } : {}) },
      });
      jar.take(res);
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { res, url };
    await res.body?.cancel();
    const next = new URL(location, url);
    if (o.stayOnOrigin && next.origin !== origin) return { res, url, location: next };
    url = next;
    res = undefined;
  }
}
