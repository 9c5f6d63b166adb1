// The pure diagnosis of a 404 (spec "Property scope" rule 4): from the registry's facts, the
// service's Problem and the /whoami read since, which error the user gets. No server here.
import { describe, expect, it } from 'vitest';
import { AccessWithdrawnError } from '../../src/core/errors.js';
import { readNotFound, scopeLeft, withdrawnAccess, type Subject } from '../../src/api/not-found.js';
import { ApiProblemError, notFound } from '../../src/api/problems.js';
import { SeenIds, type Known } from '../../src/api/seen.js';
import type { Problem, WhoAmI } from '../../src/api/types.js';
import { aPlantPoint, aUnit, uuid } from '../helpers/builders.js';

const ENDPOINT = 'GET /v1/usage-units/x';
const aProblem = (code: string, trace = 'trace-1'): Problem => ({
  type: `https://api.example.test/problems#${code}`,
  title: code,
  status: 404,
  trace_id: trace,
});
/** A 404 as the transport throws it, before the client diagnoses it. */
const a404 = (problem: Problem | null) => notFound(ENDPOINT, 'resource', 'x', problem);
const aWhoAmI = (scope: WhoAmI['property_scope']): WhoAmI => ({
  tenant_id: uuid(),
  tenant_name: 'Hausverwaltung',
  client_id: 'meterdata',
  granted_scopes: ['read:units'],
  property_scope: scope,
});

describe('readNotFound', () => {
  const unit: Subject = { kind: 'unit', id: uuid(0x401) };
  const known: Known = { kind: 'unit', name: 'WE 01', propertyId: uuid(0x402) };

  it('reads resource-not-found on an id never seen as a plain not-found naming the kind and id (exit 2)', () => {
    const e = readNotFound({ kind: 'point', id: unit.id }, undefined, a404(aProblem('resource-not-found')));
    expect(e).toBeInstanceOf(ApiProblemError);
    expect((e as ApiProblemError).code).toBe('NOT_FOUND');
    expect((e as Error).message).toBe(`No such measuring point ${unit.id} in the landlord's selection (trace id trace-1).`);
  });

  it('reads a bare 404 (no Problem) on an id never seen as not-found too', () => {
    const e = readNotFound(unit, undefined, a404(null)) as ApiProblemError;
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toBe(`No such unit ${unit.id} in the landlord's selection.`);
  });

  it('passes another Problem fragment on an unseen id through unchanged', () => {
    const original = a404(aProblem('something-else'));
    expect(readNotFound(unit, undefined, original)).toBe(original);
  });

  it('never calls a proxy 404 or another fragment on a known id withdrawn access', () => {
    for (const problem of [null, aProblem('something-else')]) {
      const e = readNotFound(unit, known, a404(problem)) as ApiProblemError;
      expect(e).not.toBeInstanceOf(AccessWithdrawnError);
      expect(e.code).toBe('API_UNEXPECTED_NOT_FOUND');
    }
  });

  it('asks for the /whoami re-check only on resource-not-found for a known id', () => {
    expect(readNotFound(unit, known, a404(aProblem('resource-not-found')))).toBe('withdrawn');
  });
});

describe('withdrawnAccess', () => {
  const pid = uuid(0x501);
  const uid = uuid(0x502);
  const known: Known = { kind: 'unit', name: 'WE 01', propertyId: pid };

  it('names the Property that left the selection, then the unit that showed it', () => {
    const e = withdrawnAccess({ kind: 'unit', id: uid }, known, 'Lindenstraße 12', aWhoAmI([uuid(0x503)]), 'trace-9');
    expect(e).toBeInstanceOf(AccessWithdrawnError);
    expect(e.exitCode).toBe(4);
    expect(e.message).toBe(
      `Access to property "Lindenstraße 12" (${pid}) was withdrawn: the landlord's selection for this connection no longer includes it (it now covers 1 selected property); its unit "WE 01" (${uid}) answered "not found".`,
    );
    expect(e.details).toMatchObject({ kind: 'unit', id: uid, propertyId: pid, propertyScope: [uuid(0x503)], traceId: 'trace-9' });
  });

  it('names the id itself when its Property is still covered', () => {
    const e = withdrawnAccess({ kind: 'unit', id: uid }, known, null, aWhoAmI('all'), undefined);
    expect(e.message).toBe(
      `Access to unit "WE 01" (${uid}) of property ${pid} was withdrawn: the service listed it earlier in this run and now answers "not found" (the connection now covers all properties).`,
    );
  });

  it('says "measuring point" and counts the selection for a point without a name', () => {
    const point: Known = { kind: 'point', name: null, propertyId: pid };
    const e = withdrawnAccess({ kind: 'point', id: uid }, point, null, aWhoAmI([pid, uuid(0x504)]), undefined);
    expect(e.message).toBe(
      `Access to measuring point ${uid} of property ${pid} was withdrawn: the service listed it earlier in this run and now answers "not found" (the connection now covers 2 selected properties).`,
    );
  });
});

describe('scopeLeft', () => {
  it('finds the first Property seen earlier that the refreshed grant no longer lists', () => {
    const seen = new SeenIds();
    const kept = uuid(0x601);
    const left = uuid(0x602);
    seen.remember('property', kept, 'Kept');
    seen.remember('property', left, 'Gone');
    const e = scopeLeft(seen.entries(), aWhoAmI([kept]));
    expect(e?.message).toBe(`Access to property "Gone" (${left}) was withdrawn: after the sign-in was refreshed, the connection no longer covers it.`);
    expect(scopeLeft(seen.entries(), aWhoAmI('all'))).toBeNull();
    expect(scopeLeft(seen.entries(), aWhoAmI([kept, left]))).toBeNull();
  });
});

describe('SeenIds', () => {
  it("keeps the first name and Property heard, and forgets a done Property's units and points but not the Property", () => {
    const seen = new SeenIds();
    const unit = aUnit();
    seen.rememberUnit(unit);
    seen.remember('unit', unit.id); // a thinner answer later
    expect(seen.get(unit.id)).toEqual({ kind: 'unit', name: unit.name, propertyId: unit.property_id });
    const { point } = aPlantPoint({ point: { property_id: unit.property_id, usage_unit_id: unit.id } });
    seen.rememberPoint(point);
    expect(seen.get(point.id!)?.kind).toBe('point');
    seen.forgetProperty(unit.property_id);
    expect(seen.get(unit.id)).toBeUndefined();
    expect(seen.get(point.id!)).toBeUndefined();
    expect(seen.get(unit.property_id)?.kind).toBe('property');
  });
});
