/**
 * Declaring a kind's manifest fields typed against the types generated from
 * schemas/manifest.schema.json, so a field renamed in the schema fails the build in the kind's
 * file.
 */
import type { ManifestFields } from './descriptor.js';

type Keys<T> = T extends object ? Extract<keyof T, string> : never;

/** The manifest fields of a kind whose schema type is `T` (see `ManifestFields`). */
interface TypedFields<T> {
  plain?: ReadonlyArray<Keys<T>>;
  ids?: ReadonlyArray<Keys<T>>;
  money?: Readonly<Partial<Record<Keys<T>, Keys<T>>>>;
  times?: ReadonlyArray<Keys<T>>;
  refs?: Readonly<Partial<Record<Keys<T>, { field: Keys<T>; collection: string }>>>;
  special?: ReadonlyArray<Keys<T>>;
  children?: ReadonlyArray<Keys<T>>;
  named?: readonly string[];
  sections?: readonly string[];
  entries?: ManifestFields['entries'];
  read?: ManifestFields['read'];
  identity?: ManifestFields['identity'];
  duplicate?: string;
}

/** Builds `ManifestFields` for the `$defs` entry `def` from fields checked against `T`. */
export function manifestFields<T>(def: string, s: TypedFields<T>): ManifestFields {
  return {
    def,
    plain: s.plain ?? [],
    ids: s.ids ?? [],
    money: (s.money ?? {}) as Record<string, string>,
    times: s.times ?? [],
    refs: (s.refs ?? {}) as Record<string, { field: string; collection: string }>,
    special: s.special ?? [],
    children: s.children ?? [],
    ...(s.named === undefined ? {} : { named: s.named }),
    ...(s.sections === undefined ? {} : { sections: s.sections }),
    ...(s.entries === undefined ? {} : { entries: s.entries }),
    ...(s.read === undefined ? {} : { read: s.read }),
    ...(s.identity === undefined ? {} : { identity: s.identity }),
    ...(s.duplicate === undefined ? {} : { duplicate: s.duplicate }),
  };
}
