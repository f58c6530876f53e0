/**
 * Logical names made from objects' names (docs/manifest.md, "Addresses"): accents dropped, lower
 * case, ASCII letters and digits kept and everything else one underscore, so that every address
 * is a plain identifier (a name in another script falls back to the kind and the id). Unique within a collection and
 * stable when generated again: objects of one slug are told apart in the order of their ids, the
 * first keeping the slug and the others `_2`, `_3`, ..., each with a note naming the name it
 * shares.
 */

/** The slug of `name`: `Summer Sale 2026!` → `summer_sale_2026`; `fallback` when nothing is left. */
export function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (slug === '') return fallback;
  return /^[0-9]/.test(slug) ? `_${slug}` : slug;
}

/** A logical name given to an object, and when it is not its plain slug, why. */
interface GivenKey {
  key: string;
  /** Set when another object of the collection has the same slug: the key that one has. */
  collidesWith?: string;
}

/**
 * Unique keys for `objects` of one collection (by id), from their names (`fallback` for the
 * nameless); the objects `fixed` names keep the key it gives them (a manifest that already binds
 * them: `generate --merge`), and no other object is given one of those.
 */
export function uniqueKeys(objects: ReadonlyArray<{ id: string; name: string | undefined }>, fallback: (id: string) => string, fixed: ReadonlyMap<string, string> = new Map()): Map<string, GivenKey> {
  const byId = [...objects].sort((a, b) => (a.id.length - b.id.length) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const taken = new Set<string>();
  const out = new Map<string, GivenKey>();
  for (const o of byId) {
    const key = fixed.get(o.id);
    if (key === undefined) continue;
    taken.add(key);
    out.set(o.id, { key });
  }
  const wanted = new Map(byId.map((o) => [o.id, slugOf(o.name ?? '', fallback(o.id))]));
  // plain slugs first, so that a name that ends in _2 keeps its own key
  const firstOf = new Map<string, string>();
  for (const o of byId) {
    const slug = wanted.get(o.id) ?? '';
    if (out.has(o.id) || firstOf.has(slug) || taken.has(slug)) continue;
    firstOf.set(slug, o.id);
    taken.add(slug);
    out.set(o.id, { key: slug });
  }
  for (const o of byId) {
    if (out.has(o.id)) continue;
    const slug = wanted.get(o.id) ?? '';
    let n = 2;
    while (taken.has(`${slug}_${n}`)) n += 1;
    taken.add(`${slug}_${n}`);
    out.set(o.id, { key: `${slug}_${n}`, collidesWith: slug });
  }
  return out;
}
