// Turning /v1 error answers (application/problem+json, RFC 7807) into the tool's typed
// errors. Branch on the fragment after `#` in `type`, never on title or detail text.
import { dpopRefusedHint } from '../core/clock-skew.js';
import { ExitCode, MeterdataError, NotSignedInError, type ErrorCode } from '../core/errors.js';
import { problemCode, type Problem } from './types.js';
import { kinds, t, type KindWord } from './texts.js';

/** An error answer of the API, with what support needs to find it (trace id). */
export class ApiProblemError extends MeterdataError {
  readonly status: number;
  /** The fragment of the Problem's `type`, e.g. `resource-not-found` ('' when the body was no Problem). */
  readonly problemCode: string;
  readonly detail: string | undefined;
  readonly traceId: string | undefined;
  /** Method and path without query, e.g. `GET /v1/usage-units/…/consumption`. */
  readonly endpoint: string;
  readonly problem: Problem | null;

  constructor(message: string, opts: { code: ErrorCode; exitCode: ExitCode; hint?: string; status: number; problem: Problem | null; endpoint: string }) {
    const traceId = opts.problem?.trace_id;
    super(message, {
      code: opts.code,
      exitCode: opts.exitCode,
      hint: opts.hint,
      details: { status: opts.status, endpoint: opts.endpoint, problem: opts.problem ? problemCode(opts.problem) : null, traceId },
    });
    this.status = opts.status;
    this.problemCode = opts.problem ? problemCode(opts.problem) : '';
    this.detail = opts.problem?.detail;
    this.traceId = traceId;
    this.endpoint = opts.endpoint;
    this.problem = opts.problem;
  }
}

/** The Problem in an error body, or null when the body is something else (a proxy's HTML page). */
export function parseProblem(text: string): Problem | null {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && typeof (v as Problem).type === 'string') return v as Problem;
  } catch {
    // not JSON: the caller falls back to the status code
  }
  return null;
}

/** One auth-param of a WWW-Authenticate header, e.g. error or scope. */
export function authParam(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const m = new RegExp(`(?:^|[\\s,])${name}="([^"]*)"`, 'i').exec(header) ?? new RegExp(`(?:^|[\\s,])${name}=([^\\s,]+)`, 'i').exec(header);
  return m?.[1];
}

/** An HTTP date (RFC 9110: IMF-fixdate, or the obsolete RFC 850 and asctime forms) opens with a day name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? [A-Za-z0-9: -]+$/;

/**
 * "Retry-After" in seconds or as an HTTP date, in ms; undefined when absent or unreadable
 * (the caller backs off instead). Date.parse alone would read "-1" or "1.5" as days in 2001,
 * a wait of 0: a retry at once into the limit.
 */
export function retryAfterMs(header: string | undefined, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  const s = header.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const at = HTTP_DATE.test(s) ? Date.parse(s) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

const traceNote = (p: Problem | null) => (p?.trace_id ? t.traceId({ id: p.trace_id }) : '');

/** 403: the sign-in lacks a scope; name it and how to get it. */
export function insufficientScope(endpoint: string, problem: Problem | null, wwwAuthenticate: string | undefined): ApiProblemError {
  const scope = authParam(wwwAuthenticate, 'scope');
  const needed = scope ? t.permission({ scope }) : t.somePermission;
  const all = new Set(['read:units', 'read:devices', 'read:readings', ...(scope ? scope.split(/\s+/) : [])]);
  return new ApiProblemError(t.insufficientScope({ needed, endpoint, trace: traceNote(problem) }), {
    code: 'AUTH_INSUFFICIENT_SCOPE',
    exitCode: ExitCode.NOT_SIGNED_IN,
    hint: t.insufficientScopeHint({ scopes: [...all].join(' ') }),
    status: 403,
    problem,
    endpoint,
  });
}

/**
 * 400: `userInput` says the request carried the user's dates or metrics, so it is their input to fix; `cursor`, that
 * it carried the service's own page cursor (passed on as given), which it may refuse when the cursor expired or the
 * list changed: not meterdata's bug (round 32 F4).
 */
export function invalidRequest(endpoint: string, problem: Problem | null, userInput: boolean, cursor = false): ApiProblemError {
  const detail = problem?.detail ? `: ${problem.detail}` : '';
  if (cursor && !userInput)
    return new ApiProblemError(t.cursorRefused({ endpoint, detail, trace: traceNote(problem) }), {
      code: 'API_CURSOR_REFUSED',
      exitCode: ExitCode.UNAVAILABLE,
      hint: t.cursorRefusedHint,
      status: 400,
      problem,
      endpoint,
    });
  return userInput
    ? new ApiProblemError(t.invalidRange({ detail, trace: traceNote(problem) }), {
        code: 'API_INVALID_RANGE',
        exitCode: ExitCode.USAGE,
        hint: t.invalidRangeHint,
        status: 400,
        problem,
        endpoint,
      })
    : new ApiProblemError(t.invalidRequest({ endpoint, detail, trace: traceNote(problem) }), {
        code: 'API_INVALID_REQUEST',
        exitCode: ExitCode.UNEXPECTED,
        hint: t.bugHint,
        status: 400,
        problem,
        endpoint,
      });
}

/** A status the contract does not list for this API. */
export function unexpectedStatus(endpoint: string, status: number, problem: Problem | null): ApiProblemError {
  // a title or detail that is no text (a gateway's body) is left out, never printed as "undefined"
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const parts = problem ? [text(problem.title), text(problem.detail)].filter((x): x is string => x !== null) : [];
  const what = parts.length > 0 ? parts.join(': ') : t.noProblemDetails;
  return new ApiProblemError(t.unexpectedStatus({ endpoint, status, what, trace: traceNote(problem) }), {
    code: 'API_UNEXPECTED_STATUS',
    exitCode: ExitCode.UNEXPECTED,
    hint: t.reportHint,
    status,
    problem,
    endpoint,
  });
}

/** 404 on an id this client never saw: the user typed or passed an id that is not there. */
export function notFound(endpoint: string, kind: KindWord, id: string, problem: Problem | null): ApiProblemError {
  return new ApiProblemError(t.notFound({ kind: kinds[kind], id, trace: traceNote(problem) }), {
    code: 'NOT_FOUND',
    exitCode: ExitCode.USAGE,
    hint: t.notFoundHint,
    status: 404,
    problem,
    endpoint,
  });
}

/**
 * 404 on an endpoint that names no id (/whoami, a list): not "no such resource whoami, check the id" (round 27), but an
 * API base URL that points elsewhere, or a proxy that does not pass the path on. Exit 5, as for a proxy's answer.
 */
export function endpointNotFound(e: ApiProblemError): ApiProblemError {
  return new ApiProblemError(t.noEndpoint({ endpoint: e.endpoint, trace: traceNote(e.problem) }), {
    code: 'API_UNEXPECTED_NOT_FOUND',
    exitCode: ExitCode.UNAVAILABLE,
    hint: t.noEndpointHint,
    status: 404,
    problem: e.problem,
    endpoint: e.endpoint,
  });
}

/**
 * A redirect (3xx): not followed, since the sign-in would go along to wherever it points (round 35a: told as "report
 * it", exit 1). Its likely cause is a wrong base URL (http where the service wants https, an API that moved), as for
 * a 404 on /whoami: exit 5 with the hint to check it. Only the target's origin is named, never a hostile path.
 */
export function redirected(endpoint: string, status: number, location: string | undefined, problem: Problem | null): ApiProblemError {
  let to = '';
  try {
    if (location) to = new URL(location).origin;
  } catch {
    // a relative or unreadable Location: the same server, or nothing worth naming
  }
  return new ApiProblemError(t.redirected({ endpoint, status, to: to === 'null' ? '' : to, trace: traceNote(problem) }), {
    code: 'API_REDIRECTED',
    exitCode: ExitCode.UNAVAILABLE,
    hint: t.noEndpointHint,
    status,
    problem,
    endpoint,
  });
}

/**
 * 404 on an id seen earlier in the run, but not the contract's resource-not-found: no proof
 * the access was withdrawn. No Problem body or one without a fragment (something between us and the service answered):
 * unavailable, exit 5; another fragment: an answer this version does not understand, exit 1.
 */
export function unexpectedNotFound(endpoint: string, problem: Problem | null): ApiProblemError {
  // a Problem without a fragment (a gateway's about:blank) tells no more than a proxy's page (round 26: exit 1 'type ""')
  const code = problem ? problemCode(problem) : '';
  const what = code ? t.otherProblemType({ code }) : t.noProblemBody;
  return new ApiProblemError(t.unexpectedNotFound({ endpoint, what, trace: traceNote(problem) }), {
    code: 'API_UNEXPECTED_NOT_FOUND',
    exitCode: code ? ExitCode.UNEXPECTED : ExitCode.UNAVAILABLE,
    hint: code ? t.reportHint : t.networkHint,
    status: 404,
    problem,
    endpoint,
  });
}

/**
 * A second 401 after one refresh (or one fresh DPoP proof): the connection is gone, unless a refused proof may be
 * this clock's fault (`date`, the answer's Date header, missing: round 27).
 */
export function rejectedSignIn(endpoint: string, problem: Problem | null, dpop: boolean, date: string | null = null): NotSignedInError {
  return dpop
    ? new NotSignedInError(t.dpopRejected({ endpoint, trace: traceNote(problem) }), {
        code: 'AUTH_DPOP_REJECTED',
        hint: dpopRefusedHint(date, 'meterdata login'),
      })
    : new NotSignedInError(t.signInRejected({ trace: traceNote(problem) }), { code: 'AUTH_REJECTED', hint: t.signInRejectedHint });
}
