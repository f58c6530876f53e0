/**
 * Showing an apply while it runs: on a terminal, one progress line rewritten in place; otherwise
 * (CI logs) one line per step and per problem.
 */
import type { ApplyEvent } from '../apply/events.js';
import type { Io } from './io.js';

/** `targeting criterion` / `targeting criteria`, `campaign` / `campaigns`. */
export function kindName(kind: string, count: number): string {
  const name = kind.replace(/_/g, ' ');
  if (count === 1) return name;
  return name.endsWith('criterion') ? `${name.slice(0, -'criterion'.length)}criteria` : name.endsWith('category') ? `${name.slice(0, -1)}ies` : `${name}s`;
}

export function progressPrinter(io: Io, tty: boolean): (event: ApplyEvent) => void {
  let lastDraw = 0;
  return (event) => {
    switch (event.type) {
      case 'step':
        if (!tty) io.err(`${event.account}: ${event.action} ${event.operations} ${kindName(event.kind, event.operations)}\n`);
        break;
      case 'progress': {
        if (!tty) break;
        const now = Date.now();
        if (now - lastDraw < 100 && event.done < event.total) break;
        lastDraw = now;
        const width = 30;
        const filled = event.total === 0 ? width : Math.round((event.done / event.total) * width);
        io.err(`\r${event.account} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${event.done}/${event.total}${event.done >= event.total ? '\n' : ''}`);
        break;
      }
      case 'failed':
        io.err(`${tty ? '\n' : ''}Error: ${event.address}: ${event.message}\n`);
        break;
      case 'skipped':
        io.err(`${tty ? '\n' : ''}Skipped: ${event.address}: ${event.because}\n`);
        break;
      case 'resolved':
        io.err(`${tty ? '\n' : ''}${event.address}: a create had no answer; ${event.id === undefined ? 'it did not happen, sending it again' : `found it as ${event.id}`}\n`);
        break;
      case 'start':
        break;
    }
  };
}
