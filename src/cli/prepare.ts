/**
 * The front half of plan, apply and destroy as a command: load and check the manifests the user
 * named, parse `--target` addresses, and have the engine open and plan the accounts. Problems
 * come back as diagnostics with the source texts needed to print them.
 */
import { hasErrors, type Diagnostic } from '../diag/diagnostic.js';
import { formatDiagnostics } from '../diag/format.js';
import type { Sessions } from '../engine/accounts.js';
import { failureMessage } from '../engine/failure.js';
import { preparePlan as prepareAccounts } from '../engine/prepare.js';
import { parseAddress } from '../manifest/address.js';
import { loadManifests } from '../manifest/load.js';
import type { ResourceAddress } from '../manifest/types.js';
import type { Plan } from '../plan/types.js';
import { readRunGuardrails } from '../engine/guardrails.js';
import { guardrailRoots } from './guardrails.js';
import { exitOnInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { accountLocation, givenDirectory } from './root.js';
import { runOptions, type RunFlags } from './run-options.js';
import { accountEnvironment } from './session.js';

interface Prepared {
  plan: Plan;
  sessions: Sessions;
  sources: Map<string, string>;
}

type PrepareResult = { ok: true; value: Prepared } | { ok: false; diagnostics: Diagnostic[]; sources: Map<string, string> };

/** Loads the manifests at `path` and the `--target` addresses, then opens and plans (src/engine/prepare.ts); on success the caller owns (and must close) the sessions. */
async function preparePlan(io: Io, path: string, flags: RunFlags, mode: Plan['mode'], operation: string): Promise<PrepareResult> {
  const loaded = loadManifests(path, { env: io.env });
  if (loaded.value === undefined || hasErrors(loaded.diagnostics)) return { ok: false, diagnostics: loaded.diagnostics, sources: loaded.sources };
  const targets: ResourceAddress[] = [];
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  for (const text of flags.target ?? []) {
    const parsed = parseAddress(text);
    if (parsed.value === undefined) diagnostics.push(...parsed.diagnostics);
    else targets.push(parsed.value);
  }
  if (hasErrors(diagnostics)) return { ok: false, diagnostics, sources: loaded.sources };
  const given = givenDirectory(path);
  // state lives with each manifest's configuration root; an account without an id is known by
  // its file, relative to that root, whatever the current directory
  const accounts = loaded.value.accounts.map((desired) => ({ desired, ...accountLocation(desired, given) }));
  // the guardrails of every root, read before anything is sent: a bad setting stops the run here
  const guardrails = readRunGuardrails(guardrailRoots(loaded.value.accounts, given), flags.allow, loaded.sources);
  if (guardrails.diagnostics.length > 0) return { ok: false, diagnostics: guardrails.diagnostics, sources: loaded.sources };
  // from here on a run holds locks: a signal releases them before it ends the process
  exitOnInterrupt((text) => io.err(text));
  const prepared = await prepareAccounts({ accounts, targets, mode, given, guardrails: guardrails.guardrails }, accountEnvironment(io, flags.debug === true), runOptions(flags, io), operation);
  if (!prepared.ok) return { ok: false, diagnostics: prepared.diagnostics, sources: loaded.sources };
  // the manifests' warnings (an import entry whose resource left the manifest) are the plan's too
  prepared.plan.diagnostics.unshift(...diagnostics);
  return { ok: true, value: { plan: prepared.plan, sessions: prepared.sessions, sources: loaded.sources } };
}

/**
 * `preparePlan` for a command: problems (diagnostics, an API error while refreshing, or a state
 * lock lost meanwhile) are printed and the exit code set to 1; returns undefined then.
 */
export async function prepareOrReport(io: Io, path: string, flags: RunFlags, mode: Plan['mode'], operation: string, setExit: (code: number) => void): Promise<Prepared | undefined> {
  let prepared: PrepareResult;
  try {
    prepared = await preparePlan(io, path, flags, mode, operation);
  } catch (error) {
    const message = failureMessage(error, operation);
    if (message === undefined) throw error;
    io.err(`Error: ${message}\n`);
    setExit(1);
    return undefined;
  }
  if (!prepared.ok) {
    io.err(formatDiagnostics(prepared.diagnostics, prepared.sources));
    setExit(1);
    return undefined;
  }
  return prepared.value;
}
