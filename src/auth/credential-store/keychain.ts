// The default store: the OS keychain through @napi-rs/keyring. On Linux every entry is
// pinned to the Secret Service; the library would otherwise fall back silently to the
// kernel keyring, which forgets everything at reboot (and a lost refresh token means a
// new consent by the landlord). The keytar-compatible wrapper cannot pin, so AsyncEntry
// is used directly with the same service/account model.
import { AsyncEntry } from '@napi-rs/keyring';
import { ExitCode, MeterdataError } from '../../core/errors.js';
import { readSplit, removeSplit, WINDOWS_MAX_CHARS, writeSplit, type Slots } from './split.js';
import { damagedRecord, parseRecord, type CredentialStore, type StoredRecord } from './types.js';
import { storeTexts as t } from './texts.js';

/** What the store uses of the keyring module's AsyncEntry. */
export type EntryLike = Pick<AsyncEntry, 'getPassword' | 'setPassword' | 'deletePassword'>;

export const KEYCHAIN_SERVICE = 'meterdata';

export class KeychainUnavailableError extends MeterdataError {
  constructor(what: string, cause?: unknown) {
    super(t.keychainUnavailable({ what }), {
      code: 'AUTH_KEYCHAIN_UNAVAILABLE',
      exitCode: ExitCode.UNAVAILABLE,
      hint: t.keychainHint,
      cause,
    });
  }
}

export class KeychainCredentialStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  private readonly timeoutMs: number;

  private readonly platform: NodeJS.Platform;
  private readonly open: (account: string) => EntryLike;

  /** `opts` inject the platform and the keyring entries, for tests of other platforms. */
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    opts: { platform?: NodeJS.Platform; entry?: (account: string) => EntryLike } = {},
  ) {
    this.timeoutMs = Number(env.METERDATA_KEYCHAIN_TIMEOUT_MS) || 20_000;
    this.platform = opts.platform ?? process.platform;
    this.open = opts.entry ?? ((account) => new AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } }));
  }

  /** The account name; METERDATA_HOME keeps separate installs (and tests) apart. */
  account(profile: string): string {
    return this.env.METERDATA_HOME ? `${profile}@${this.env.METERDATA_HOME}` : profile;
  }

  describe(profile: string): string {
    const backend = this.platform === 'win32' ? 'Windows Credential Manager' : this.platform === 'darwin' ? 'macOS Keychain' : 'Secret Service';
    return t.describeKeychain({ backend, service: KEYCHAIN_SERVICE, account: this.account(profile) });
  }

  private entry(account: string): EntryLike {
    try {
      return this.open(account);
    } catch (e) {
      throw new KeychainUnavailableError(reason(e), e);
    }
  }

  /** The profile's entries (a long record spans several on Windows, see split.ts). */
  private slots(signal: AbortSignal): Slots {
    return {
      get: (account) => this.entry(account).getPassword(signal),
      set: (account, text) => this.entry(account).setPassword(text, signal),
      delete: (account) => this.entry(account).deletePassword(signal),
    };
  }

  protected async call<T>(what: 'read' | 'save' | 'delete' | 'reach', op: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(
          new KeychainUnavailableError(
            t.noAnswer({ wait: this.timeoutMs >= 1000 ? `${Math.round(this.timeoutMs / 1000)} s` : `${this.timeoutMs} ms`, what: t[what] }),
          ),
        );
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([op(controller.signal), timeout]);
    } catch (e) {
      if (e instanceof MeterdataError) throw e;
      throw new KeychainUnavailableError(t.failed({ what: t[what], reason: reason(e) }), e);
    } finally {
      clearTimeout(timer);
    }
  }

  async read(profile: string): Promise<StoredRecord | null> {
    const text = await this.call('read', (s) => readSplit(this.slots(s), this.account(profile)));
    if (text === null) return null;
    const checked = parseRecord(text);
    if (!checked.ok) throw damagedRecord(t.keychainDamaged({ problem: checked.problem }), profile);
    return checked.value;
  }

  async write(profile: string, record: StoredRecord): Promise<void> {
    const max = this.platform === 'win32' ? WINDOWS_MAX_CHARS : Infinity;
    await this.call('save', (s) => writeSplit(this.slots(s), this.account(profile), JSON.stringify(record), max));
  }

  async remove(profile: string): Promise<boolean> {
    return this.call('delete', (s) => removeSplit(this.slots(s), this.account(profile)));
  }

  /** Login calls this before the browser opens, so a missing keychain is found before consent. */
  async probe(): Promise<void> {
    const entry = this.entry(this.account('probe'));
    await this.call('reach', (s) => entry.getPassword(s));
  }
}

function reason(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s+/g, ' ').slice(0, 200);
}
