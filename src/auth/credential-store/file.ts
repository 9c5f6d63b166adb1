// Opt-in file store: one JSON file per profile, mode 0600, in the state directory,
// replaced atomically so a crash leaves the old or the new record, never half of one.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../core/config.js';
import { dirs } from '../../core/paths.js';
import { NotSignedInError } from '../../core/errors.js';
import { parseRecord, type CredentialStore, type StoredRecord } from './types.js';

export class FileCredentialStore implements CredentialStore {
  readonly kind = 'file' as const;
  private readonly dir: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = path.join(dirs(env).state, 'credentials');
  }

  fileFor(profile: string): string {
    return path.join(this.dir, `${profile}.json`);
  }

  describe(profile: string): string {
    return `file ${this.fileFor(profile)} (mode 0600)`;
  }

  async read(profile: string): Promise<StoredRecord | null> {
    const file = this.fileFor(profile);
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    try {
      return parseRecord(text, file);
    } catch {
      throw new NotSignedInError(`The stored sign-in in ${file} is damaged.`, {
        code: 'AUTH_STORE_DAMAGED',
        hint: `Run \`meterdata login --profile ${profile}\` to replace it.`,
      });
    }
  }

  async write(profile: string, record: StoredRecord): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.fileFor(profile), JSON.stringify(record), 0o600);
  }

  async remove(profile: string): Promise<boolean> {
    try {
      await fsp.unlink(this.fileFor(profile));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  }
}
