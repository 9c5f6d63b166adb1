// The files of the claims' gates (claim-gate.ts): where they are, and how one is made whole by an exclusive create.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { dirs } from '../core/paths.js';

/** Where the gates are: named when one cannot be made. */
export function gateFolder(env: NodeJS.ProcessEnv): string {
  return path.join(dirs(env).state, 'refresh-claims');
}

export const gateFile = (env: NodeJS.ProcessEnv, hash: string): string => path.join(gateFolder(env), hash);

/**
 * Makes `file` holding `text`, durably and whole; false where the name is taken. Written aside, then linked to its
 * name (a link, like an exclusive create, fails where the name is taken): a full disk or a kill while writing leaves
 * no torn file that refuses a token never sent (round 51 G2), only a scratch file.
 */
export async function madeWhole(file: string, text: string): Promise<boolean> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const scratch = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writtenNew(scratch, text);
    return await fsp.link(scratch, file).then(
      () => true,
      (e: unknown) => {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        // a file system without hard links (FAT, exFAT, some shares): the exclusive create itself, written after
        return NO_LINKS.has(code ?? '') ? writtenNew(file, text) : Promise.reject(e);
      },
    );
  } finally {
    await fsp.rm(scratch, { force: true }).catch(() => undefined);
  }
}

/** What a file system without hard links (FAT, exFAT, some shares) answers a link with. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** `text` in a file made by an exclusive create, synced; false where the name is taken. A failed write removes it. */
async function writtenNew(file: string, text: string): Promise<boolean> {
  const handle = await fsp.open(file, 'wx', 0o600).catch((e: unknown) => ((e as NodeJS.ErrnoException).code === 'EEXIST' ? null : Promise.reject(e)));
  if (handle === null) return false;
  let whole = false;
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    whole = true;
  } finally {
    await handle.close();
    if (!whole) await fsp.rm(file, { force: true }).catch(() => undefined);
  }
  return true;
}
