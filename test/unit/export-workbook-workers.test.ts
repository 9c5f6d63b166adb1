// The portfolio's workbook workers (src/export/output/formats/xlsx/workbook-workers.ts): which worker writes
// which workbook, and what a failing workbook or a dying worker does to the others. The
// workers are stand-ins on a MessagePort in this thread; the real ones run in the e2e test.
import type { MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { MeterdataError, isMeterdataError } from '../../src/core/errors.js';
import { serializeError } from '../../src/core/isolate.js';
import { workbookWorkers } from '../../src/export/output/formats/xlsx/workbook-workers.js';
import type { XlsxInput } from '../../src/export/output/formats/xlsx/xlsx-writer.js';

const job = (file: string) => ({ file }) as XlsxInput;

/** A stand-in worker: answers each job after a few ms; "bad" fails, "die" ends the worker without answers. */
function fakeWorkers() {
  const log = { started: 0, ended: 0, wrote: [] as [number, string][] };
  const start = (port: MessagePort) => {
    const me = ++log.started;
    let dead = false;
    return new Promise<void>((resolve, reject) => {
      port.on('message', (m: { id: number; input: XlsxInput }) => {
        if (dead) return;
        if (m.input.file === 'die') {
          dead = true;
          port.close();
          reject(new MeterdataError('out of memory', { code: 'EXPORT_OUT_OF_MEMORY', exitCode: 1 }));
          return;
        }
        log.wrote.push([me, m.input.file]);
        const error = m.input.file === 'bad' ? { error: serializeError(new MeterdataError('disk full', { code: 'EXPORT_PERIOD_CHANGED', exitCode: 5 })) } : {};
        setTimeout(() => port.postMessage({ id: m.id, ...error }), 5);
      });
      port.on('close', () => {
        log.ended++;
        resolve();
      });
    });
  };
  return { log, start };
}

describe('workbook workers of the portfolio export', () => {
  it('an idle worker writes the next workbook: three one after another take one worker', async () => {
    const { log, start } = fakeWorkers();
    const pool = workbookWorkers(2, start);
    for (const f of ['a', 'b', 'c']) await pool.write(job(f));
    await pool.close();
    expect(log.started).toBe(1);
    expect(log.wrote).toEqual([
      [1, 'a'],
      [1, 'b'],
      [1, 'c'],
    ]);
    expect(log.ended).toBe(1);
  });

  it('never more workers than asked for; the workbooks beyond wait at the least busy one', async () => {
    const { log, start } = fakeWorkers();
    const pool = workbookWorkers(2, start);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((f) => pool.write(job(f))));
    await pool.close();
    expect(log.started).toBe(2);
    expect(log.wrote.map(([, f]) => f).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(log.wrote.filter(([w]) => w === 1)).toHaveLength(3);
  });

  it('a failing workbook fails alone, with its own error; a dying worker fails its own workbooks only, and the next one gets a new worker', async () => {
    const { log, start } = fakeWorkers();
    const pool = workbookWorkers(1, start);
    const bad = await pool.write(job('bad')).catch((e: unknown) => e);
    expect(isMeterdataError(bad) && [bad.code, bad.exitCode, bad.message]).toEqual(['EXPORT_PERIOD_CHANGED', 5, 'disk full']);
    await pool.write(job('ok'));
    const [died, queued] = await Promise.allSettled([pool.write(job('die')), pool.write(job('queued'))]);
    expect(died.status === 'rejected' && (died.reason as MeterdataError).code).toBe('EXPORT_OUT_OF_MEMORY');
    expect(queued.status === 'rejected' && (queued.reason as MeterdataError).code).toBe('EXPORT_OUT_OF_MEMORY');
    await pool.write(job('after'));
    await pool.close();
    expect(log.started).toBe(2);
    expect(log.wrote).toEqual([
      [1, 'bad'],
      [1, 'ok'],
      [2, 'after'],
    ]);
  });
});
