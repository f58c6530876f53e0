/**
 * Showing an apply while it runs: on a terminal, one progress line rewritten in place; otherwise
 * (CI logs) a line per write request as it goes out, with the time elapsed and the addresses it
 * carries (the first ten), and a line per problem, and per creative put back on a serving object
 * whose new ones could not be added. Nothing is told before it is sent: an operation skipped, or
 * never sent because the apply was stopped, has no line. Requests of one kind and action that go
 * out within a second of the first share one line (`create 60 promoted posts`), printed when that
 * second ends or anything else is told; any other event ends the line first, so a failure is never
 * folded away. Accounts are applied at once: with several, every line names its account.
 */
import type { ApplyEvent } from '../apply/events.js';
import type { Plan } from '../plan/types.js';
import { kindNoun } from '../render/kind-noun.js';
import type { Io } from './io.js';

/** `targeting criterion` / `targeting criteria`, `campaign` / `campaigns`. */
function kindName(kind: string, count: number): string {
  const name = kindNoun(kind);
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

/** What the printer may know: the plan being applied (how many accounts) and a clock (for tests). */
interface ProgressOptions {
  plan?: Plan;
  now?: () => number;
}

/** How long requests of one kind and action may keep going out into the line of the first. */
const GATHER_MS = 1_000;

/** The event handler that prints an apply's progress; `flush` prints what it holds, before the run's outcome is told. */
interface ProgressPrinter {
  (event: ApplyEvent): void;
  flush(): void;
}

/** The event handler that prints an apply's progress to `io.err`; `tty` when stdout is a terminal. */
export function progressPrinter(io: Io, tty: boolean, options: ProgressOptions = {}): ProgressPrinter {
  const now = options.now ?? Date.now;
  const started = now();
  const stamp = (): string => `[${formatElapsed(now() - started)}]`;
  // with several accounts applied at once, every line says whose it is
  const several = (options.plan?.accounts.length ?? 0) > 1;
  const whose = (account: string): string => (several ? `${account}: ` : '');
  let lastDraw = 0;
  // the line of the requests being gathered: they went out, and differ in nothing but their operations
  let open: { account: string; action: string; kind: string; at: number; stamp: string; addresses: string[] } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (open === undefined) return;
    const { account, action, kind, addresses } = open;
    io.err(`${open.stamp} ${account}: ${action} ${addresses.length} ${kindName(kind, addresses.length)}\n${addressLine(addresses)}`);
    open = undefined;
  };
  const print = (event: ApplyEvent): void => {
    switch (event.type) {
      case 'sending': {
        if (tty) break;
        if (open !== undefined && open.account === event.account && open.action === event.action && open.kind === event.kind && now() - open.at < GATHER_MS) {
          open.addresses.push(...event.addresses);
          break;
        }
        flush();
        open = { account: event.account, action: event.action, kind: event.kind, at: now(), stamp: stamp(), addresses: [...event.addresses] };
        timer = setTimeout(flush, GATHER_MS);
        timer.unref();
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
  const printer = (event: ApplyEvent): void => {
    if (event.type !== 'sending') flush();
    print(event);
  };
  return Object.assign(printer, { flush });
}
