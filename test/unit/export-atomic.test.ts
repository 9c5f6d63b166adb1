import { readdirSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename as fsRename, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unfinished } from '../../src/export/run-errors.js';
import { AtomicOutput } from '../../src/export/folder/atomic.js';
import { checkOutDir, probeFile } from '../../src/export/folder/out-folder.js';
import { OutputSet } from '../../src/export/output/index.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { runOwner } from '../../src/core/run-owner.js';

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'md-atomic-'));

describe('the --out writability probe', () => {
  it("never clashes with a file of that name (a user's, or a probe an earlier run with the same pid left), and leaves nothing behind", async () => {
    const dir = await tmp();
    const theirs = path.join(dir, `.meterdata-write-test-${process.pid}`);
    await writeFile(theirs, 'mine');
    await checkOutDir(dir, { a: 1 }, ['billing.csv']);
    expect(await readdir(dir)).toEqual([path.basename(theirs)]);
    expect(await readFile(theirs, 'utf8')).toBe('mine');
  });

  it('an --out that is (or lies under) a link to nothing is refused before any request, naming the link', async () => {
    const dir = await tmp();
    const link = path.join(dir, 'out');
    await symlink(path.join(dir, 'missing', 'x'), link);
    for (const out of [link, path.join(link, 'sub')]) {
      const e = await checkOutDir(out, { a: 1 }, ['billing.csv']).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'EXPORT_OUT_NOT_A_FOLDER', exitCode: 2 });
      expect((e as Error).message).toBe(`--out ${out} cannot be created: ${link} is a link to ${path.join(dir, 'missing', 'x')}, which does not exist.`);
    }
  });

  it('a probe a kill left in --out is removed with the next export’s scratch files', async () => {
    const dir = await tmp();
    await writeFile(probeFile(dir), '');
    await new AtomicOutput(dir).prepare();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('atomic output', () => {
  it('shows nothing under a final name until commit, then everything with the manifest last', async () => {
    const dir = await tmp();
    const out = new AtomicOutput(dir);
    await out.prepare();
    const a = await out.create('billing.csv');
    await a.write('x'.repeat(200_000));
    await out.closeFile(a);
    const m = await out.create('manifest.json');
    await m.write('{}');
    await out.closeFile(m);
    expect((await readdir(dir)).sort()).toEqual(['.billing.csv.partial', '.manifest.json.partial']);
    expect(await out.commit('manifest.json')).toEqual(['billing.csv', 'manifest.json']);
    expect((await readdir(dir)).sort()).toEqual(['billing.csv', 'manifest.json']);
    expect(a.bytes).toBe(200_000);
  });

  it('leaves no final-named file when the export fails half-way', async () => {
    const dir = await tmp();
    const t = await loadTemplate('generic', process.cwd());
    const set = new OutputSet(dir, t, ['csv', 'xlsx']);
    await set.start();
    await set.write('billing', [{ property_id: 'p', billable_value: '1' }]);
    // the walk fails here (e.g. the service stays unavailable): the command aborts the set
    await set.abort();
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes leftovers of an interrupted run but never touches other files', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, '.segments.csv.partial'), 'half');
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    await new AtomicOutput(dir).prepare();
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('refuses an out folder with another export or foreign files of our names', async () => {
    const dir = await tmp();
    await checkOutDir(dir, { a: 1 }, ['billing.csv']);
    await writeFile(path.join(dir, 'billing.csv'), 'someone else');
    await expect(checkOutDir(dir, { a: 1 }, ['billing.csv'])).rejects.toThrow(/already holds billing\.csv/);
    await writeFile(path.join(dir, 'meterdata-manifest.json'), JSON.stringify({ identity: { a: 1 } }));
    await checkOutDir(dir, { a: 1 }, ['billing.csv']);
    await expect(checkOutDir(dir, { a: 2 }, ['billing.csv'])).rejects.toThrow(/export made with other arguments/);
  });

  it('a re-run whose commit fails between renames leaves no valid-looking manifest beside mixed files, and may run again', async () => {
    const dir = await tmp();
    const id = { year: 2025 };
    const old = JSON.stringify({ identity: id, run: 'old' });
    await writeFile(path.join(dir, 'billing.csv'), 'old billing');
    await writeFile(path.join(dir, 'segments.csv'), 'old segments');
    await writeFile(path.join(dir, 'meterdata-manifest.json'), old);

    const write = async (out: AtomicOutput, name: string, text: string) => {
      const f = await out.create(name);
      await f.write(text);
      await out.closeFile(f);
    };
    // The crash: the rename of segments.csv fails after the one of billing.csv replaced billing.csv (a failing disk:
    // the commit checks every temporary file before the first rename, so a missing one is no longer the way in).
    const rerun = new AtomicOutput(dir, {
      rename: async (from, to) =>
        path.basename(from) === '.segments.csv.partial'
          ? Promise.reject(Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' }))
          : fsRename(from, to),
    });
    await rerun.prepare();
    await write(rerun, 'billing.csv', 'new billing');
    await write(rerun, 'segments.csv', 'new segments');
    await write(rerun, 'meterdata-manifest.json', JSON.stringify({ identity: id, run: 'new' }));
    await expect(rerun.commit('meterdata-manifest.json')).rejects.toThrow(/EIO/);

    expect(await readFile(path.join(dir, 'billing.csv'), 'utf8')).toBe('new billing');
    expect(await readFile(path.join(dir, 'segments.csv'), 'utf8')).toBe('old segments');
    expect((await readdir(dir)).filter((n) => !n.startsWith('.'))).toEqual(['billing.csv', 'segments.csv']);
    // The same arguments may run again over it; other arguments are still refused.
    await checkOutDir(dir, id, ['billing.csv', 'segments.csv']);
    await expect(checkOutDir(dir, { year: 2024 }, ['billing.csv'])).rejects.toThrow(/other arguments/);

    const again = new AtomicOutput(dir);
    await again.prepare();
    await write(again, 'billing.csv', 'new billing');
    await write(again, 'segments.csv', 'new segments');
    await write(again, 'meterdata-manifest.json', JSON.stringify({ identity: id, run: 'new' }));
    await again.commit('meterdata-manifest.json');
    expect(await readdir(dir)).toEqual(['billing.csv', 'meterdata-manifest.json', 'segments.csv']);
    expect(await readFile(path.join(dir, 'segments.csv'), 'utf8')).toBe('new segments');
  });
});

// Round 27: a first run into a folder had no manifest to set aside, so a kill or a failing disk between its renames
// left final files without a manifest, and every re-run was refused ("not from a complete meterdata export").
describe('a first run whose commit fails between renames', () => {
  it('leaves its own manifest aside: the same arguments may run again and finish; other arguments are refused', async () => {
    const dir = await tmp();
    const id = { year: 2025 };
    const failing = new AtomicOutput(dir, {
      rename: async (from, to) =>
        path.basename(from) === '.segments.csv.partial'
          ? Promise.reject(Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' }))
          : fsRename(from, to),
    });
    await failing.prepare();
    for (const [name, text] of [
      ['billing.csv', 'new billing'],
      ['segments.csv', 'new segments'],
      ['meterdata-manifest.json', JSON.stringify({ identity: id, run: 'new' })],
    ]) {
      const f = await failing.create(name!);
      await f.write(text!);
      await failing.closeFile(f);
    }
    const e = await failing.commit('meterdata-manifest.json').catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'EIO' });
    expect((await readdir(dir)).filter((n) => !n.startsWith('.'))).toEqual(['billing.csv']);
    // said as it is: some files under their final names already (it said none were)
    const told = unfinished(e, dir, undefined) as Error;
    expect(told.message).toContain(`some files of this run are under their final names in ${dir} already, but not all and without the manifest.`);
    expect(told.message).not.toContain('no files were put under their final names');
    await checkOutDir(dir, id, ['billing.csv', 'segments.csv']);
    await expect(checkOutDir(dir, { year: 2024 }, ['billing.csv'])).rejects.toThrow(/other arguments/);
  });
});

describe("the next run's clean-up of what a killed one left", () => {
  it("removes the PDF writer's temporary file behind a letter's partial name, and keeps names that only look alike", async () => {
    const dir = await tmp();
    const ours = ['..letters-Rheinuferstraße_12-0efbc34d.pdf.partial.4242.1764270000000.k3j9x2.tmp', '.uvi.csv.partial'];
    const theirs = [
      '.letters.pdf.4242.1764270000000.k3j9x2.tmp', // not behind a partial name
      '..notes.partial.tmp',
      'letter.pdf.partial.1.2.x.tmp', // not hidden
      '..letter.pdf.partial.1.2.x.tmp.bak',
      '..letter.pdf.partial.1.x.y.tmp',
    ];
    for (const n of [...ours, ...theirs]) await writeFile(path.join(dir, n), 'x');
    await new AtomicOutput(dir).prepare();
    expect((await readdir(dir)).sort()).toEqual([...theirs].sort());
  });

  it("removes a dead process's folder-lock record written aside (a kill between writing and placing it), not a live one's", async () => {
    const dir = await tmp();
    const dead = '.meterdata-lock.4000000.6a7cc5cb.tmp'; // above Linux's highest pid: no process
    const live = `.meterdata-lock.${runOwner()}.0badc0de.tmp`;
    const alike = ['.meterdata-lock.12.6a7cc5cb.tmp.bak', 'meterdata-lock.4000000.6a7cc5cb.tmp', '.meterdata-lock'];
    for (const n of [dead, live, ...alike]) await writeFile(path.join(dir, n), 'x');
    await new AtomicOutput(dir).prepare();
    expect((await readdir(dir)).sort()).toEqual([live, ...alike].sort());
  });

  it("removes a record an earlier process of this very pid left (a restarted container's pid 1), not this process's own", async () => {
    const dir = await tmp();
    const earlier = `.meterdata-lock.${process.pid}.0123456789abcdef.6a7cc5cb.tmp`;
    const older = `.meterdata-lock.${process.pid}.6a7cc5cb.tmp`; // an older version's name: no mark
    const own = `.meterdata-lock.${runOwner()}.0badc0de.tmp`;
    for (const n of [earlier, older, own]) await writeFile(path.join(dir, n), 'x');
    await new AtomicOutput(dir).prepare();
    expect(await readdir(dir)).toEqual([own]);
  });
});

// Round 29: a folder planted at a name the commit writes, found after every Property was fetched, said "run the same
// command again" twice: the folder's own hint, then the run's "it continues from what was fetched".
describe("a refusal of the user's to fix, after every Property was fetched", () => {
  it('keeps its own hint alone: one "run the same command again"', async () => {
    const { UsageError } = await import('../../src/core/errors.js');
    const e = new UsageError(
      '--out x holds a folder named .billing.csv.partial',
      "Move or rename that folder (it is not meterdata's), then run the same command again.",
      'EXPORT_OUT_IN_USE',
    );
    const told = unfinished(e, '/tmp/x', undefined) as { hint: string; exitCode: number; message: string };
    expect(told.exitCode).toBe(2);
    expect(told.message).toMatch(/^--out x holds a folder named .billing.csv.partial Every Property was fetched/);
    expect(told.hint.match(/run the same command again/gi)).toHaveLength(1);
  });
});

describe('the commit lock looked at once the manifest is aside (round 65 A1)', () => {
  /** The commit of `out`, its lock found lost at the look. */
  const lockLost = (out: AtomicOutput) =>
    out
      .commit('manifest.json', [], () => {
        throw new Error('lock lost');
      })
      .catch((e: unknown) => e);

  async function staged(dir: string, manifest: string): Promise<AtomicOutput> {
    const out = new AtomicOutput(dir);
    await out.prepare();
    for (const [name, text] of [
      ['billing.csv', 'new'],
      ['manifest.json', manifest],
    ]) {
      const f = await out.create(name!);
      await f.write(text!);
      await out.closeFile(f);
    }
    return out;
  }

  it('a first run: its manifest stands aside when the lock is looked at; a lock lost then leaves no manifest and no final file', async () => {
    const dir = await tmp();
    const out = await staged(dir, '{"new":1}');
    let seen: string[] = [];
    const lost = new Error('lock lost');
    const failed = await out
      .commit('manifest.json', [], () => {
        seen = readdirSync(dir).sort();
        throw lost;
      })
      .catch((e: unknown) => e);
    expect(failed).toBe(lost);
    expect(seen).toContain('.manifest.json.replaced');
    expect((await readdir(dir)).sort()).toEqual(['.billing.csv.partial', '.manifest.json.partial']);
  });

  it('a re-run: the earlier manifest, set aside for the look, is put back where the lock was lost; the earlier files stand', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'manifest.json'), '{"old":1}');
    await writeFile(path.join(dir, 'billing.csv'), 'old');
    const out = await staged(dir, '{"new":1}');
    const failed = await lockLost(out);
    expect(failed).toBeInstanceOf(Error);
    expect(await readFile(path.join(dir, 'manifest.json'), 'utf8')).toBe('{"old":1}');
    expect(await readFile(path.join(dir, 'billing.csv'), 'utf8')).toBe('old');
    expect(readdirSync(dir).filter((n) => n.endsWith('.replaced'))).toEqual([]);
  });

  it('a re-run where an earlier commit crashed after its step aside: that aside stays, also where the lock was lost (round 66 B1)', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, '.manifest.json.replaced'), '{"old":1}');
    await writeFile(path.join(dir, 'billing.csv'), 'old');
    const out = await staged(dir, '{"new":1}');
    const failed = await lockLost(out);
    expect(failed).toBeInstanceOf(Error);
    expect(await readFile(path.join(dir, '.manifest.json.replaced'), 'utf8')).toBe('{"old":1}');
    // and where the lock is its own, the commit completes over it
    const again = await staged(dir, '{"new":2}');
    await again.commit('manifest.json');
    expect(await readFile(path.join(dir, 'manifest.json'), 'utf8')).toBe('{"new":2}');
    expect(readdirSync(dir).filter((n) => n.endsWith('.replaced'))).toEqual([]);
  });
});
