// Pure diagnosis of a 404 and of a scope that shrank after a token refresh: from what the
// registry of seen ids knows and the service's Problem (and, for a known id, the /whoami
// answer read since), which error the user gets. No I/O here, so every case is a unit test.
import { AccessWithdrawnError } from '../core/errors.js';
import { notFound, unexpectedNotFound, type ApiProblemError } from './problems.js';
import type { Kind, Known } from './seen.js';
import type { WhoAmI } from './types.js';
import { kinds, t } from './texts.js';

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
  // no fragment ('': no Problem, or a gateway's about:blank) says no more than the status (round 26)
  if (!known) return e.problemCode === 'resource-not-found' || e.problemCode === '' ? notFound(e.endpoint, subject.kind, subject.id, e.problem) : e;
  return 'withdrawn';
}

const label = (id: string, name: string | null) => (name ? `"${name}" (${id})` : id);

/** The withdrawal, said as what the landlord changed: the owning Property left the selection, or the id itself is gone. */
export function withdrawnAccess(subject: Subject, known: Known, ownerName: string | null, who: WhoAmI, traceId: string | undefined): AccessWithdrawnError {
  const kindText = kinds[known.kind];
  const scope = who.property_scope === 'all' ? t.allProperties : t.selectedProperties({ n: who.property_scope.length });
  const owner = known.propertyId && known.propertyId !== subject.id ? { id: known.propertyId, name: ownerName } : null;
  const ownerLeft = owner !== null && who.property_scope !== 'all' && !who.property_scope.includes(owner.id);
  const details = { kind: known.kind, id: subject.id, name: known.name, propertyId: known.propertyId, propertyScope: who.property_scope, traceId };
  if (ownerLeft) {
    return new AccessWithdrawnError(t.ownerWithdrawn({ owner: label(owner.id, owner.name), scope, kind: kindText, item: label(subject.id, known.name) }), {
      hint: t.withdrawnHint,
      details,
    });
  }
  const of = owner ? t.ofProperty({ owner: label(owner.id, owner.name) }) : '';
  return new AccessWithdrawnError(t.itemWithdrawn({ kind: kindText, item: label(subject.id, known.name), of, scope }), { hint: t.withdrawnHint, details });
}

/** After a token refresh: the first Property seen earlier that the grant no longer lists, as withdrawn access. */
export function scopeLeft(seen: Iterable<[string, Known]>, who: WhoAmI): AccessWithdrawnError | null {
  if (who.property_scope === 'all') return null;
  const allowed = new Set(who.property_scope);
  for (const [pid, known] of seen) {
    if (known.kind !== 'property' || allowed.has(pid)) continue;
    return new AccessWithdrawnError(t.scopeLeft({ property: label(pid, known.name) }), {
      hint: t.withdrawnHint,
      details: { kind: 'property', id: pid, name: known.name, propertyScope: who.property_scope },
    });
  }
  return null;
}
