/**
 * Putting back the creatives a serving object stopped carrying (the plan's `restores`,
 * plan/creative-restores.ts). Once the layer holding the last addition a restore stands in for has
 * run, and none of those additions succeeded, the old creatives whose removal succeeded are created
 * again, before the next layer starts: through `runChunk`, like every write (the journal intent
 * first, so a run killed now is finished by the next one's recovery, which looks the create up).
 * Each one put back is told (`restored`); one that cannot be is an error of the apply. Nothing is
 * sent once the apply is stopped.
 */
import type { CreativeRestore, Step } from '../plan/types.js';
import { chunksOf } from './chunks.js';
import { readyOperations } from './ready.js';
import { runChunk } from './rounds.js';
import type { ApplyRun } from './run.js';

/** The index of the layer after which each restore of the plan is due: that of the last addition it stands in for. */
export function restoresByLayer(run: ApplyRun): Map<number, CreativeRestore[]> {
  const layerOf = new Map<string, number>();
  run.plan.layers.forEach((layer, i) => {
    for (const step of layer) for (const op of step.operations) layerOf.set(op.key, i);
  });
  const due = new Map<number, CreativeRestore[]>();
  for (const restore of run.plan.restores ?? []) {
    const at = Math.max(...restore.insteadOf.map((key) => layerOf.get(key) ?? run.plan.layers.length - 1));
    due.set(at, [...(due.get(at) ?? []), restore]);
  }
  return due;
}

/** The first error the apply recorded for the additions of `restore`, in words. */
function reasonOf(run: ApplyRun, restore: CreativeRestore): string {
  const addresses = new Set(restore.insteadOf.map((key) => run.planned.get(key)?.address));
  const error = run.tally.result.errors.find((e) => addresses.has(e.address));
  return error?.message.split('\n')[0] ?? 'it was not sent';
}

/** Sends the creates of `restore` that are due (see the file comment). */
async function putBack(run: ApplyRun, restore: CreativeRestore): Promise<void> {
  const { succeeded } = run.tally;
  if (restore.insteadOf.some((key) => succeeded.has(key))) return;
  const removed = (step: Step): Step => ({ ...step, operations: step.operations.filter((op) => op.after.every((key) => succeeded.has(key))) });
  const insteadOf = restore.insteadOf.map((key) => run.planned.get(key)?.address ?? key);
  await Promise.all(
    restore.steps.map(removed).map(async (step) => {
      const { sendable } = readyOperations(step, { planned: run.planned, succeeded, state: run.state });
      for (const chunk of chunksOf(step, sendable)) {
        if (!(await runChunk(run, step, chunk))) return;
        for (const { op } of chunk) {
          if (succeeded.has(op.key)) run.emit({ type: 'restored', account: run.plan.account, parent: restore.parent, address: op.address, insteadOf, reason: reasonOf(run, restore) });
        }
      }
    }),
  );
}

/** Puts back what the restores due after layer `index` stand for, before the next layer starts. */
export async function runRestores(run: ApplyRun, due: ReadonlyMap<number, readonly CreativeRestore[]>, index: number): Promise<void> {
  await Promise.all((due.get(index) ?? []).map((restore) => putBack(run, restore)));
}
