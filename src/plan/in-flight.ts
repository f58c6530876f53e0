/**
 * The creates an interrupted apply sent without hearing the answer (its journal's open entries),
 * as the plan counts them: a plan writes nothing, so they are still unbound, and the diff plans
 * them again; the next apply first finds them on the service and binds them. Where the live
 * account already shows such an object (a record no change binds, with the identity the create was
 * sent with: the kind's `find`), the plan's create of that address needs no room of its own in an
 * account limit — the object is already counted there — so a plan right after a kill is not
 * refused for a limit the apply will not reach.
 */
import type { ResourceChange } from '../diff/types.js';
import { matchesCreate } from '../kinds/find-match.js';
import { isResourceKind, KINDS } from '../kinds/registry.js';
import type { LiveAccount } from '../live/types.js';

/** One create of an interrupted apply: its address, kind and the parameters sent. */
export interface InFlightCreate {
  address: string;
  kind: string;
  params: Readonly<Record<string, unknown>>;
}

/** The addresses whose in-flight create the live account shows (each live record matched once). */
export function landedCreates(inFlight: readonly InFlightCreate[], live: LiveAccount, changes: readonly ResourceChange[]): Set<string> {
  const landed = new Set<string>();
  if (inFlight.length === 0) return landed;
  const bound = new Set(changes.flatMap((c) => (c.id === undefined ? [] : [`${c.kind}\u0000${c.id}`])));
  const taken = new Set<string>();
  for (const create of inFlight) {
    if (!isResourceKind(create.kind)) continue;
    const find = KINDS[create.kind].find;
    if (find === undefined) continue;
    for (const record of live.resources.get(create.kind)?.values() ?? []) {
      const key = `${create.kind}\u0000${record.id}`;
      if (bound.has(key) || taken.has(key) || !matchesCreate(find, record.record, create.params)) continue;
      taken.add(key);
      landed.add(create.address);
      break;
    }
  }
  return landed;
}
