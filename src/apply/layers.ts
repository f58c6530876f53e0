/**
 * Running the plan's layers in order, the steps of a layer together, the chunks of a step
 * together, all within the run's bound on requests in flight. A step first settles what cannot
 * be sent (skipped, with why), then sends the rest, each request told as it goes out (rounds.ts);
 * `progress` counts a chunk once every operation in it has an outcome. After each layer, what the plan puts back for a serving object whose new
 * creatives could not be added is sent before the next begins. Once the apply is stopped no
 * further layer starts.
 */
import type { Step } from '../plan/types.js';
import { chunksOf } from './chunks.js';
import { readyOperations } from './ready.js';
import { recordSkip } from './record.js';
import { restoresByLayer, runRestores } from './restore.js';
import { runChunk } from './rounds.js';
import type { ApplyRun } from './run.js';

/**
 * Runs every layer of the run's plan, in order, until done or stopped; after a layer, puts back
 * the creatives a serving object would otherwise be left without (restore.ts).
 */
export async function runLayers(run: ApplyRun): Promise<void> {
  const restores = restoresByLayer(run);
  for (const [i, layer] of run.plan.layers.entries()) {
    if (run.stopped()) break;
    await Promise.all(layer.map((step) => runStep(run, step)));
    await runRestores(run, restores, i);
  }
}

async function runStep(run: ApplyRun, step: Step): Promise<void> {
  const { plan, tally } = run;
  const { sendable, skipped } = readyOperations(step, { planned: run.planned, succeeded: tally.succeeded, state: run.state });
  for (const { op, because } of skipped) recordSkip(run, op, because);
  await Promise.all(
    chunksOf(step, sendable).map(async (chunk) => {
      if (!(await runChunk(run, step, chunk))) return;
      tally.done += chunk.length;
      run.emit({ type: 'progress', account: plan.account, done: tally.done, total: tally.total });
    }),
  );
  tally.done += step.operations.length - sendable.length;
}
