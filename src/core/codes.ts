// Every error code meterdata gives, once, with the exit status(es) it ends a run with.
// Scripts match on these codes (`status --json`, portfolio-summary.csv), so a code is
// never renamed; `MeterdataError.code` is typed as this table's keys, so a code missing
// here is a compile error, and nothing needs to classify errors by matching their text.
// One line per code, grouped by area: a new code is one added line.

/** Exit statuses, documented in the README and `meterdata --help`. */
export const ExitCode = {
  OK: 0,
  /** Unexpected failure (a bug, or something the tool cannot classify). */
  UNEXPECTED: 1,
  /** Bad flags, dates, files or arguments. */
  USAGE: 2,
  /** Not signed in, or the connection was revoked / expired / ended. */
  NOT_SIGNED_IN: 3,
  /** The landlord withdrew access to data (property scope changed). */
  ACCESS_WITHDRAWN: 4,
  /** The service is unavailable or rate-limited after retries. */
  UNAVAILABLE: 5,
  /** `export --strict`: the files were written, but values were not billed or need review. */
  NEEDS_REVIEW: 6,
  /** Stopped by Ctrl-C or SIGTERM; a re-run with the same arguments continues (128 + SIGINT, the shell convention). */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const { UNEXPECTED: BUG, USAGE, NOT_SIGNED_IN: SIGNED_OUT, ACCESS_WITHDRAWN: WITHDRAWN, UNAVAILABLE, NEEDS_REVIEW, INTERRUPTED } = ExitCode;

export type CodeArea = 'cli' | 'core' | 'auth' | 'api' | 'export' | 'uvi' | 'sandbox';

interface CodeEntry {
  /** The exit status(es) a run ends with when this error stops it. */
  readonly exit: readonly ExitCode[];
  readonly area: CodeArea;
  /** The service or sign-in server asked to slow down: waiting helps (browse offers a retry). */
  readonly rateLimit?: true;
}

export const ERROR_CODES = {
  // Whatever a command is doing
  UNEXPECTED: { exit: [BUG], area: 'core' },
  UNKNOWN: { exit: [BUG], area: 'core' },
  USAGE: { exit: [USAGE], area: 'cli' },
  INTERRUPTED: { exit: [INTERRUPTED], area: 'core' },
  SERVICE_UNAVAILABLE: { exit: [UNAVAILABLE], area: 'core' },
  ACCESS_WITHDRAWN: { exit: [WITHDRAWN], area: 'core' },
  FILE_IN_USE: { exit: [UNAVAILABLE], area: 'core' },
  DISK_WRITE_FAILED: { exit: [BUG], area: 'core' },
  CONFIG_INVALID: { exit: [USAGE], area: 'core' },
  CONFIG_LOCKED: { exit: [UNAVAILABLE], area: 'core' },
  CONFIG_FULL: { exit: [USAGE], area: 'core' },
  HOME_ON_KERNEL_FS: { exit: [USAGE], area: 'core' },
  CONFIG_PROFILE_INVALID: { exit: [USAGE], area: 'core' },
  PROFILE_NAME_INVALID: { exit: [USAGE], area: 'core' },
  // Flags, as commander and the entry point see them
  USAGE_EMPTY_VALUE: { exit: [USAGE], area: 'cli' },
  USAGE_BAD_DATE: { exit: [USAGE], area: 'cli' },
  USAGE_NO_PERIOD: { exit: [USAGE], area: 'cli' },
  USAGE_UNKNOWN_OPTION: { exit: [USAGE], area: 'cli' },
  OUTPUT_WRITE_FAILED: { exit: [BUG], area: 'cli' },
  WORKING_FOLDER_GONE: { exit: [USAGE], area: 'cli' },
  HOME_UNKNOWN: { exit: [USAGE], area: 'cli' },
  USAGE_UNKNOWN_COMMAND: { exit: [USAGE], area: 'cli' },
  USAGE_MISSING_ARGUMENT: { exit: [USAGE], area: 'cli' },
  USAGE_OPTION_MISSING_ARGUMENT: { exit: [USAGE], area: 'cli' },
  USAGE_MISSING_MANDATORY_OPTION_VALUE: { exit: [USAGE], area: 'cli' },
  USAGE_CONFLICTING_OPTION: { exit: [USAGE], area: 'cli' },
  USAGE_INVALID_ARGUMENT: { exit: [USAGE], area: 'cli' },
  USAGE_EXCESS_ARGUMENTS: { exit: [USAGE], area: 'cli' },
  USAGE_NOT_A_TERMINAL: { exit: [USAGE], area: 'cli' },
  USAGE_URL: { exit: [USAGE], area: 'cli' },
  USAGE_INSECURE_URL: { exit: [USAGE], area: 'cli' },
  USAGE_NO_BASE_URL: { exit: [USAGE], area: 'cli' },
  USAGE_NO_SERVER: { exit: [USAGE], area: 'auth' },
  USAGE_NO_CLIENT_ID: { exit: [USAGE], area: 'auth' },
  USAGE_PRESET_MISSING: { exit: [USAGE], area: 'auth' },
  USAGE_SCOPE: { exit: [USAGE], area: 'auth' },
  USAGE_CREDENTIAL_STORE: { exit: [USAGE], area: 'auth' },
  USAGE_STATIC_TOKEN_PORTFOLIO: { exit: [USAGE], area: 'export' },
  // Sign-in, the stored sign-in, refresh
  AUTH_NOT_SIGNED_IN: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_CONNECTION_ENDED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_OTHER_TENANT: { exit: [WITHDRAWN], area: 'auth' },
  AUTH_LOGIN_INCOMPLETE: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_CODE_REFUSED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_ACCESS_DENIED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_REDIRECT_ERROR: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_ISSUER_MISMATCH: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_STATE_MISMATCH: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_NO_CODE: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_LOGIN_TIMEOUT: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_LOGIN_INTERRUPTED: { exit: [INTERRUPTED], area: 'auth' },
  AUTH_INVALID_SCOPE: { exit: [USAGE], area: 'auth' },
  AUTH_INVALID_TARGET: { exit: [USAGE], area: 'auth' },
  AUTH_SERVER_ERROR: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_NO_LOOPBACK_PORT: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_DISCOVERY_FAILED: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_ENDPOINT_UNSAFE: { exit: [USAGE], area: 'auth' },
  AUTH_SERVER_UNSUPPORTED: { exit: [USAGE], area: 'auth' },
  AUTH_NO_CLIENT_SECRET: { exit: [USAGE], area: 'auth' },
  AUTH_NO_PRIVATE_KEY: { exit: [USAGE], area: 'auth' },
  AUTH_PRIVATE_KEY_UNREADABLE: { exit: [USAGE], area: 'auth' },
  AUTH_PRIVATE_KEY_INVALID: { exit: [USAGE], area: 'auth' },
  AUTH_CLIENT_REFUSED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_DPOP_REQUIRED: { exit: [USAGE], area: 'auth' },
  AUTH_TOKEN_REFUSED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_NO_REFRESH_TOKEN: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_SERVER_UNAVAILABLE: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_SERVER_UNREACHABLE: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_BAD_SERVER_ANSWER: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_RATE_LIMITED: { exit: [UNAVAILABLE], area: 'auth', rateLimit: true },
  AUTH_ANSWER_LOST: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_REFRESH_IN_FLIGHT: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_REFRESH_UNCERTAIN: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_REFRESH_SPENT: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_SPENT_LIST_DAMAGED: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_LOCK_TIMEOUT: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_LOCK_LOST: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_TOKENS_REJECTED: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_TOKEN_UNCHECKED: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_NEW_TOKEN_REFUSED: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_KEYCHAIN_UNAVAILABLE: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_STORE_DAMAGED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_STORE_WRITE_FAILED: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_TOKENS_NOT_SAVED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_STATIC_TOKEN_REJECTED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_REJECTED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_DPOP_REJECTED: { exit: [SIGNED_OUT], area: 'auth' },
  AUTH_CLOCK_SKEW: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_REFRESH_TOO_OFTEN: { exit: [UNAVAILABLE], area: 'auth' },
  AUTH_INSUFFICIENT_SCOPE: { exit: [SIGNED_OUT], area: 'auth' },
  // The API's answers
  NOT_FOUND: { exit: [USAGE], area: 'api' },
  RATE_LIMITED: { exit: [UNAVAILABLE], area: 'api', rateLimit: true },
  RATE_LIMIT_BUDGET_SPENT: { exit: [UNAVAILABLE], area: 'api', rateLimit: true },
  RATE_LIMITED_TOO_LONG: { exit: [UNAVAILABLE], area: 'api', rateLimit: true },
  API_ANSWER_TOO_LARGE: { exit: [UNAVAILABLE], area: 'api' },
  API_BAD_ANSWER: { exit: [UNAVAILABLE], area: 'api' },
  API_BAD_ID: { exit: [UNAVAILABLE], area: 'api' },
  API_WRONG_OBJECT: { exit: [UNAVAILABLE], area: 'api' },
  API_WRONG_RANGE: { exit: [UNAVAILABLE], area: 'api' },
  API_CURSOR_LOOP: { exit: [UNAVAILABLE], area: 'api' },
  API_EMPTY_PAGE: { exit: [UNAVAILABLE], area: 'api' },
  API_PAGE_REPEATS: { exit: [UNAVAILABLE], area: 'api' },
  API_TOO_MANY_PAGES: { exit: [UNAVAILABLE], area: 'api' },
  API_INVALID_RANGE: { exit: [USAGE], area: 'api' },
  API_INVALID_REQUEST: { exit: [BUG], area: 'api' },
  API_CURSOR_REFUSED: { exit: [UNAVAILABLE], area: 'api' },
  API_UNEXPECTED_STATUS: { exit: [BUG], area: 'api' },
  API_UNEXPECTED_NOT_FOUND: { exit: [BUG, UNAVAILABLE], area: 'api' },
  API_REDIRECTED: { exit: [UNAVAILABLE], area: 'api' },
  // Export
  EXPORT_ALREADY_RUNNING: { exit: [USAGE], area: 'export' },
  EXPORT_OUT_BUSY: { exit: [USAGE], area: 'export' },
  EXPORT_OUT_TAKEN_OVER: { exit: [USAGE], area: 'export' },
  EXPORT_OUT_IN_USE: { exit: [USAGE], area: 'export' },
  EXPORT_OUT_NOT_A_FOLDER: { exit: [USAGE], area: 'export' },
  EXPORT_OUT_NOT_WRITABLE: { exit: [USAGE], area: 'export' },
  EXPORT_TEMPLATE_INVALID: { exit: [USAGE], area: 'export' },
  EXPORT_UNIT_REFS_INVALID: { exit: [USAGE], area: 'export' },
  EXPORT_HEAP_INVALID: { exit: [USAGE], area: 'export' },
  EXPORT_HELD_INVALID: { exit: [USAGE], area: 'export' },
  EXPORT_COMPARE_INVALID: { exit: [USAGE], area: 'export' },
  EXPORT_COMPARE_MISMATCH: { exit: [USAGE], area: 'export' },
  EXPORT_COMPARE_OTHER_TENANT: { exit: [USAGE], area: 'export' },
  EXPORT_PERIOD_CHANGED: { exit: [UNAVAILABLE], area: 'export' },
  EXPORT_OUT_OF_MEMORY: { exit: [BUG], area: 'export' },
  EXPORT_SCRATCH_DAMAGED: { exit: [BUG], area: 'export' },
  EXPORT_WRITE_FAILED: { exit: [BUG], area: 'export' },
  EXPORT_INTERRUPTED: { exit: [INTERRUPTED], area: 'export' },
  EXPORT_FLAGS_STRICT: { exit: [NEEDS_REVIEW], area: 'export' },
  // The monthly consumption information's inputs (src/uvi/inputs)
  UVI_MONTH_INVALID: { exit: [USAGE], area: 'uvi' },
  UVI_WW_TEMPERATURE_INVALID: { exit: [USAGE], area: 'uvi' },
  UVI_BENCHMARK_INVALID: { exit: [USAGE], area: 'uvi' },
  UVI_PLANT_METERS_INVALID: { exit: [USAGE], area: 'uvi' },
  // The local sandbox
  SANDBOX_PORT_IN_USE: { exit: [USAGE], area: 'sandbox' },
  SANDBOX_CLIENTS_INVALID: { exit: [USAGE], area: 'sandbox' },
  SANDBOX_TENANT_UNKNOWN: { exit: [USAGE], area: 'sandbox' },
} as const satisfies Record<string, CodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(v: unknown): v is ErrorCode {
  return typeof v === 'string' && Object.hasOwn(ERROR_CODES, v);
}

/** Waiting helps: the service or the sign-in server asked to slow down. */
export function isRateLimit(code: ErrorCode): boolean {
  return (ERROR_CODES[code] as CodeEntry | undefined)?.rateLimit === true;
}

// commander's error codes for a bad command line, as meterdata's usage codes.
const COMMANDER: Readonly<Record<string, ErrorCode>> = {
  'commander.unknownOption': 'USAGE_UNKNOWN_OPTION',
  'commander.unknownCommand': 'USAGE_UNKNOWN_COMMAND',
  'commander.missingArgument': 'USAGE_MISSING_ARGUMENT',
  'commander.optionMissingArgument': 'USAGE_OPTION_MISSING_ARGUMENT',
  'commander.missingMandatoryOptionValue': 'USAGE_MISSING_MANDATORY_OPTION_VALUE',
  'commander.conflictingOption': 'USAGE_CONFLICTING_OPTION',
  'commander.invalidArgument': 'USAGE_INVALID_ARGUMENT',
  'commander.excessArguments': 'USAGE_EXCESS_ARGUMENTS',
};

/** The usage code for one of commander's errors; `USAGE` for one it may add later. */
export function commanderUsageCode(commanderCode: string): ErrorCode {
  return COMMANDER[commanderCode] ?? 'USAGE';
}
