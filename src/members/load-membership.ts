/**
 * membership.ts, and the member-file reading behind it (the phone numbering plans among it, a
 * fifth of the modules a run would otherwise load), loaded by the first run that meets a
 * membership: a plan or apply without audiences never loads them.
 */
let loaded: Promise<typeof import('./membership.js')> | undefined;

export function membershipModule(): Promise<typeof import('./membership.js')> {
  return (loaded ??= import('./membership.js'));
}
