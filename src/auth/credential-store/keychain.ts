// The default store: the OS keychain through @napi-rs/keyring. On Linux every entry is
// pinned to the Secret Service; the library would otherwise fall back silently to the
// kernel keyring, which forgets everything at reboot (and a lost refresh token means a
// new consent by the landlord). The keytar-compatible wrapper cannot pin, so AsyncEntry
// is used directly with the same service/account model.
import { AsyncEntry } from '@napi-rs/keyring';
import { ExitCode, MeterdataError, NotSignedInError } from '../../core/errors.js';
import { parseRecord, type CredentialStore, type StoredRecord } from './types.js';

export const KEYCHAIN_SERVICE = 'meterdata';

export class KeychainUnavailableError extends MeterdataError {
  constructor(what: string, cause?: unknown) {
    super(`The system keychain is locked or unavailable (${what}).`, {
      code: 'AUTH_KEYCHAIN_UNAVAILABLE',
      exitCode: ExitCode.UNAVAILABLE,
      hint:
        'Unlock the keychain (sign in to the desktop session) and try again, or keep the sign-in in a file instead: ' +
        '`meterdata login --credential-store file` (or METERDATA_CREDENTIAL_STORE=file).',
      cause,
    });
  }
}

export class KeychainCredentialStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  private readonly timeoutMs: number;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    this.timeoutMs = Number(env.METERDATA_KEYCHAIN_TIMEOUT_MS) || 20_000;
  }

  /** The account name; METERDATA_HOME keeps separate installs (and tests) apart. */
  account(profile: string): string {
    return this.env.METERDATA_HOME ? `${profile}@${this.env.METERDATA_HOME}` : profile;
  }

  describe(profile: string): string {
    const backend = this.platform === 'win32' ? 'Windows Credential Manager' : this.platform === 'darwin' ? 'macOS Keychain' : 'Secret Service';
    return `system keychain (${backend}), service "${KEYCHAIN_SERVICE}", account "${this.account(profile)}"`;
  }

  private entry(profile: string): AsyncEntry {
    try {
      return new AsyncEntry(KEYCHAIN_SERVICE, this.account(profile), { linux: { store: 'secret-service' } });
    } catch (e) {
      throw new KeychainUnavailableError(reason(e), e);
    }
  }

  protected async call<T>(what: string, op: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new KeychainUnavailableError(`no answer within ${this.timeoutMs >= 1000 ? `${Math.round(this.timeoutMs / 1000)} s` : `${this.timeoutMs} ms`} while trying to ${what}`));
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([op(controller.signal), timeout]);
    } catch (e) {
      if (e instanceof MeterdataError) throw e;
      throw new KeychainUnavailableError(`${what}: ${reason(e)}`, e);
    } finally {
      clearTimeout(timer);
    }
  }

  async read(profile: string): Promise<StoredRecord | null> {
    const entry = this.entry(profile);
    const text = await this.call('read the sign-in', (s) => entry.getPassword(s));
    if (text === null) return null;
    try {
      return parseRecord(text, 'the keychain');
    } catch {
      throw new NotSignedInError('The sign-in stored in the keychain is damaged.', {
        code: 'AUTH_STORE_DAMAGED',
        hint: `Run \`meterdata login --profile ${profile}\` to replace it.`,
      });
    }
  }

  async write(profile: string, record: StoredRecord): Promise<void> {
    const entry = this.entry(profile);
    await this.call('save the sign-in', (s) => entry.setPassword(JSON.stringify(record), s));
  }

  async remove(profile: string): Promise<boolean> {
    const entry = this.entry(profile);
    return this.call('delete the sign-in', (s) => entry.deletePassword(s));
  }

  /** Login calls this before the browser opens, so a missing keychain is found before consent. */
  async probe(): Promise<void> {
    const entry = this.entry('probe');
    await this.call('reach the keychain', (s) => entry.getPassword(s));
  }
}

function reason(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s+/g, ' ').slice(0, 200);
}
