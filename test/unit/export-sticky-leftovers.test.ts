// In a folder where only a file's owner may remove it (the sticky bit: /tmp, a team share), another user's leftover
// or dead lock cannot be removed. Node's rm read that refusal as a folder and failed with ENOTDIR: "a bug", every run
// (round 27). It is told as what it is, exit 2. Tests run as root, whom the sticky bit does not stop, so the refusal
// comes from a mocked unlink.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const refused = vi.hoisted(() => ({ name: '' }));
vi.mock('node:fs/promises', async (original) => {
  const fsp = await original<typeof import('node:fs/promises')>();
  const unlink = (async (file: string) => {
    if (refused.name && path.basename(String(file)) === refused.name)
      throw Object.assign(new Error(`EPERM: operation not permitted, unlink '${file}'`), { code: 'EPERM', syscall: 'unlink', path: file });
    return fsp.unlink(file);
  }) as typeof fsp.unlink;
  return { ...fsp, default: { ...fsp, unlink }, unlink };
});

const { AtomicOutput } = await import('../../src/export/folder/atomic.js');

afterEach(() => {
  refused.name = '';
});

describe("another user's leftover in a sticky --out", () => {
  it('is told as left by another user (EXPORT_OUT_IN_USE, exit 2, who may remove it), not "a bug"', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-sticky-'));
    const left = path.join(dir, '.billing.csv.partial');
    writeFileSync(left, 'x');
    refused.name = '.billing.csv.partial';
    const e = (await new AtomicOutput(dir).prepare().catch((err: unknown) => err)) as { code: string; exitCode: number; message: string; hint: string };
    expect([e.code, e.exitCode]).toEqual(['EXPORT_OUT_IN_USE', 2]);
    expect(e.message).toBe(`${left}, left by an earlier run of another user, cannot be removed here (in this folder only a file's owner may remove it).`);
    expect(e.hint).toMatch(/^Ask its owner to remove .* or remove it as root/);
  });

  it('its own leftovers are still removed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-sticky-'));
    writeFileSync(path.join(dir, '.billing.csv.partial'), 'x');
    await new AtomicOutput(dir).prepare();
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual([]);
  });
});
