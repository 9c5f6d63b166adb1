// A 404 whose Problem has no type fragment (RFC 9457's about:blank, as a gateway sends) proves no more than a proxy's
// page without a Problem: on an id seen earlier it is no withdrawn access and, like the proxy's page, "the service
// may be unavailable" (exit 5); on an id never seen it is "no such unit". Round 26 made such a 401 and 403 follow
// their status; this 404 still said "the problem type "" instead of resource-not-found … report it" (exit 1).
import { describe, expect, it } from 'vitest';
import { readNotFound } from '../../src/api/not-found.js';
import { notFound } from '../../src/api/problems.js';
import type { Problem } from '../../src/api/types.js';

const UNIT = '7f1c2a64-1b9e-4c0f-9a55-3e2f1d0c9b88';
const answer = (problem: Problem | null) => notFound(`GET /v1/units/${UNIT}`, 'resource', UNIT, problem);
const blank = { type: 'about:blank', title: 'Not Found', status: 404 } as unknown as Problem;
const seen = { kind: 'unit' as const, name: 'WE 01', propertyId: null };

describe('a 404 whose Problem has no type fragment', () => {
  it('on an id seen earlier: API_UNEXPECTED_NOT_FOUND exit 5, as without a Problem, not exit 1 "report it"', () => {
    for (const problem of [blank, null]) {
      const e = readNotFound({ kind: 'unit', id: UNIT }, seen, answer(problem)) as unknown as { code: string; exitCode: number; message: string };
      expect([e.code, e.exitCode, problem?.type]).toEqual(['API_UNEXPECTED_NOT_FOUND', 5, problem?.type]);
      expect(e.message).not.toMatch(/problem type ""/);
    }
  });

  it('on an id never seen: "no such unit", as without a Problem', () => {
    const e = readNotFound({ kind: 'unit', id: UNIT }, undefined, answer(blank)) as unknown as { code: string; message: string };
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toMatch(/unit/i);
  });

  it('another fragment on a seen id stays exit 1 (an answer this version does not understand)', () => {
    const other = { type: 'https://errors.example/#gone-fishing', title: 'x', status: 404 } as unknown as Problem;
    const e = readNotFound({ kind: 'unit', id: UNIT }, seen, answer(other)) as unknown as { code: string; exitCode: number };
    expect([e.code, e.exitCode]).toEqual(['API_UNEXPECTED_NOT_FOUND', 1]);
  });
});
