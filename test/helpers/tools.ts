import { execFileSync } from 'node:child_process';
import type { TestContext } from 'vitest';

/** True when `cmd` is on PATH. */
export function hasTool(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A test that needs an outside tool (Chromium, LibreOffice, gnome-keyring, tmux):
 * locally a missing tool skips the test with the reason printed; under CI=true a
 * missing tool fails it, because CI installs every tool the tests need.
 */
export function requireTool(ctx: TestContext, cmd: string, why: string): void {
  if (hasTool(cmd)) return;
  const reason = `${cmd} is not installed (${why}); install it with apt-get or run bash .ci/run`;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipped: ${ctx.task.name}: ${reason}`);
  ctx.skip(reason);
}
