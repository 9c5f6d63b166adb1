// The built binary: `node bin/meterdata.js sandbox --port 0` prints its URL, serves discovery,
// and exits 0 on SIGTERM after closing its connections.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = `${ROOT}bin/meterdata.js`;

beforeAll(() => {
  if (existsSync(`${ROOT}dist/cli.js`)) return;
  // `npm test` builds first; this covers running the file on its own.
  const tsc = spawnSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (tsc.status !== 0) throw new Error(`build failed: ${tsc.stdout}${tsc.stderr}`);
}, 130_000);

test('sandbox --port 0 from the built binary: URL line, discovery, clean exit on SIGTERM', async () => {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--units', '3'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on" line within 15 s; stderr: ${err}`)), 15_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      void exited.then(({ code }) => reject(new Error(`exited ${code} before listening; stderr: ${err}`)));
    });
    const meta = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ issuer: origin, token_endpoint: `${origin}/oauth/token`, code_challenge_methods_supported: ['S256'] });
    expect(out).toBe(`listening on ${origin}\n`);

    child.kill('SIGTERM');
    const result = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no exit within 10 s of SIGTERM')), 10_000)),
    ]);
    expect(result).toEqual({ code: 0, signal: null });
    expect(err).toMatch(/sandbox stopped\n$/);
    await expect(fetch(`${origin}/.well-known/oauth-authorization-server`)).rejects.toThrow();
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}, 40_000);
