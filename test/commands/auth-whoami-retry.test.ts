// Sign-in reads /whoami through the one API helper, so a passing server fault during
// sign-in is retried like any other request instead of failing the login.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { loginLive } from '../helpers/browser.js';

let sb: Sandbox | undefined;
afterEach(async () => sb?.close());

async function signIn(faults: string[]) {
  sb = await startSandbox({ autoConsent: true, clock: '2026-11-22', faults });
  const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-whoami-')), METERDATA_CREDENTIAL_STORE: 'file' };
  return { ...(await loginLive(['login', '--no-browser', '--auth-url', sb.url], env)), env };
}

describe('sign-in and the API helper', () => {
  it('retries a 500 and a 503 on /whoami during sign-in and still signs in', async () => {
    const r = await signIn(['500@1', '503@2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Connected profile "default"/);
    // the first two /v1 requests failed, the third answered
    expect(sb!.log.byStatus.get('500')).toBe(1);
    expect(sb!.log.byStatus.get('503')).toBe(1);
    const status = await runCli(['status'], { env: r.env });
    expect(status.code, status.stderr).toBe(0);
  });
});
