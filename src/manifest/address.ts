/**
 * Resource addresses (docs/manifest.md): the path of a resource in its manifest, e.g.
 * `campaigns.summer_sale.line_items.us.promoted_posts["1346184843436720128"]`. A key that is a
 * plain identifier follows a dot; any other key is a JSON string in brackets. The account is
 * `account`. Targeting criteria are keyed by `TYPE:VALUE` (operator EQ) or `TYPE/OP:VALUE`
 * (NE, GTE, LT), e.g. `targeting["BROAD_KEYWORD/NE:sunscreen"]`. A collection that holds one
 * resource has no key: `do_not_reach`, `custom_audiences.newsletter.users`.
 */
import { errorAt, type Result } from '../diag/diagnostic.js';
import type { SourceRange } from '../diag/source-range.js';
import { didYouMean } from '../diag/suggest.js';
import { COLLECTIONS, KINDS, ROOT_KIND } from '../kinds/registry.js';
import { targetingKey } from '../kinds/targeting-identity.js';
import type { AddressStep, ResourceAddress, ResourceKind } from './types.js';


/** The targeting operators; EQ is the default and is left out of keys. */
const OPERATORS = ['EQ', 'NE', 'GTE', 'LT'] as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const TARGETING_KEY = /^([A-Z][A-Z0-9_]*)(?:\/([A-Z]+))?:([\s\S]+)$/;

export { targetingKey };

const formatted = new WeakMap<ResourceAddress, string>();

/** The address of the account. */
export const ACCOUNT_ADDRESS: ResourceAddress = { kind: ROOT_KIND.kind, steps: [] };

/** The address one step below `parent`. */
export function childAddress(parent: ResourceAddress, collection: string, key: string): ResourceAddress {
  const kind = COLLECTIONS.get(parent.kind)?.get(collection);
  if (kind === undefined) throw new Error(`no collection ${collection} under ${parent.kind}`);
  // concat makes an array of the exact length (a spread leaves room to grow): one per resource
  const address: ResourceAddress = { kind, steps: parent.steps.concat([{ collection, key }]) };
  const prefix = parent.steps.length === 0 ? '' : `${formatAddress(parent)}.`;
  formatted.set(address, `${prefix}${collection}${formatKey(key)}`);
  return address;
}


/** A key as written after its collection; the one resource of a `single` collection has the empty key and none. */
function formatKey(key: string): string {
  if (key === '') return '';
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * The text form of an address; `parseAddress(formatAddress(a))` gives `a` back. Addresses are
 * treated as immutable, so the text is computed once per address object.
 */
export function formatAddress(address: ResourceAddress): string {
  const known = formatted.get(address);
  if (known !== undefined) return known;
  const text = address.steps.length === 0 ? ROOT_KIND.kind : address.steps.map((step, i) => `${i === 0 ? '' : '.'}${step.collection}${formatKey(step.key)}`).join('');
  formatted.set(address, text);
  return text;
}

class AddressSyntaxError {
  constructor(readonly message: string) {}
}

function readString(text: string, at: number): { value: string; next: number } {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  if (i >= text.length) throw new AddressSyntaxError('unterminated quoted key');
  let value: unknown;
  try {
    value = JSON.parse(text.slice(at, i + 1));
  } catch {
    throw new AddressSyntaxError(`invalid quoted key ${text.slice(at, i + 1)}`);
  }
  if (text[i + 1] !== ']') throw new AddressSyntaxError('expected ] after a quoted key');
  return { value: String(value), next: i + 2 };
}

function normaliseTargetingKey(key: string): string {
  const m = TARGETING_KEY.exec(key);
  const operator = m?.[2] ?? 'EQ';
  if (m === null || !(OPERATORS as readonly string[]).includes(operator)) {
    throw new AddressSyntaxError(`targeting key ${JSON.stringify(key)} must be TYPE:VALUE or TYPE/OP:VALUE with OP one of ${OPERATORS.join(', ')}`);
  }
  return targetingKey(m[1] ?? '', m[3] ?? '', operator);
}

function parseSteps(text: string): ResourceAddress {
  if (text === ROOT_KIND.kind) return ACCOUNT_ADDRESS;
  const steps: AddressStep[] = [];
  let kind: ResourceKind = ROOT_KIND.kind;
  let i = 0;
  while (i < text.length) {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))?.[0];
    const collections: ReadonlyMap<string, ResourceKind> = COLLECTIONS.get(kind) ?? new Map<string, ResourceKind>();
    if (name === undefined) throw new AddressSyntaxError(`expected a collection name at character ${i + 1}`);
    const child: ResourceKind | undefined = collections.get(name);
    if (child === undefined) {
      const where = kind === ROOT_KIND.kind ? 'at the top level' : `under a ${kind.replace(/_/g, ' ')}`;
      const known = [...collections.keys()];
      throw new AddressSyntaxError(`there is no collection ${JSON.stringify(name)} ${where}${known.length === 0 ? '' : didYouMean(name, known)}`);
    }
    i += name.length;
    let key: string;
    if (KINDS[child].address.key === 'single') {
      key = '';
    } else if (text[i] === '.') {
      const plain = /^[A-Za-z0-9_-]+/.exec(text.slice(i + 1))?.[0];
      if (plain === undefined) throw new AddressSyntaxError(`expected a key after "${name}."`);
      key = plain;
      i += 1 + plain.length;
    } else if (text.startsWith('["', i)) {
      const read = readString(text, i + 1);
      key = read.value;
      i = read.next;
    } else {
      throw new AddressSyntaxError(`expected .key or ["key"] after ${JSON.stringify(name)}`);
    }
    if (key.length === 0 && KINDS[child].address.key !== 'single') throw new AddressSyntaxError('keys must not be empty');
    if (KINDS[child].address.key === 'targeting') key = normaliseTargetingKey(key);
    steps.push({ collection: name, key });
    kind = child;
    if (i < text.length) {
      if (text[i] !== '.') throw new AddressSyntaxError(`unexpected ${JSON.stringify(text[i])} at character ${i + 1}`);
      i += 1;
      if (i === text.length) throw new AddressSyntaxError('an address must not end with "."');
    }
  }
  if (steps.length === 0) throw new AddressSyntaxError('an address must not be empty');
  return { kind, steps };
}

/**
 * Parses the text form of an address. A malformed address, or one whose collections do not nest
 * as the kind descriptors say, gives an `address-syntax` diagnostic at `range` (when given).
 */
export function parseAddress(text: string, range?: SourceRange): Result<ResourceAddress> {
  try {
    return { value: parseSteps(text.trim()), diagnostics: [] };
  } catch (error) {
    if (!(error instanceof AddressSyntaxError)) throw error;
    return { value: undefined, diagnostics: [errorAt('address-syntax', `invalid address ${JSON.stringify(text)}: ${error.message}`, range)] };
  }
}
