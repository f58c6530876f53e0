/**
 * Showing an apply while it runs: on a terminal, one progress line rewritten in place; otherwise
 * (CI logs) a line per step with the time elapsed and, when the plan is known, the addresses the
 * step writes (the first ten), and a line per problem, and per creative put back on a serving
 * object whose new ones could not be added. Steps of one kind and action that start
 * together (sixty line items' promoted posts) share one line, `create 60 promoted posts`; any
 * other event ends the line first, so a failure is never folded away. Accounts are applied at
 * once: with several, every line names its account.
 */
import { isResourceKind, KINDS } from '../kinds/registry.js';
import type { ApplyEvent } from '../apply/events.js';
import { stepVerb } from '../plan/steps.js';
import type { Plan, Step } from '../plan/types.js';
import type { Io } from './io.js';

/** `targeting criterion` / `targeting criteria`, `campaign` / `campaigns`. */
function kindName(kind: string, count: number): string {
  const name = isResourceKind(kind) ? KINDS[kind].noun : kind.replace(/_/g, ' ');
  if (count === 1) return name;
  return name.endsWith('criterion') ? `${name.slice(0, -'criterion'.length)}criteria` : name.endsWith('category') ? `${name.slice(0, -1)}ies` : `${name}s`;
}

/** `0.9s`, `59.9s`, `1m05s`: tenths of a second under a minute, whole seconds above. */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

const SHOWN_ADDRESSES = 10;

function addressLine(addresses: readonly string[]): string {
  const shown = addresses.slice(0, SHOWN_ADDRESSES).join(', ');
  return `    ${shown}${addresses.length > SHOWN_ADDRESSES ? ` and ${addresses.length - SHOWN_ADDRESSES} more` : ''}\n`;
}

/**
 * The steps of each account in the order apply starts them (layer by layer, a layer's steps in
 * order), matched to the `step` events as they come.
 */
function stepFinder(plan: Plan | undefined): (event: Extract<ApplyEvent, { type: 'step' }>) => Step | undefined {
  const pending = new Map((plan?.accounts ?? []).map((a) => [a.account, a.layers.flat()]));
  return (event) => {
    const steps = pending.get(event.account) ?? [];
    const at = steps.findIndex((s) => s.kind === event.kind && stepVerb(s) === event.action && s.operations.length === event.operations);
    return at < 0 ? undefined : steps.splice(at, 1)[0];
  };
}

/** What the printer may know: the plan being applied (for addresses) and a clock (for tests). */
interface ProgressOptions {
  plan?: Plan;
  now?: () => number;
}

/** The event handler that prints an apply's progress to `io.err`; `tty` when stdout is a terminal. */
export function progressPrinter(io: Io, tty: boolean, options: ProgressOptions = {}): (event: ApplyEvent) => void {
  const now = options.now ?? Date.now;
  const started = now();
  const findStep = stepFinder(options.plan);
  const stamp = (): string => `[${formatElapsed(now() - started)}]`;
  // with several accounts applied at once, every line says whose it is
  const several = (options.plan?.accounts.length ?? 0) > 1;
  const whose = (account: string): string => (several ? `${account}: ` : '');
  let lastDraw = 0;
  // the step line being gathered: steps that start together (in one turn of the event loop) and
  // differ in nothing but their operations are told as one
  let open: { account: string; action: string; kind: string; stamp: string; operations: number; addresses: string[]; known: boolean } | undefined;
  const flush = (): void => {
    if (open === undefined) return;
    const { account, action, kind, operations, addresses, known } = open;
    io.err(`${open.stamp} ${account}: ${action} ${operations} ${kindName(kind, operations)}\n${known ? addressLine(addresses) : ''}`);
    open = undefined;
  };
  const print = (event: ApplyEvent): void => {
    switch (event.type) {
      case 'step': {
        const step = findStep(event);
        if (tty) break;
        const addresses = step?.operations.map((o) => o.address) ?? [];
        if (open !== undefined && open.account === event.account && open.action === event.action && open.kind === event.kind) {
          open.operations += event.operations;
          open.addresses.push(...addresses);
          open.known &&= step !== undefined;
          break;
        }
        flush();
        open = { account: event.account, action: event.action, kind: event.kind, stamp: stamp(), operations: event.operations, addresses, known: step !== undefined };
        // the steps that start with this one are emitted before the loop turns
        queueMicrotask(flush);
        break;
      }
      case 'progress': {
        if (!tty) break;
        const at = now();
        if (at - lastDraw < 100 && event.done < event.total) break;
        lastDraw = at;
        const width = 30;
        const filled = event.total === 0 ? width : Math.round((event.done / event.total) * width);
        io.err(`\r${event.account} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${event.done}/${event.total} ${stamp()}${event.done >= event.total ? '\n' : ''}`);
        break;
      }
      case 'working':
        io.err(`${tty ? '\n' : ''}${stamp()} ${whose(event.account)}${event.address}: ${event.message}\n`);
        break;
      case 'failed':
        // the error itself is printed once, with the others, when the run ends
        io.err(`${tty ? '\n' : ''}${stamp()} ${event.account}: ${event.address} failed; the error follows at the end\n`);
        break;
      case 'skipped':
        io.err(`${tty ? '\n' : ''}Skipped: ${whose(event.account)}${event.address}: ${event.because}\n`);
        break;
      case 'restored': {
        const under = (address: string): string => (address.startsWith(`${event.parent}.`) ? address.slice(event.parent.length + 1) : address);
        io.err(`${tty ? '\n' : ''}Restored: ${whose(event.account)}${event.parent}: ${under(event.address)} put back, since ${event.insteadOf.map(under).join(', ')} could not be added (${event.reason}); it serves what the old manifest gave it\n`);
        break;
      }
      case 'resolved':
        io.err(`${tty ? '\n' : ''}${whose(event.account)}${event.address}: a create had no answer; ${event.id === undefined ? 'it did not happen, sending it again' : `found it as ${event.id}`}\n`);
        break;
      case 'start':
        break;
    }
  };
  return (event) => {
    if (event.type !== 'step') flush();
    print(event);
  };
}
