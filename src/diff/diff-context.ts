/**
 * The working state of one diff: the input, the decision made for each resource others can
 * refer to (references resolve against it, so kinds are decided parents first), the objects bound
 * by imports, the currencies of desired campaigns, and the diagnostics. Indexes that only rare
 * cases need (every desired address, every state binding by id) are built on first use, so the
 * common plan pays for none of them. Siblings come one after another, so the resolver remembers
 * the last target it resolved (a target is decided before anything that refers to it). An import
 * adopts the children the manifest declares under the object it binds (adopt.ts): the objects
 * whose children are adopted are kept by address, the live children by parent on first use.
 */
import type { Diagnostic } from '../diag/diagnostic.js';
import { formatAddress } from '../manifest/address.js';
import type { DesiredAccount, DesiredResource, ResourceAddress, ResourceKind } from '../manifest/types.js';
import type { LiveAccount, LiveResource } from '../live/types.js';
import type { AccountState } from '../state/state-file.js';
import type { FieldRule } from '../kinds/attribute.js';
import type { ReferenceResolver } from './desired-values.js';
import type { Action } from './types.js';

/**
 * What the diff of one account reads: the manifest's resources, what the service holds, and the
 * state (bindings, applied values, protection). `plan` compares the manifest with the service;
 * `destroy` takes down everything the state manages.
 */
export interface DiffInput {
  desired: DesiredAccount;
  live: LiveAccount;
  state: AccountState;
  mode: 'plan' | 'destroy';
}

/** What was decided for a desired resource: its action and, when it keeps its object, the bound id. */
interface Decision {
  action: Action;
  id: string | undefined;
}

/** The working state (see the file comment). */
export interface DiffContext {
  input: DiffInput;
  /** Decisions of the resources of `REFERABLE_KINDS`, by address text. */
  decisions: Map<string, Decision>;
  /** Address text of each desired resource bound by an import, keyed by `holderKey`. */
  imports: Map<string, string>;
  /** Live id of each bound desired resource whose children are adopted (an import names it or an ancestor), by address text. */
  adopting: Map<string, string>;
  /** Live records of each adopted kind by their parent's id (adopt.ts, built on first use). */
  liveChildren: Map<ResourceKind, Map<string, LiveResource[]>>;
  /** How many state entries a desired resource at the same address matched. */
  matchedState: number;
  /** Currency of each desired campaign, by address text. */
  campaignCurrencies: Map<string, string>;
  diagnostics: Diagnostic[];
  resolve: ReferenceResolver;
  desiredIndex?: ReadonlyMap<string, DesiredResource>;
  stateIndex?: ReadonlyMap<string, string>;
}

/** The key of a live object: its kind and id. */
export function holderKey(kind: string, id: string): string {
  return `${kind}\u0000${id}`;
}

/** A fresh context for `input`. */
export function createContext(input: DiffInput): DiffContext {
  const decisions = new Map<string, Decision>();
  const resources = input.state.resources;
  let lastTarget: ResourceAddress | undefined;
  let lastText = '';
  let lastId: string | undefined;
  const resolve = (target: ResourceAddress, rule: FieldRule): unknown => {
    if (target !== lastTarget) {
      const text = formatAddress(target);
      const decision = decisions.get(text);
      lastId = decision === undefined ? resources[text]?.id : decision.action === 'create' || decision.action === 'replace' ? undefined : decision.id;
      lastTarget = target;
      lastText = text;
    }
    if (lastId === undefined) return rule.idPrefix === undefined ? { $ref: lastText } : { $ref: lastText, prefix: rule.idPrefix };
    return rule.idPrefix === undefined ? lastId : `${rule.idPrefix}${lastId}`;
  };
  return { input, decisions, imports: new Map(), adopting: new Map(), liveChildren: new Map(), matchedState: 0, campaignCurrencies: new Map(), diagnostics: [], resolve };
}

/** Every desired resource by address text (built on first use). */
export function desiredIndex(ctx: DiffContext): ReadonlyMap<string, DesiredResource> {
  if (ctx.desiredIndex === undefined) {
    const index = new Map<string, DesiredResource>();
    for (const resource of ctx.input.desired.resources) index.set(formatAddress(resource.address), resource);
    ctx.desiredIndex = index;
  }
  return ctx.desiredIndex;
}

/** The state address text bound to each live object, keyed by `holderKey` (built on first use). */
export function stateIndex(ctx: DiffContext): ReadonlyMap<string, string> {
  if (ctx.stateIndex === undefined) {
    const index = new Map<string, string>();
    const resources = ctx.input.state.resources;
    for (const text of Object.keys(resources)) {
      const entry = resources[text];
      if (entry !== undefined) index.set(holderKey(entry.kind, entry.id), text);
    }
    ctx.stateIndex = index;
  }
  return ctx.stateIndex;
}
