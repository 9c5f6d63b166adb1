// An export into a folder and the monthly information into a month folder of it, started
// together: each checked the other's files at start, found none, and both committed, mixing the
// folder. A uvi run holds its --out root's lock besides its month folder's, the lock an export
// into that root holds: whichever comes second is refused (EXPORT_OUT_BUSY, exit 2 as any busy
// folder), and two months into one root run one after the other.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/export/journal/journal.js';
import { NORDLICHT_WHO } from '../helpers/who.js';

const who = NORDLICHT_WHO;
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-rootlock-'));
const now = new Date('2026-11-23T10:00:00Z');
const exportOf = (out: string) => ({ from: '2025-01-01', to: '2025-12-31', template: 'default', out });
const uviOf = (root: string, month: string) => ({ from: '2024-11-01', to: `${month}-30`, template: 'uvi-default', out: path.join(root, month) });
const open = (state: string, id: { out: string }) => Journal.open(state, id, who, now, id.out);

describe('an export and the monthly information into one --out', () => {
  it('the uvi first: an export into its root is refused, naming the root, until the uvi is done', async () => {
    const [state, root] = [tmp(), tmp()];
    const uvi = await open(state, uviOf(root, '2025-11'));
    await expect(open(state, exportOf(root))).rejects.toMatchObject({
      code: 'EXPORT_OUT_BUSY',
      message: `Another \`meterdata export\` or \`meterdata uvi\` is writing to ${root}; one run owns a folder at a time.`,
    });
    await uvi.close();
    await (await open(state, exportOf(root))).close();
  });

  it('the export first: the uvi into a month folder of it is refused, also after a hand-over to the committing thread, until released', async () => {
    const [state, root] = [tmp(), tmp()];
    const exp = await open(state, exportOf(root));
    await expect(open(state, uviOf(root, '2025-11'))).rejects.toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    // the refused uvi left its month folder's lock free: a uvi of that month runs once the export is done
    await Journal.release(exp.handOver(), true);
    const uvi = await open(state, uviOf(root, '2025-11'));
    const handle = uvi.handOver();
    await expect(open(state, exportOf(root))).rejects.toMatchObject({ code: 'EXPORT_OUT_BUSY' });
    await Journal.release(handle, true);
    await (await open(state, exportOf(root))).close();
  });

  it('two months into one root: the second waits its turn (refused while the first runs), each month folder its own', async () => {
    const [state, root] = [tmp(), tmp()];
    const november = await open(state, uviOf(root, '2025-11'));
    await expect(open(state, uviOf(root, '2025-10'))).rejects.toMatchObject({
      code: 'EXPORT_OUT_BUSY',
      message: expect.stringContaining(`writing to ${root};`),
    });
    await november.close();
    await (await open(state, uviOf(root, '2025-10'))).close();
  });

  it('exports into two month-named folders of one parent do not hold the parent', async () => {
    const [state, root] = [tmp(), tmp()];
    const a = await open(state, exportOf(path.join(root, '2025-11')));
    const b = await open(state, exportOf(path.join(root, '2025-10')));
    await Promise.all([a.close(), b.close()]);
  });
});
