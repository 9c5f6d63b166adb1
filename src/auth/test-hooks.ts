// Deterministic pause points for the kill and lock-takeover tests. Read only when
// METERDATA_TEST_HOOKS=1, so a stray variable in a user's environment does nothing.

export type PausePoint = 'BEFORE_REFRESH' | 'BEFORE_INTENT' | 'AFTER_REFRESH' | 'CLI_END' | 'BEFORE_COMMIT';

export function testHooksOn(env: NodeJS.ProcessEnv): boolean {
  return env.METERDATA_TEST_HOOKS === '1';
}

/** A positive integer from `METERDATA_TEST_<name>` when test hooks are on. */
export function testNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (!testHooksOn(env)) return undefined;
  const n = Number(env[`METERDATA_TEST_${name}`]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * METERDATA_TEST_PAUSE_<point>_MS: announce the point on stderr (`test-hook: <point>`), then
 * sleep, so a test can kill or stop the process at exactly that point.
 */
export async function pauseAt(env: NodeJS.ProcessEnv, point: PausePoint, say: (line: string) => void): Promise<void> {
  const ms = testNumber(env, `PAUSE_${point}_MS`);
  if (!ms) return;
  say(`test-hook: ${point}\n`);
  await new Promise((r) => setTimeout(r, ms));
}
