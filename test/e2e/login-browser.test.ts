// Login end to end in real headless Chromium: the built binary prints the URL, the
// browser opens it, a person's clicks on the sandbox consent page decide the outcome.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { requireTool } from '../helpers/tools.js';
import { assertBuilt, chromiumArgs, spawnCli } from '../helpers/browser.js';

let sb: Sandbox;
let browser: BrowserContext | undefined;
let userDataDir: string | undefined;
beforeAll(async () => {
  assertBuilt();
  sb = await startSandbox({ admin: true, clock: '2026-11-22' });
});
afterEach(async () => {
  await browser?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  browser = undefined;
  userDataDir = undefined;
});
afterAll(async () => sb?.close());

/** A fresh browser profile per test, as a person on a new machine (launchPersistentContext passes --user-data-dir). */
async function freshBrowser(): Promise<BrowserContext> {
  const opts = chromiumArgs();
  userDataDir = opts.userDataDir;
  browser = await chromium.launchPersistentContext(opts.userDataDir, { executablePath: opts.executablePath, args: opts.args, headless: true });
  return browser;
}

const freshEnv = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-browser-')), METERDATA_CREDENTIAL_STORE: 'file' });

describe('login in a real browser', () => {
  it('approving a subset of Properties: the CLI finishes and status shows that property scope', async (ctx) => {
    requireTool(ctx, 'chromium', 'login is tested end to end in a real browser');
    const env = freshEnv();
    const run = spawnCli(['login', '--no-browser', '--auth-url', sb.url, '--timeout', '60'], env);
    const url = await run.url;
    const page = await (await freshBrowser()).newPage();
    await page.goto(url);
    await page.waitForSelector('#consent-form');
    const tenant = await page.locator('[name=tenant]').first().inputValue();
    await page.check('#scope-selection');
    const boxes = page.locator(`input[name=property][data-tenant="${tenant}"]`);
    expect(await boxes.count()).toBeGreaterThanOrEqual(2);
    const chosen: string[] = [];
    for (const i of [0, 1]) {
      await boxes.nth(i).check();
      chosen.push(await boxes.nth(i).inputValue());
    }
    await page.click('#approve');
    await page.waitForSelector('#meterdata-result');
    expect(await page.textContent('#meterdata-result')).toBe('Signed in');
    await page.close();
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Property scope: +2 Properties: /);

    const st = await spawnCli(['status', '--json'], env).done;
    expect(st.code, st.stderr).toBe(0);
    const json = JSON.parse(st.stdout);
    expect([...json.property_scope].sort()).toEqual([...chosen].sort());
    expect(json.property_names).toHaveLength(2);
    expect(json.tenant_id).toBe(tenant);
    const human = await spawnCli(['status'], env).done;
    expect(human.stdout).toMatch(/Property scope: +2 Properties: .+, .+/);
  }, 60_000);

  it('declining: the CLI ends with a plain message naming the cause and the next step (exit 3)', async (ctx) => {
    requireTool(ctx, 'chromium', 'login is tested end to end in a real browser');
    const env = freshEnv();
    const run = spawnCli(['login', '--no-browser', '--auth-url', sb.url, '--timeout', '60'], env);
    const page = await (await freshBrowser()).newPage();
    await page.goto(await run.url);
    await page.click('#decline');
    await page.waitForSelector('#meterdata-result');
    expect(await page.textContent('#meterdata-result')).toBe('Sign-in not completed');
    await page.close();
    const r = await run.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/The landlord declined the connection on the consent page/);
    expect(r.stderr).toMatch(/meterdata login/);
    const st = await spawnCli(['status'], env).done;
    expect(st.code).toBe(3);
  }, 60_000);

  it('the opener in $BROWSER is started with the URL, which is printed as well; no answer ends with the timeout message', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-opener-'));
    const opener = path.join(dir, 'opener.sh');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > "${dir}/opened"\n`, { mode: 0o755 });
    const env = { ...freshEnv(), BROWSER: opener };
    const run = spawnCli(['login', '--auth-url', sb.url, '--timeout', '2'], env);
    const url = await run.url;
    expect(url).toMatch(/\/oauth\/authorize\?/);
    const r = await run.done;
    expect(readFileSync(path.join(dir, 'opened'), 'utf8')).toBe(url);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/No sign-in answer arrived within 2 seconds; nothing was changed/);
  }, 30_000);
});
