/**
 * The attribute vocabulary of a kind descriptor (see docs/architecture.md, "Resource kinds"):
 * for each API field a kind manages, how its values are normalised and compared, whether a PUT
 * may change it or a change forces a replacement, which value the API fills in when a create
 * leaves it out, and its flags (required on create, write-only, money that must be positive).
 * A field a descriptor does not list (server-owned fields such as `servable`, `currency`,
 * `created_at`) is never compared.
 */

/**
 * How a value is normalised and compared:
 * - `scalar`: strings, numbers, booleans, null, compared with `===`;
 * - `id`: an id, compared as a string (the API sometimes answers a number);
 * - `micros`: an integer amount of micros (money; numeric strings are read as integers);
 * - `time`: a timestamp, compared as `YYYY-MM-DDTHH:MM:SSZ`;
 * - `set`: an array whose order and duplicates do not matter; null and `[]` are equal;
 * - `list`: an array whose order matters;
 * - `json`: any JSON value, compared structurally (objects by keys, arrays by position).
 */
export type Shape = 'scalar' | 'id' | 'micros' | 'time' | 'set' | 'list' | 'json';

/**
 * What a change of the field means: `update` (a PUT may send it) or `replace` (the API cannot
 * change it: the resource must be created anew, and the field is marked as forcing that).
 */
type Mutability = 'update' | 'replace';

/** The rule of one API field of a kind. */
export interface FieldRule {
  field: string;
  shape: Shape;
  change: Mutability;
  /**
   * The value the API gives the field when a create leaves it out, computed from the desired
   * attributes (defaults of earlier fields already filled in), or undefined when it gives none
   * in that case. A field with a default is left to the API when the manifest stops setting it.
   * Defaults sit on `update` fields only — a default must never force a replacement — except
   * where the address key already fixes the value (a targeting criterion's operator).
   */
  fallback?: (after: Readonly<Record<string, unknown>>) => unknown;
  /**
   * The value the service gives the field when a create leaves it out, for a field without a
   * `fallback`: adsctl manages it only where the manifest writes it (a manifest that stops writing
   * it asks for nothing), so the diff never reads this. `adsctl generate` does: a live value equal
   * to it is the service's own, and is left out of the manifest it writes (docs/manifest.md).
   */
  serviceDefault?: (record: Readonly<Record<string, unknown>>) => unknown;
  /**
   * The field is part of the resource's identity (its address key) and is shown but never
   * compared, because the service may answer another value for the same object.
   */
  identity?: true;
  /**
   * The text written before a referenced resource's id in the API's form of the value (`card://`
   * for a card URI); without it the value is the id itself.
   */
  idPrefix?: string;
  /**
   * Extra equivalence for values the service changes on its own: true when `live` (normalised)
   * stands for `desired` although they differ.
   */
  equivalent?: (desired: unknown, live: unknown, liveRecord: Readonly<Record<string, unknown>>) => boolean;
  /**
   * Not an API field: what the manifest says about the resource beyond the API (the path of a
   * media file), shown and handed to the kind's write code, never compared.
   */
  informational?: true;
  /**
   * How the value is recorded as applied once a write succeeded, when that differs from what the
   * plan asked for (a membership's counts of what was left to send are then zero).
   */
  appliedAs?: (value: unknown) => unknown;
  /** A create without this field is refused by the service. */
  requiredOnCreate?: true;
  /**
   * The field the plan fills in from a file another field names (a membership's members, read
   * from its `file`): where that field is given and this one is not, the reading failed and said
   * why, so a create is not refused again for lacking it.
   */
  readFrom?: string;
  /**
   * The service cannot unset the field (it refuses an empty account name): a manifest that stops
   * writing it leaves the live value as it is, where another updatable field without a default is
   * asked to be unset.
   */
  kept?: true;
  /** A time the service refuses unless it is after the current time when written (a scheduled post's `scheduled_at`). */
  future?: true;
  /**
   * The field holds lines of text (a post's): a line break (LF) or a tab in it is its own, where
   * every other string value refuses all control characters (src/manifest/control-characters.ts).
   */
  multiline?: true;
  /** The service accepts the field but never answers it: it is compared with the applied value. */
  writeOnly?: true;
  /** Money that must be greater than zero (budgets and bids). */
  positive?: true;
}

/** Shorthand for a rule without options. */
export function field(name: string, shape: Shape, change: Mutability): FieldRule {
  return { field: name, shape, change };
}

/** Shorthand for an `update` rule whose API default is `value` whenever the manifest leaves it out. */
export function defaulted(name: string, shape: Shape, value: unknown): FieldRule {
  return { field: name, shape, change: 'update', fallback: () => value };
}

/** Shorthand for an unmanaged-unless-written rule whose value the service sets to `value` when a create leaves it out (`serviceDefault`). */
export function serviceDefaulted(name: string, shape: Shape, change: Mutability, value: unknown): FieldRule {
  return { field: name, shape, change, serviceDefault: () => value };
}

/** Shorthand for a rule the service requires on create. */
export function required(name: string, shape: Shape, change: Mutability): FieldRule {
  return { field: name, shape, change, requiredOnCreate: true };
}
