// Node can load a native module only from a file. The single executable carries the
// keyring's module as an asset and writes it once to the user's cache folder, under a
// name derived from its content; a file already there is compared byte for byte before
// it is used, so nothing planted or half-written under that name is ever loaded.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readBounded } from '../core/bounded-read.js';

export function nativeModulePath(name: string, bytes: Uint8Array, cacheDir: string, platform: NodeJS.Platform): string {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return path.join(cacheDir, 'native', `${name}-${platform}-${digest}.node`);
}

/** What is there, read only as a plain file and no further than `max` (a FIFO or a device planted there is not ours). */
function readOrNull(file: string, max: number): Buffer | null {
  try {
    const read = readBounded(file, max);
    return read.ok ? read.bytes : null;
  } catch {
    return null;
  }
}

/** Makes `file` hold exactly `bytes` (written to a temporary name and renamed); returns `file`. */
export function materialize(bytes: Uint8Array, file: string): string {
  if (readOrNull(file, bytes.length)?.equals(bytes)) return file;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o700 });
  renameSync(tmp, file);
  return file;
}
