// The command context (src/commands/context.ts): each command takes its connection, clock
// and store from it, so a test replaces just that part, here without any sandbox.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/commands/context.js';
import { ExitCode, MeterdataError } from '../../src/core/errors.js';
import { runCli } from '../helpers/run-cli.js';

const env = () => ({ METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'meterdata-context-')) });
type Connect = CommandContext['connect'];

/** A connection whose token and profile are what the test says; it records what it was asked for. */
function fakeConnection(asked: unknown[]): Connect {
  return async (options) => {
    asked.push(options.profile);
    const conn = {
      credentials: { currentToken: async () => 'token-from-the-test' },
      reconcile: async () => ({ tenant_name: 'Hausverwaltung Test', tenant_id: 't-1', base_url: 'https://api.test/v1' }),
      close: async () => undefined,
    };
    return conn as unknown as Awaited<ReturnType<Connect>>;
  };
}

describe('a command with a replaced part of its context', () => {
  it('token prints the access token of the connection it is given, for the profile asked', async () => {
    const asked: unknown[] = [];
    const r = await runCli(['token', '--profile', 'north'], { env: env(), parts: { connect: fakeConnection(asked) } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'token-from-the-test\n', '']);
    expect(asked).toEqual(['north']);
  });

  it('status checks the connection it is given', async () => {
    const r = await runCli(['status', '--json'], { env: env(), parts: { connect: fakeConnection([]) } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'default', signed_in: true, working: true, tenant_name: 'Hausverwaltung Test' });
  });

  it("browse reads today from the context's clock (the range its hint names)", async () => {
    const r = await runCli(['browse'], { env: env(), parts: { now: () => new Date('2031-03-15T12:00:00Z') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('meterdata export --year 2030\n');
  });

  it('export opens its connection through the context, with its profile and --rate-limit', async () => {
    const asked: unknown[] = [];
    const connect: Connect = async (options) => {
      asked.push(options);
      throw new MeterdataError('the connection the test gave refused.', { code: 'AUTH_NOT_SIGNED_IN', exitCode: ExitCode.NOT_SIGNED_IN });
    };
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'meterdata-context-out-'));
    const r = await runCli(['export', '--year', '2025', '--profile', 'north', '--rate-limit', '120', '--quiet'], { env: env(), cwd, parts: { connect } });
    expect([r.code, r.stderr]).toEqual([3, 'meterdata: the connection the test gave refused.\n']);
    expect(asked).toEqual([{ profile: 'north', rateLimitPerMinute: 120 }]);
  });

  it('without replaced parts, the real ones: no profile is signed in', async () => {
    const r = await runCli(['token'], { env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('is not signed in');
  });
});
