import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  missing(ctx, `${cmd} is not installed (${why}); install it with apt-get or run bash .ci/run`);
}

/**
 * The same for a build product that `npm test` does not make (the packed package, the
 * single executables): `how` names the command that makes it; .ci/run runs it first.
 */
export function requireBuilt(ctx: TestContext, file: string, how: string): void {
  if (existsSync(file)) return;
  missing(ctx, `${file} does not exist; make it with \`${how}\` (bash .ci/run does)`);
}

function missing(ctx: TestContext, reason: string): void {
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipped: ${ctx.task.name}: ${reason}`);
  ctx.skip(reason);
}
