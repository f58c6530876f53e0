/**
 * How `adsctl generate` writes a kind back into a manifest (src/generate/, the manifest stage run
 * backwards): a descriptor's `generate`. The stage walks the registry as the manifest stage reads
 * it and writes each kind the way its address shape says (a map of logical names, a `single`
 * entry, a list keyed by identity, a map of `<key>: <value>` entries, the feature list); what
 * varies by kind beyond that — where its logical names come from, the fields it writes itself,
 * the fields and records it never writes and why — is said here.
 */
/** Logical names by top-level collection and live id: what a reference is written as. */
export type NamesById = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** A map entry as generate writes it, with a comment before it. */
export interface WrittenEntry {
  key: string;
  value: WrittenNode;
  comment?: string;
}

/**
 * What a value is written as: a scalar (a list of scalars on one line), a block map of entries, a
 * list of items (one-line maps or scalars), or a one-line map.
 */
export type WrittenNode = { scalar: unknown } | { map: WrittenEntry[] } | { list: WrittenNode[] } | { flow: Array<[string, unknown]> };

type LiveRecord = Readonly<Record<string, unknown>>;

/**
 * Records of the kind a manifest cannot hold, said in the file and as a warning, never left out
 * silently: `each` says why of one record (a flexible audience, one shared by another account),
 * undefined for a record that is written; `together` names those for which `holds` is true in one
 * line (`scheduled posts: 2 already published (…) are not in this manifest: why`).
 */
type LeftOut =
  | { each: (record: LiveRecord) => string | undefined }
  | { together: { holds: (record: LiveRecord) => boolean; what: string; why: string } };

/** How generate writes a kind back (see the file comment); a kind without one is not written. */
export interface WriteBack {
  /** What its logical name is made from; default its `name`. */
  nameOf?: (record: LiveRecord) => string | undefined;
  /** The comment above its collection: what the manifest does not say of it. */
  comment?: string;
  /**
   * Written by its live id, `id` first (an object adsctl cannot make from the manifest alone; the
   * account always is): its fields after, none for a kind `readOnlyWhenImported` (nothing of it is
   * compared, so nothing would be managed).
   */
  byId?: true;
  /** Its entry on one line (`{ id: "…" }`), for an entry of a few short fields. */
  oneLine?: true;
  /** Fields written right after the name, as the record holds them (a conversation card's format, which its endpoint is). */
  leading?: readonly string[];
  /** Fields it compares but never writes, each with why (a post's author). */
  never?: Readonly<Record<string, string>>;
  /** The fields it writes itself, after the others, and how (a card's components, a post's card and media by logical name). */
  own?: { fields: readonly string[]; write: (record: LiveRecord, names: NamesById) => WrittenEntry[] };
  /** For a list item: objects of this top-level collection it names are written `<collection>.<name>` (a promoted post's `posts.launch`). */
  itemNamed?: string;
  /** For a list item with a target (`targets`): the manifest field that names the target by logical name, in place of its id (`custom_audience`). */
  targetNamed?: string;
  /** Records it leaves out, and why. */
  leftOut?: LeftOut;
  /**
   * Child collections written first, in this order, before the others in the order the manifest
   * reads them (registry.ts, `CHILD_ORDER`).
   */
  children?: readonly string[];
}

/** The first of `fields` the record holds as a non-empty string: where a logical name comes from. */
export function firstText(...fields: readonly string[]): (record: LiveRecord) => string | undefined {
  return (record) => {
    for (const f of fields) {
      const v = record[f];
      if (typeof v === 'string' && v !== '') return v;
    }
    return undefined;
  };
}
