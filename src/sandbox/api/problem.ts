// Answers of the /v1 routes: JSON bodies and RFC 7807 problems, always with Content-Length
// (fault injection cuts bodies against the declared length).
import type { IncomingMessage } from 'node:http';

/** The developer portal the problem `type` URIs point into; clients branch on the fragment. */
export const DEVELOPER_URL = 'https://developer.example';

const TITLES: Record<string, string> = {
  'invalid-request': 'Invalid request',
  'invalid-token': 'Invalid or expired access token',
  'insufficient-scope': 'Insufficient scope',
  'resource-not-found': 'Resource not found',
  'method-not-allowed': 'Method not allowed',
  'too-many-requests': 'Too many requests',
  'internal-error': 'Internal server error',
  'service-unavailable': 'Service unavailable',
};

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Parsed body; serialised once when sent. */
  body: unknown;
  /** Connection's sid for the request log, once known. */
  sid?: string;
}

export function json(body: unknown, status = 200): Answer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
}

export function problem(req: IncomingMessage, traceId: string, status: number, code: string, detail?: string, headers: Record<string, string> = {}): Answer {
  const body: Record<string, unknown> = { type: `${DEVELOPER_URL}/errors/#${code}`, title: TITLES[code] ?? code, status };
  // 500 and 503 carry no detail (the contract says so: nothing to act on but a retry).
  if (detail !== undefined && status !== 500 && status !== 503) body.detail = detail;
  body.instance = (req.url ?? '/').split('?')[0];
  body.trace_id = traceId;
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body };
}

/** Thrown by route code for a 400/404 answer; turned into a problem by the handler. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new ApiProblem(400, 'invalid-request', detail);
export const notFound = (what = 'The requested resource') =>
  new ApiProblem(404, 'resource-not-found', `${what} does not exist or is outside the Properties this connection may read.`);
