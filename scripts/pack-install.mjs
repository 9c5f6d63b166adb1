// `npm run build:pkg`: what a user gets from the package, built from this checkout the way
// CI tests it: `npm pack` (prepack builds a clean dist/) into build/pkg, then
// `npm install -g` of that tarball into the fresh prefix build/pkg/prefix (dependencies
// from the npm cache where it has them). test/e2e/package.test.ts runs what lands there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build', 'pkg');
const { name, version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const npm = (args) => execFileSync('npm', args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
npm(['pack', '--silent', '--pack-destination', out]);
const tgz = path.join(out, `${name}-${version}.tgz`);
npm(['install', '-g', '--prefix', path.join(out, 'prefix'), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tgz]);
process.stderr.write(`build:pkg: packed ${path.relative(root, tgz)} and installed it into ${path.relative(root, path.join(out, 'prefix'))}\n`);
