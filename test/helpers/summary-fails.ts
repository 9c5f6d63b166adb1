// Makes the portfolio's summary fail once when asked (a full disk at the end of a night), so a test can reach the
// state of profiles finished and recorded without their summary. A folder planted under the summary's name did
// that before round 26; it is refused before any profile runs now. Import this module before any other of
// meterdata's in the test file (its vi.mock then applies to them).
import { vi } from 'vitest';

/** Set `once` to make the next write of a portfolio-summary.csv fail. */
export const failSummary = ((globalThis as { __mdFailSummary?: { once: boolean } }).__mdFailSummary ??= { once: false });

vi.mock('../../src/core/atomic-file.js', async (original) => {
  const m = await original<typeof import('../../src/core/atomic-file.js')>();
  return {
    ...m,
    writeFileAtomic: async (file: string, ...rest: [string | Uint8Array, object?]) => {
      const flag = (globalThis as { __mdFailSummary?: { once: boolean } }).__mdFailSummary;
      if (flag?.once && file.endsWith('portfolio-summary.csv')) {
        flag.once = false;
        throw Object.assign(new Error(`ENOSPC: no space left on device, open '${file}'`), { code: 'ENOSPC', syscall: 'open', path: file });
      }
      return m.writeFileAtomic(file, ...(rest as [string | Uint8Array]));
    },
  };
});
