// Which command a folder's run belongs to, by its template (options.ts runKind): the monthly information's is
// `uvi-<layout>`; an export's is a built-in name or a file's path. `export --template uvi-mine.json` was taken for the
// monthly information's: its --out's parent became its root, and a sibling export refused it (round 63 Y7).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutDir, commandRoot, MANIFEST } from '../../src/export/folder/out-folder.js';
import { manifestKind } from '../../src/export/folder/manifest-kind.js';
import { runKind } from '../../src/export/options/index.js';

describe('the command a run belongs to', () => {
  it('the monthly information’s layouts are uvi’s; a template file of any name is an export’s', () => {
    expect(['uvi-generic', 'uvi-de'].map(runKind)).toEqual(['uvi', 'uvi']);
    expect(['generic', 'de', 'uvi-mine.json', './uvi-x', 'templates/uvi-de', 'uvi-a\\b', undefined].map(runKind)).toEqual(Array(7).fill('export'));
  });

  it('an export with a template file named uvi-… goes into its own --out beside another export, and is told an export after', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'md-run-kind-'));
    mkdirSync(path.join(base, 'E0'));
    writeFileSync(path.join(base, 'E0', MANIFEST), JSON.stringify({ identity: { template: 'generic' } }));
    const identity = { template: 'uvi-mine.json' };
    expect(commandRoot(path.join(base, 'A'), identity)).toBe(path.join(base, 'A'));
    await checkOutDir(path.join(base, 'A'), identity, ['billing.csv']);
    mkdirSync(path.join(base, 'A'));
    writeFileSync(path.join(base, 'A', MANIFEST), JSON.stringify({ identity }));
    expect(manifestKind(path.join(base, 'A'))).toBe('export');
  });
});
