// `meterdata demo`: the whole job without an account. Starts the embedded sandbox
// (auto-consent, clock 2026-11-22), signs in as the demo landlord through the ordinary
// login flow into a throw-away METERDATA_HOME (file credential store), exports 2025
// into --out and says what was written and what needs a look.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { flagText } from '../../billing/index.js';
import type { FlagCode } from '../../billing/types.js';
import type { Io } from '../../core/io.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { language, num } from '../../i18n/index.js';
import { XLSX_FILE } from '../../export/output/index.js';
import { exportWith, prepareExport } from '../../export/single.js';
import { summaryText } from '../../export/summary.js';
import { headlessLogin } from '../../sandbox/headless-login.js';
import { demoText as t } from '../texts-export.js';
import type { CommandContext } from '../context.js';
import type { DemoFlags } from './index.js';

export async function run(opts: DemoFlags, { io }: CommandContext): Promise<number> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'meterdata-demo-'));
  const env: NodeJS.ProcessEnv = { ...io.env, METERDATA_HOME: home, METERDATA_PROFILE: 'demo' };
  delete env.METERDATA_ACCESS_TOKEN;
  const demoIo: Io = { ...io, env };
  // Checked before the sandbox starts: a bad --out fails at once.
  const { args, template } = await prepareExport({ year: '2025', out: opts.out ?? 'meterdata-demo' }, demoIo);
  const { startSandbox } = await import('../../sandbox/server.js');
  const sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22', ...(opts.units ? { units: opts.units } : {}) });
  try {
    io.stderr.write(`${t.signingIn({ url: sandbox.url })}\n`);
    await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env, signal: io.signal, profile: 'demo' });
    const { openConnection } = await import('../../auth/connection.js');
    const conn = await openConnection({ profile: 'demo', env, signal: io.signal, warn: (l) => io.stderr.write(l) });
    io.stderr.write(`${t.exporting({ tenant: terminalSafe(conn.profile.tenant_name ?? t.theLandlord) })}\n`);
    const summary = await exportWith(args, template, demoIo, conn);
    const top = Object.entries(summary.codes)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([code, n]) => `  ${num(n).padStart(4)} × ${code}: ${flagText(code as FlagCode, language()).title}`);
    io.stdout.write(
      `${summaryText(summary, template)}\n${top.length ? `${t.findings}\n${top.join('\n')}\n` : ''}${t.open({ file: path.join(args.out, XLSX_FILE) })}\n`,
    );
    return 0;
  } finally {
    await sandbox.close();
    await rm(home, { recursive: true, force: true });
  }
}
