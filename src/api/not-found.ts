// Pure diagnosis of a 404 and of a scope that shrank after a token refresh: from what the
// registry of seen ids knows and the service's Problem (and, for a known id, the /whoami
// answer read since), which error the user gets. No I/O here, so every case is a unit test.
import { AccessWithdrawnError } from '../core/errors.js';
import { notFound, unexpectedNotFound, type ApiProblemError } from './problems.js';
import type { Kind, Known } from './seen.js';
import type { WhoAmI } from './types.js';

export const WITHDRAWN_HINT =
  'The landlord changed which properties this connection may read. Ask them to include it again (they reconnect the application in the portal), then run the command again.';

/** The id a request is about, for telling "withdrawn" from "never existed" on a 404. */
export interface Subject {
  kind: Kind;
  id: string;
}

/**
 * The first step: a final error, or 'withdrawn' when the 404 is the contract's
 * resource-not-found on an id seen earlier (rule 4), which the caller confirms with /whoami.
 */
export function readNotFound(subject: Subject, known: Known | undefined, e: ApiProblemError): Error | 'withdrawn' {
  // Only the contract's resource-not-found says "gone": a proxy's HTML 404 or another fragment does not.
  if (known && e.problemCode !== 'resource-not-found') return unexpectedNotFound(e.endpoint, e.problem);
  if (!known) return e.problemCode === 'resource-not-found' || e.problem === null ? notFound(e.endpoint, subject.kind === 'point' ? 'measuring point' : subject.kind, subject.id, e.problem) : e;
  return 'withdrawn';
}

const label = (id: string, name: string | null) => (name ? `"${name}" (${id})` : id);

/** The withdrawal, said as what the landlord changed: the owning Property left the selection, or the id itself is gone. */
export function withdrawnAccess(subject: Subject, known: Known, ownerName: string | null, who: WhoAmI, traceId: string | undefined): AccessWithdrawnError {
  const kindText = known.kind === 'point' ? 'measuring point' : known.kind;
  const n = who.property_scope === 'all' ? 0 : who.property_scope.length;
  const scope = who.property_scope === 'all' ? 'all properties' : `${n} selected ${n === 1 ? 'property' : 'properties'}`;
  const owner = known.propertyId && known.propertyId !== subject.id ? { id: known.propertyId, name: ownerName } : null;
  const ownerLeft = owner !== null && who.property_scope !== 'all' && !who.property_scope.includes(owner.id);
  const details = { kind: known.kind, id: subject.id, name: known.name, propertyId: known.propertyId, propertyScope: who.property_scope, traceId };
  if (ownerLeft) {
    return new AccessWithdrawnError(
      `Access to property ${label(owner.id, owner.name)} was withdrawn: the landlord's selection for this connection no longer includes it (it now covers ${scope}); its ${kindText} ${label(subject.id, known.name)} answered "not found".`,
      { hint: WITHDRAWN_HINT, details },
    );
  }
  const of = owner ? ` of property ${label(owner.id, owner.name)}` : '';
  return new AccessWithdrawnError(
    `Access to ${kindText} ${label(subject.id, known.name)}${of} was withdrawn: the service listed it earlier in this run and now answers "not found" (the connection now covers ${scope}).`,
    { hint: WITHDRAWN_HINT, details },
  );
}

/** After a token refresh: the first Property seen earlier that the grant no longer lists, as withdrawn access. */
export function scopeLeft(seen: Iterable<[string, Known]>, who: WhoAmI): AccessWithdrawnError | null {
  if (who.property_scope === 'all') return null;
  const allowed = new Set(who.property_scope);
  for (const [pid, known] of seen) {
    if (known.kind !== 'property' || allowed.has(pid)) continue;
    return new AccessWithdrawnError(
      `Access to property ${label(pid, known.name)} was withdrawn: after the sign-in was refreshed, the connection no longer covers it.`,
      { hint: WITHDRAWN_HINT, details: { kind: 'property', id: pid, name: known.name, propertyScope: who.property_scope } },
    );
  }
  return null;
}
