import { MeterdataError, ExitCode } from '../core/errors.js';
import type { Io } from '../core/io.js';

// Placeholder until the command lands; says so plainly instead of pretending.
export async function run(_opts: Record<string, unknown>, _io: Io): Promise<number> {
  throw new MeterdataError('`meterdata status` is not available in this build yet.', { code: 'NOT_IMPLEMENTED', exitCode: ExitCode.UNEXPECTED });
}
