// The browser opener gets the sign-in URL and nothing secret: no METERDATA_* variable
// (client secret, static access token, …) reaches the browser process.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserEnv, openBrowser } from '../../src/auth/browser.js';

const secrets = {
  METERDATA_CLIENT_SECRET: 'client-secret-value',
  METERDATA_ACCESS_TOKEN: 'access-token-value',
  METERDATA_PRIVATE_KEY_PASSPHRASE: 'pass-value',
};

describe('openBrowser', () => {
  it('browserEnv drops every METERDATA_* variable and keeps the rest', () => {
    expect(browserEnv({ ...secrets, METERDATA_HOME: '/x', PATH: '/bin', DISPLAY: ':0' })).toEqual({ PATH: '/bin', DISPLAY: ':0' });
  });

  it('$BROWSER is started with the URL and an environment without the secrets', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-opener-'));
    const out = path.join(dir, 'env.txt');
    const script = path.join(dir, 'browser.sh');
    writeFileSync(script, `#!/bin/sh\nenv > "${out}.tmp"\necho "URL=$1" >> "${out}.tmp"\nmv "${out}.tmp" "${out}"\n`, { mode: 0o755 });
    openBrowser('http://127.0.0.1:1/authorize?x=1', { ...secrets, BROWSER: script, PATH: process.env.PATH, KEEP_ME: 'yes' }, 'linux');
    for (let i = 0; i < 100 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 50));
    const seen = readFileSync(out, 'utf8');
    expect(seen).toContain('URL=http://127.0.0.1:1/authorize?x=1');
    expect(seen).toContain('KEEP_ME=yes');
    for (const [k, v] of Object.entries(secrets)) {
      expect(seen).not.toContain(k);
      expect(seen).not.toContain(v);
    }
  });
});

describe('openerCommand', () => {
  const hostile = 'https://auth.example.com/authorize?a=1&calc.exe|whoami^x"y';

  it('on Windows hands the URL to url.dll as one argument, never to cmd /c start', async () => {
    const { openerCommand } = await import('../../src/auth/browser.js');
    expect(openerCommand(hostile, {}, 'win32')).toEqual({ cmd: 'rundll32', args: ['url.dll,FileProtocolHandler', hostile] });
  });

  it('everywhere else the URL is the single argument too', async () => {
    const { openerCommand } = await import('../../src/auth/browser.js');
    expect(openerCommand(hostile, {}, 'darwin')).toEqual({ cmd: 'open', args: [hostile] });
    expect(openerCommand(hostile, {}, 'linux')).toEqual({ cmd: 'xdg-open', args: [hostile] });
    expect(openerCommand(hostile, { BROWSER: '/usr/bin/firefox' }, 'win32')).toEqual({ cmd: '/usr/bin/firefox', args: [hostile] });
  });
});
