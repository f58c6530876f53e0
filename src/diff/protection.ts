/**
 * `prevent_destroy`: a resource is protected when its manifest entry sets it, or when the state
 * recorded it and the manifest has not explicitly turned it off — so the protection survives the
 * removal of the block, or of the whole resource, from the manifest (Pulumi's `protect`, not
 * Terraform's bypassable flag). A plan that would delete or replace a protected resource carries
 * an error pointing at the flag, or, when the flag is gone from the manifest, saying where the
 * protection is recorded and how to lift it.
 */
import { errorAt, type Diagnostic } from '../diag/diagnostic.js';
import type { DesiredResource } from '../manifest/types.js';
import type { StateResource } from '../state/state-file.js';

/** The manifest key of the flag, as `attributeSources` names it. */
const FLAG = 'lifecycle.prevent_destroy';

/** True when the resource is protected (see the file comment). */
export function isProtected(desired: DesiredResource | undefined, stateEntry: StateResource | undefined): boolean {
  if (desired?.lifecycle.preventDestroy === true) return true;
  if (desired?.attributeSources[FLAG] !== undefined) return false;
  return stateEntry?.protected === true;
}

/** The `prevent-destroy` error for a protected resource at `address` that the plan would delete or replace. */
export function preventDestroyError(address: string, action: 'delete' | 'replace', desired: DesiredResource | undefined): Diagnostic {
  return { ...protectionError(address, action, desired), subject: address };
}

function protectionError(address: string, action: 'delete' | 'replace', desired: DesiredResource | undefined): Diagnostic {
  const would = action === 'delete' ? 'destroy it' : 'replace it (destroy it and create it anew)';
  const flag = desired?.attributeSources[FLAG];
  if (desired !== undefined && flag !== undefined && desired.lifecycle.preventDestroy) {
    return errorAt('prevent-destroy', `${address} has lifecycle.prevent_destroy set, but this plan would ${would}; set prevent_destroy: false and apply first if that is intended`, flag);
  }
  if (desired !== undefined) {
    return errorAt(
      'prevent-destroy',
      `${address} is protected by prevent_destroy recorded in state (the manifest no longer sets it), but this plan would ${would}; set lifecycle.prevent_destroy: false to lift the protection`,
      desired.source,
    );
  }
  return errorAt(
    'prevent-destroy',
    `${address} was removed from the manifest, but prevent_destroy is recorded in state for it and removing the lifecycle block with the resource does not lift it, so this plan may not ${would}. ` +
      `Put the resource back with lifecycle.prevent_destroy: false and apply to lift the protection, or stop managing it with adsctl state rm ${address}`,
  );
}
