// The launcher's end of the process (src/core/process-end.ts): a socket left open by the CLI cannot keep it alive
// (round 29: a proxy agent's, a cron job running for ever), and a slow reader of a pipe still gets every byte (round
// 30: an exit on a 2-second clock cut what Node had not yet written into the pipe, 64 KiB kept of 4 MiB, exit 0).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { endWhenDrained } from '../../src/core/process-end.js';
import { assertBuilt, BIN, ROOT } from '../helpers/bin.js';

beforeAll(() => assertBuilt());

/** A child that writes `bytes` to stdout, leaves a server listening and hands its end, with `status`, to the built endWhenDrained. */
function child(bytes: number, status = 7, command = 'export') {
  const cli = path.join(ROOT, 'dist', 'bundle', 'cli.js');
  const code = `const { endWhenDrained } = await import(${JSON.stringify(cli)});
    const net = await import('node:net');
    net.createServer().listen(0, '127.0.0.1');
    process.stdout.write('x'.repeat(${bytes}) + '\\nEND\\n');
    process.exitCode = ${status};
    endWhenDrained(process, 200, ${JSON.stringify(command)});`;
  return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the end of the process', () => {
  it('with a socket left open and a reader 3 s late: every byte of 4 MiB arrives, then the process ends with its code', async () => {
    const c = child(4 << 20);
    c.stdout.pause();
    await new Promise((r) => setTimeout(r, 3000));
    let got = 0;
    let tail = '';
    c.stdout.on('data', (b: Buffer) => {
      got += b.length;
      tail = (tail + b.toString('latin1')).slice(-8);
    });
    c.stdout.resume();
    const [code] = (await Promise.race([
      new Promise((r) => c.on('close', (...a) => r(a))),
      new Promise((r) => setTimeout(() => (c.kill('SIGKILL'), r(['killed'])), 20_000)),
    ])) as [number | string];
    expect(code).toBe(7);
    expect(got).toBe((4 << 20) + 5);
    expect(tail).toMatch(/END\n$/);
  }, 30_000);

  // Round 31: with the reader not reading, the CLI's first SIGTERM only asked a command that had ended to stop: the
  // process lingered for as long as the reader did not read.
  /** Ends a child whose reader does not read with SIGTERM: its status, what it said on stderr, and how long it took. */
  async function termWhileUnread(status: number, command?: string) {
    const c = child(4 << 20, status, command);
    c.stdout.pause();
    await new Promise((r) => setTimeout(r, 1000));
    let stderr = '';
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const t0 = Date.now();
    c.kill('SIGTERM');
    const [code] = (await Promise.race([
      new Promise((r) => c.on('close', (...a) => r(a))),
      new Promise((r) => setTimeout(() => (c.kill('SIGKILL'), r(['killed'])), 10_000)),
    ])) as [number | string];
    return { code, stderr, ms: Date.now() - t0 };
  }

  it.each([0, 6])(
    'a SIGTERM while a reader does not read, after an export that ended %s: at once 130 (its output did not reach the reader whole)',
    async (status) => {
      const { code, stderr, ms } = await termWhileUnread(status);
      expect(code).toBe(130);
      expect(ms).toBeLessThan(5000);
      // round 32 F4: 130 with nothing saying why, after a run whose files were complete (6: --strict's findings)
      expect(stderr).toMatch(/stopped by SIGTERM after the run had finished, before its output reached the reader whole; the files are complete/);
    },
    30_000,
  );

  // Round 36b F6: `status` and `token` write no files, but were told "the files are complete".
  it('the same after a command that writes no files: 130, and no word of files', async () => {
    const { code, stderr } = await termWhileUnread(0, 'status');
    expect(code).toBe(130);
    expect(stderr).toMatch(/stopped by SIGTERM after the command had finished, before its output reached the reader whole\.\n$/);
  }, 30_000);

  // Round 35b F1: a run refused (not signed in) or stopped (an API failure) whose --json object waited on a slow reader
  // ended with 130 and "the files are complete", where there were none. Round 36b: the cut was not told at all.
  it('the same after a failed run: its own code at once, the cut told, and no word of complete files', async () => {
    const { code, stderr, ms } = await termWhileUnread(3);
    expect(code).toBe(3);
    expect(ms).toBeLessThan(5000);
    expect(stderr).toMatch(/stopped by SIGTERM after the command had ended with exit status 3, before its output reached the reader whole\./);
    expect(stderr).not.toMatch(/complete/);
  }, 30_000);

  // Round 37b F4: a run stopped by one SIGTERM, its --json error object waiting on a reader that does not read, stayed
  // alive until a second signal.
  it('after a run a signal stopped: ends with 130 within moments, though the reader does not read', async () => {
    const c = child(4 << 20, 130);
    c.stdout.pause();
    let stderr = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const t0 = Date.now();
    const [code] = (await Promise.race([
      new Promise((r) => c.on('close', (...a) => r(a))),
      new Promise((r) => setTimeout(() => (c.kill('SIGKILL'), r(['killed'])), 10_000)),
    ])) as [number | string];
    expect([code, Date.now() - t0 < 5000]).toEqual([130, true]);
    // the signal that stopped it, not one "after the command had finished" (round 40a F4)
    expect(stderr).toBe('meterdata: stopped by SIGINT; its output did not reach the reader whole.\n');
  }, 30_000);

  // Round 29 F5: a SIGTERM in the milliseconds after a finished run's last line killed it (143): Node's teardown after
  // the 'exit' event closes the signal handles, which gives the signal its default action back. 17 of 40 before.
  // Round 34 F2: a first signal the command absorbed (here: while the CLI ends, at its test hook; in the field: during
  // the commit) left the CLI's own handler acting after main() returned: the second one ended the run with a bare 130.
  it('a second SIGTERM after main() returned, its first absorbed: the launcher’s line, not a bare 130', async () => {
    const cli = path.join(ROOT, 'dist', 'bundle', 'cli.js');
    const code = `const { main, endWhenDrained } = await import(${JSON.stringify(cli)});
      process.exitCode = await main(['completion', 'bash']);
      process.stdout.write('x'.repeat(4 << 20));
      endWhenDrained();`;
    const c = spawn(process.execPath, ['--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, METERDATA_TEST_HOOKS: '1', METERDATA_TEST_PAUSE_CLI_END_MS: '1500' },
    });
    c.stdout.pause();
    let stderr = '';
    c.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    for (let i = 0; i < 200 && !stderr.includes('test-hook: CLI_END'); i++) await new Promise((r) => setTimeout(r, 50));
    c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2500)); // main() has returned, the reader still reads nothing
    c.kill('SIGTERM');
    const [status] = (await Promise.race([
      new Promise((r) => c.on('close', (...a) => r(a))),
      new Promise((r) => setTimeout(() => (c.kill('SIGKILL'), r(['killed'])), 10_000)),
    ])) as [number | string];
    expect(status).toBe(130);
    expect(stderr).toMatch(/stopped by SIGTERM after the command had finished, before its output reached the reader whole/);
  }, 30_000);

  it('a SIGTERM 0–12 ms after the last line of a finished run: its own code every time, never killed by the signal', async () => {
    const outcomes: (number | string | null)[] = [];
    for (let i = 0; i < 40; i++) {
      const c = spawn(process.execPath, [BIN, '--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
      c.stdout.once('data', () => setTimeout(() => c.kill('SIGTERM'), i % 13));
      const guard = setTimeout(() => c.kill('SIGKILL'), 10_000);
      outcomes.push(await new Promise((r) => c.on('exit', (code, signal) => (clearTimeout(guard), r(code ?? signal)))));
    }
    expect(outcomes.filter((o) => o !== 0)).toEqual([]);
  }, 120_000);

  // Round 38 F7: a login stopped by Ctrl-C (exit 0, the new sign-in kept) or a sandbox stopped by SIGTERM (exit 0)
  // waited for a second signal while stdout could not take its bytes. Round 39 F1: it then ended with its 0, and no
  // line said its output was cut.
  it('after a signal stopped the run, whatever its code: two ticks for the reader, then the end, cut as a signal cuts it', async () => {
    const fake = (exitCode: number) => ({
      stdout: { writableLength: 10 },
      stderr: { writableLength: 0 },
      exitCode,
      codes: [] as (number | undefined)[],
      exit(code?: number) {
        this.codes.push(code);
      },
      on: () => undefined,
    });
    const [stopped, failed, unstopped] = [fake(0), fake(5), fake(0)];
    const lines: string[] = [];
    const cut = (p: { signal: string; code: number; complete: boolean; stopped: boolean }) => (
      lines.push(`${p.signal} ${p.code} ${p.complete} ${p.stopped}`),
      ''
    );
    endWhenDrained(stopped, 20, cut, 'SIGTERM');
    endWhenDrained(failed, 20, cut, 'SIGINT');
    endWhenDrained(unstopped, 20, cut);
    await new Promise((r) => setTimeout(r, 150));
    expect([stopped.codes[0], failed.codes[0], unstopped.codes]).toEqual([130, 5, []]);
    expect(lines.slice(0, 2).sort()).toEqual(['SIGINT 5 false true', 'SIGTERM 0 true true']);
  });

  it('waits while stdout or stderr still hold bytes, ends once both are written', async () => {
    const proc = {
      stdout: { writableLength: 10 },
      stderr: { writableLength: 0 },
      exits: 0,
      exit() {
        this.exits++;
      },
      on: () => undefined,
    };
    endWhenDrained(proc, 20);
    await new Promise((r) => setTimeout(r, 80));
    expect(proc.exits).toBe(0);
    proc.stdout.writableLength = 0;
    proc.stderr.writableLength = 3;
    await new Promise((r) => setTimeout(r, 80));
    expect(proc.exits).toBe(0);
    proc.stderr.writableLength = 0;
    await new Promise((r) => setTimeout(r, 80));
    expect(proc.exits).toBeGreaterThan(0);
  });
});
