// A 404 on an endpoint that names no id (/whoami, the Property list): a wrong API base URL, or a gateway that does not
// route /v1. Round 27: it said "No such resource whoami in the landlord's selection. Check the id" (exit 2), though
// the user gave no id. It is told as an address that does not lead to the API, with the hint to check the base URL.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0, rateLimitPerMinute: 0 }, 'md-no-endpoint-');

const bodies: [string, string, string][] = [
  ['an HTML page', 'text/html', '<html>Not Found</html>'],
  ['a gateway’s about:blank', 'application/problem+json', '{"type":"about:blank","title":"Not Found","status":404}'],
  ['the contract’s resource-not-found', 'application/problem+json', '{"type":"https://developer.example/errors/#resource-not-found","title":"x","status":404}'],
];

describe('a 404 on an endpoint that names no id', () => {
  it.each(['/v1/whoami', '/v1/properties'])('%s: exit 5 API_UNEXPECTED_NOT_FOUND naming the base URL to check, not "no such resource"', async (endpoint) => {
    const { env } = await at.signedIn();
    for (const [what, type, body] of bodies) {
      at.proxy.intercept = async (r) => (r.path === endpoint ? { status: 404, headers: { 'content-type': type }, body } : undefined);
      const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--json', '--lang', 'en'], { env });
      const o = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect([r.code, o.error.code], `${what}: ${r.stderr}`).toEqual([5, 'API_UNEXPECTED_NOT_FOUND']);
      expect(o.error.message).toMatch(new RegExp(`answered GET ${endpoint} with HTTP 404.*: the API base URL does not lead to the metering service's API`));
      expect(o.error.hint).toMatch(/Check the API base URL/);
      expect(r.stderr).not.toMatch(/No such resource|Check the id/);
    }
  });
});

// Round 35a: a redirect was "an unexpected answer … report it with the trace id", exit 1. Its likely cause is the same
// wrong base URL (http where the service wants https, an API that moved); meterdata follows none, the sign-in would go along.
describe('a redirect from the API', () => {
  it.each([301, 307, 308])(
    'HTTP %s on /v1/whoami: exit 5 API_REDIRECTED naming where it points and the base URL to check; nothing followed',
    async (status) => {
      const { env } = await at.signedIn();
      let followed = 0;
      at.proxy.intercept = async (r) => {
        if (r.path.startsWith('/elsewhere')) followed++;
        return r.path === '/v1/whoami' ? { status, headers: { location: `${at.proxy.url}/elsewhere/v1/whoami` }, body: '' } : undefined;
      };
      const r = await runCli(['export', '--year', '2025', '--out', path.join(env.METERDATA_HOME!, 'out'), '--json', '--lang', 'en'], { env });
      const o = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      expect([r.code, o.error.code], r.stderr).toEqual([5, 'API_REDIRECTED']);
      expect(o.error.message).toContain(
        `answered GET /v1/whoami with HTTP ${status}, a redirect to ${new URL(at.proxy.url).origin}: meterdata follows no redirect`,
      );
      expect(o.error.hint).toMatch(/Check the API base URL/);
      expect(followed).toBe(0);
      expect(r.stderr).not.toMatch(/report it/);
    },
  );
});
