// The letters' fonts are found where meterdata runs: next to dist/ (a clone, the npm
// package) and inside the single executable, which hands in its embedded assets; the
// executable's build embeds them and the npm package ships them.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readResourceBytes, useEmbeddedResources } from '../../src/core/resources.js';
import { FONT_FILES, letterFonts } from '../../src/uvi/letter/fonts.js';
import { ROOT } from '../helpers/bin.js';
import { requireBuilt } from '../helpers/tools.js';

const onDisk = (rel: string) => new Uint8Array(readFileSync(path.join(ROOT, rel)));

describe("the letters' fonts", () => {
  it('are TrueType files with their licence beside them', () => {
    for (const f of Object.values(FONT_FILES)) expect(Buffer.from(onDisk(f).subarray(0, 4)).toString('hex')).toBe('00010000');
    expect(readFileSync(path.join(ROOT, 'assets/fonts/LICENSE-DejaVu.txt'), 'utf8')).toContain('Bitstream');
  });

  it('are read from the package folder by the built code (dist/)', async (ctx) => {
    const dist = path.join(ROOT, 'dist/core/resources.js');
    requireBuilt(ctx, dist, 'npm run build');
    const built = (await import(pathToFileURL(dist).href)) as typeof import('../../src/core/resources.js');
    for (const f of Object.values(FONT_FILES)) expect(Buffer.from(await built.readResourceBytes(f)).equals(onDisk(f))).toBe(true);
  });

  it("are named as the single executable's assets and shipped in the npm package", () => {
    const script = readFileSync(path.join(ROOT, 'scripts/build-exe.mjs'), 'utf8');
    const listed = /LETTER_FONTS = (\[[^\]]*\])/.exec(script)?.[1];
    expect(JSON.parse(listed!.replaceAll("'", '"'))).toEqual(Object.values(FONT_FILES));
    expect(script).toMatch(/\.\.\.Object\.fromEntries\(LETTER_FONTS\.map/);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('assets/fonts/*');
  });

  it('inside the executable come from its assets, not the disk', async () => {
    const asked: string[] = [];
    const fake = (rel: string) => {
      asked.push(rel);
      return new TextEncoder().encode(`embedded ${rel}`);
    };
    useEmbeddedResources('0.0.0-test', () => '{}', fake);
    const fonts = await letterFonts();
    expect(new TextDecoder().decode(fonts.regular)).toBe(`embedded ${FONT_FILES.regular}`);
    expect(new TextDecoder().decode(fonts.bold)).toBe(`embedded ${FONT_FILES.bold}`);
    expect(asked.sort()).toEqual(Object.values(FONT_FILES).sort());
    await expect(readResourceBytes('assets/fonts/none.ttf')).resolves.toEqual(new TextEncoder().encode('embedded assets/fonts/none.ttf'));
  });
});

/** A script rendering one letter with the fonts handed in as the executable's assets, bundled as build:exe bundles. */
async function bundleLetter(dir: string, plugins: unknown[]): Promise<string> {
  const entry = path.join(dir, 'entry.ts');
  const from = (rel: string) => JSON.stringify(path.join(ROOT, rel));
  writeFileSync(
    entry,
    [
      `import { readFileSync } from 'node:fs';`,
      `import { useEmbeddedResources } from ${from('src/core/resources.ts')};`,
      `import { letterFonts, letterModel, writeLetter } from ${from('src/uvi/letter/index.ts')};`,
      `import { aLetterInput } from ${from('test/helpers/uvi-letter-fixtures.ts')};`,
      `useEmbeddedResources('0.0.0', () => '{}', (rel) => new Uint8Array(readFileSync(process.env.ASSETS + '/' + rel)));`,
      `void letterFonts().then((fonts) => writeLetter('letter.pdf', letterModel(aLetterInput()), { fonts, createdAt: new Date(0), title: 't', lang: 'de' }));`,
    ].join('\n'),
  );
  const esbuild = await import('esbuild');
  const { SEA_URL } = (await import(pathToFileURL(path.join(ROOT, 'scripts/build-exe.mjs')).href)) as { SEA_URL: object };
  const out = path.join(dir, 'run', 'letter.cjs');
  await esbuild.build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    logLevel: 'silent',
    ...SEA_URL,
    plugins: plugins as never,
  });
  return out;
}

describe('inside the bundle of the single executable', () => {
  it('renders a letter from the embedded fonts, with no node_modules and no import.meta.url to find files by', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'uvi-sea-'));
    const assets = path.join(dir, 'assets');
    mkdirSync(path.join(assets, 'assets/fonts'), { recursive: true });
    for (const f of Object.values(FONT_FILES)) copyFileSync(path.join(ROOT, f), path.join(assets, f));
    const { seaPlugin } = (await import(pathToFileURL(path.join(ROOT, 'scripts/build-exe.mjs')).href)) as { seaPlugin: unknown };
    const run = (script: string) =>
      spawnSync(process.execPath, [script], { cwd: path.dirname(script), env: { ASSETS: assets, PATH: process.env.PATH }, encoding: 'utf8', timeout: 60_000 });
    const good = run(await bundleLetter(dir, [seaPlugin]));
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(
      readFileSync(path.join(dir, 'run', 'letter.pdf'))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // without the plugin's pdfkit patch the bundle does not even load
    const bad = run(await bundleLetter(dir, []));
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('createRequire');
  });
});

describe('scripts/build-exe.mjs', () => {
  it('builds when run, also through a symlinked path, and only exports its bundle settings when imported', () => {
    const link = path.join(mkdtempSync(path.join(tmpdir(), 'uvi-build-exe-')), 'build-exe.mjs');
    symlinkSync(path.join(ROOT, 'scripts/build-exe.mjs'), link);
    // an unknown target is refused before anything is fetched or written: proof that main() ran
    const r = spawnSync(process.execPath, [link, '--target', 'no-such-target'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toContain('unknown target no-such-target');
    expect(r.status).not.toBe(0);
  });
});
