// Where a token may be sent: https anywhere, plain http only to this machine (the local
// sandbox), under the loopback names the contract lists. A token sent over plain http
// to any other host can be read by everyone on the way.
import { UsageError } from './errors.js';
import { coreTexts as t } from './texts.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(url: URL): boolean {
  return LOOPBACK_HOSTS.includes(url.hostname);
}

export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && isLoopbackHost(url);
}

/** `url` parsed, or a UsageError (exit 2) naming `what` when a token must not go there. */
export function tokenSafeUrl(value: string, what: string, hint: string): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(t.notAUrl({ what, value }), hint, 'USAGE_URL');
  }
  if (u.protocol !== 'https:' && !isLoopbackHttp(u)) {
    // a scheme without an origin (file:, data:) has "null" for one: the URL is named as given (round 26)
    const origin = u.origin === 'null' ? JSON.stringify(value.slice(0, 200)) : u.origin;
    throw new UsageError(t.insecureUrl({ what, origin }), hint, 'USAGE_INSECURE_URL');
  }
  return u;
}
