// A Problem body without a type fragment (RFC 9457's "about:blank", as gateways send) says nothing the client can
// branch on, so its status decides: a 401 refreshes, a 403 is the scope's, as for a body that is no Problem. Before
// round 26 it was "unexpected" (exit 1, "report it"), and a Problem without a title printed "(undefined)".
import { describe, expect, it } from 'vitest';
import { actionFor } from '../../src/api/classify.js';
import { unexpectedStatus } from '../../src/api/problems.js';
import type { Problem } from '../../src/api/types.js';

describe('a Problem without a type fragment', () => {
  it.each([
    [401, 'refresh'],
    [403, 'scope'],
    [404, 'not-found'],
    [429, 'pause'],
    [503, 'backoff'],
    [418, 'unexpected'],
  ] as const)('HTTP %i: %s, as its status says', (status, action) => {
    expect(actionFor(status, '')).toBe(action);
    expect(actionFor(status, null)).toBe(action);
  });

  it('an unknown fragment stays unexpected (the contract branches on fragments), except on a 5xx', () => {
    expect(actionFor(401, 'some-new-thing')).toBe('unexpected');
    expect(actionFor(503, 'some-new-thing')).toBe('backoff');
  });
});

describe('the text of an unexpected answer', () => {
  it('a title or detail that is missing or no text is left out, never "undefined"', () => {
    const of = (p: Record<string, unknown>) => unexpectedStatus('GET /v1/x', 418, p as unknown as Problem).message;
    expect(of({ type: 'https://errors.example/x', status: 418 })).not.toMatch(/undefined/);
    expect(of({ type: 'https://errors.example/x', status: 418, title: 5, detail: null })).not.toMatch(/undefined|null|\b5\b/);
    expect(of({ type: 'https://errors.example/x', title: 'Teapot', detail: 'short and stout' })).toContain('Teapot: short and stout');
  });
});
