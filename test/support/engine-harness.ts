/**
 * The engine driven as `adsctl validate`, `plan`, `apply`, `destroy`, `apply --refresh-only`,
 * `show` and `state show` drive it, in the test's own process: manifests loaded from a workspace
 * directory, accounts opened and planned (`preparePlan`), the plan rendered as the user would read
 * it (text, JSON, Markdown), applied (`applyAccounts`, or `acceptLiveAccounts`) and the sessions
 * closed, mirroring src/cli/validate-command.ts, prepare.ts, plan-command.ts, execute.ts,
 * apply-command.ts, apply-refresh-only.ts, show-command.ts and state-command.ts step for step.
 * What only a process has — argv, signals, prompts on a terminal, the exit code itself — is left
 * out: each run returns the text it would print and `code`, the exit code the command would set,
 * so a scenario checks the same facts a CLI test checks, without starting a process.
 *
 * Nothing here is process-global: no signal handler, no exit hook, no change of directory or of
 * `process.env`. The endpoint is the manifest's (an emulator's URL, usually the in-process
 * emulator of `startTestEmulator` or a wire log before it), the state is the workspace's (local
 * files, or PostgreSQL when its adsctl.yaml says so), and the run's clock is the one the harness
 * is given (manual-clock.ts: it moves only when a test or an injected sleep moves it). `import`
 * and `generate` are engine-adoption.ts.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { Clock } from '../../src/clock/clock.js';
import { hasErrors, type Diagnostic } from '../../src/diag/diagnostic.js';
import { formatDiagnostics } from '../../src/diag/format.js';
import { acceptedScope, acceptLiveAccounts } from '../../src/engine/accept-live.js';
import { openAccounts, type AccountEnvironment, type AccountSession, type Sessions } from '../../src/engine/accounts.js';
import { applyAccounts } from '../../src/engine/apply.js';
import { blockingViolations, guardPlan, readRunGuardrails, runOperation } from '../../src/engine/guardrails.js';
import { preparePlan } from '../../src/engine/prepare.js';
import { checkAccounts } from '../../src/engine/validate.js';
import { readSavedPlan } from '../../src/engine/saved-plan.js';
import type { RunOptions } from '../../src/engine/run-options.js';
import { staleObjects } from '../../src/engine/stale.js';
import { showState } from '../../src/engine/state-edit.js';
import { parseAddress } from '../../src/manifest/address.js';
import { loadManifests } from '../../src/manifest/load.js';
import type { ResourceAddress } from '../../src/manifest/types.js';
import { hasChanges } from '../../src/engine/has-changes.js';
import { decodePlanFile, encodePlanFile } from '../../src/plan/plan-file.js';
import type { Plan } from '../../src/plan/types.js';
import { renderAccountOutcomes } from '../../src/render/apply-outcome.js';
import { hasDrift, renderRefreshOnly } from '../../src/render/refresh-only.js';
import { renderApplyOutcome, renderDestroyOutcome, renderGuardrails, renderPlanPieces, type PlanFormat } from '../../src/render/render.js';
import { readStateConfig } from '../../src/state/config.js';
import { LocalStore } from '../../src/state/local-store.js';
import { LockLostError, lockLostMessage } from '../../src/state/lock-lost.js';
import type { StateStore, StateVersion } from '../../src/state/store.js';
import { userCredentialsFrom } from '../../src/cli/credentials.js';
import { openEndpoint } from '../../src/cli/endpoint.js';
import { guardrailRoots } from '../../src/cli/guardrails.js';
import type { Io } from '../../src/cli/io.js';
import { progressPrinter } from '../../src/cli/progress.js';
import { completeLine } from '../../src/cli/apply-refresh-only.js';
import { approved } from '../../src/cli/execute.js';
import { accountLocation, cacheDirOf, givenDirectory, savedPlanRoot, stateDirOf } from '../../src/cli/root.js';
import { staleRefusal } from '../../src/cli/stale.js';
import type { StartupInfo } from '../../src/emulator/emulator.js';
import { createWorkspace, type Workspace } from './e2e.js';
import type { CliRun } from './run-cli.js';
import { manualClock, type ManualClock } from './manual-clock.js';

/** What a run printed and the exit code the command would have set; the plan when one was made. */
export interface EngineRun {
  code: number;
  stdout: string;
  stderr: string;
  plan?: Plan;
}

/** The options of a run the commands share (`--target`, `--allow`), and its path (the workspace unless told). */
interface RunArgs {
  target?: string[];
  allow?: string[];
  /** The manifests' file or directory, relative to the workspace. */
  path?: string;
  /** `--debug`: each request traced on stderr as session.ts traces it. */
  debug?: boolean;
}

export interface PlanArgs extends RunArgs {
  format?: PlanFormat;
  destroy?: boolean;
  refreshOnly?: boolean;
  detailedExitcode?: boolean;
  /** `--out`: the plan file, relative to the workspace. */
  out?: string;
}

export interface ApplyArgs extends RunArgs {
  /** The answer typed at the confirmation; `--auto-approve` when absent, and no answer at all (input ended) when null. */
  answer?: string | null;
}

/** One output of a run, collected. */
export class RunOutput {
  stdout = '';
  stderr = '';
  code = 0;
  constructor(readonly clock: Clock, readonly env: NodeJS.ProcessEnv, readonly answer: string | null | undefined) {}
  /** The command line's streams as a run sees them: no terminal, and the answer typed when asked. */
  io(): Io {
    return {
      out: (text) => void (this.stdout += text),
      err: (text) => void (this.stderr += text),
      env: this.env,
      interactive: false,
      stdoutTty: false,
      clock: this.clock,
      readLine: async (prompt) => {
        this.stderr += prompt;
        return this.answer ?? undefined;
      },
    };
  }
  done(code: number, plan?: Plan): EngineRun {
    return { code, stdout: this.stdout, stderr: this.stderr, ...(plan === undefined ? {} : { plan }) };
  }
}

/**
 * Runs the engine on the manifests of one workspace (test/support/e2e.ts), as the commands do with
 * its directory as their path; `cli` still runs the built CLI there for what only a process shows.
 */
export class EngineWorkspace {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly ws: Workspace,
    readonly clock: ManualClock,
  ) {
    this.dir = ws.dir;
    this.env = ws.env;
  }

  /** Replaces the manifest's text. */
  write(yaml: string): void {
    this.ws.write(yaml);
  }

  /** `adsctl ...args` as a process in the workspace (commands that are the CLI's own: `state mv`, `validate`). */
  cli(args: string[]): Promise<CliRun> {
    return this.ws.run(args);
  }

  remove(): void {
    this.ws.remove();
  }

  /** What the engine opens accounts with: the commands' endpoints and credentials, local state, no process hooks. */
  environment(out: RunOutput, debug = false): AccountEnvironment {
    return {
      ...(debug ? { trace: (line: string) => out.io().err(`[debug] ${line}\n`) } : {}),
      endpointGiven: { environment: this.env['ADSCTL_ENDPOINT'] },
      openEndpoint: (name, dotDir, { waitMs, connectTimeoutMs }) => openEndpoint(name, dotDir, this.clock, waitMs, connectTimeoutMs),
      credentialsFor: (name) => userCredentialsFrom(this.env, name),
      openStore: (root) => openStore(root, this.env, this.clock),
      unlockCommand: (id) => `adsctl force-unlock ${id}`,
      warn: (text) => out.io().err(text),
      // a wait is the clock moved, never a timer
      sleep: async (ms) => this.clock.advance(ms),
    };
  }

  /** The run's options as the commands' defaults give them, at the workspace's clock. */
  options(): RunOptions {
    return { parallelism: 8, connectTimeoutMs: 10_000, lockTimeoutMs: 0, clock: this.clock };
  }

  /** src/cli/prepare.ts: load, targets, guardrails, then the engine's `preparePlan`; undefined when it said why it stopped. */
  private async prepare(out: RunOutput, args: RunArgs, mode: Plan['mode'], operation: string): Promise<{ plan: Plan; sessions: Sessions; sources: Map<string, string> } | undefined> {
    const io = out.io();
    const path = args.path === undefined ? this.dir : this.path(args.path);
    const loaded = loadManifests(path, { env: this.env });
    const report = (diagnostics: Diagnostic[], sources: Map<string, string>): undefined => {
      io.err(formatDiagnostics(diagnostics, sources));
      out.code = 1;
      return undefined;
    };
    if (loaded.value === undefined || hasErrors(loaded.diagnostics)) return report(loaded.diagnostics, loaded.sources);
    const targets: ResourceAddress[] = [];
    const diagnostics: Diagnostic[] = [...loaded.diagnostics];
    for (const text of args.target ?? []) {
      const parsed = parseAddress(text);
      if (parsed.value === undefined) diagnostics.push(...parsed.diagnostics);
      else targets.push(parsed.value);
    }
    if (hasErrors(diagnostics)) return report(diagnostics, loaded.sources);
    const given = givenDirectory(path);
    const accounts = loaded.value.accounts.map((desired) => ({ desired, ...accountLocation(desired, given) }));
    const guardrails = readRunGuardrails(guardrailRoots(loaded.value.accounts, given), args.allow, loaded.sources);
    if (guardrails.diagnostics.length > 0) return report(guardrails.diagnostics, loaded.sources);
    try {
      const prepared = await preparePlan({ accounts, targets, mode, given, guardrails: guardrails.guardrails }, this.environment(out, args.debug), this.options(), operation);
      if (!prepared.ok) return report(prepared.diagnostics, loaded.sources);
      prepared.plan.diagnostics.unshift(...diagnostics);
      return { plan: prepared.plan, sessions: prepared.sessions, sources: loaded.sources };
    } catch (error) {
      if (error instanceof LockLostError) {
        io.err(`Error: ${lockLostMessage(error.message, operation)}\n`);
        out.code = 1;
        return undefined;
      }
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      out.code = 1;
      return undefined;
    }
  }

  /** `adsctl validate [PATH]` (validate-command.ts): offline, the manifests loaded and checked with their member file headers and guardrails. */
  async validate(args: Pick<RunArgs, 'path'> = {}): Promise<EngineRun> {
    const out = new RunOutput(this.clock, this.env, undefined);
    const io = out.io();
    const path = args.path === undefined ? this.dir : this.path(args.path);
    const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
    const result = loadManifests(path, { env: this.env });
    const checked = result.value === undefined ? [] : await checkAccounts(result.value.accounts, guardrailRoots(result.value.accounts, givenDirectory(path)), result.sources);
    const diagnostics = [...result.diagnostics, ...checked];
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (diagnostics.length > 0) io.err(formatDiagnostics(diagnostics, result.sources));
    if (result.value === undefined || errors.length > 0) {
      const files = new Set(errors.map((d) => d.range?.file).filter((f) => f !== undefined));
      io.err(`\n${plural(errors.length, 'error')}${files.size > 0 ? ` in ${plural(files.size, 'file')}` : ''}.\n`);
      return out.done(1);
    }
    const resources = result.value.accounts.reduce((sum, account) => sum + account.resources.length, 0);
    io.out(`Success! ${plural(resources, 'resource')} in ${plural(result.files.length, 'file')} (${plural(result.value.accounts.length, 'account')}) are valid.\n`);
    return out.done(0);
  }

  /** `adsctl plan` (plan-command.ts). */
  async plan(args: PlanArgs = {}): Promise<EngineRun> {
    const out = new RunOutput(this.clock, this.env, undefined);
    const io = out.io();
    const prepared = await this.prepare(out, args, args.destroy === true ? 'destroy' : 'plan', 'plan');
    if (prepared === undefined) return out.done(out.code);
    const { plan, sessions, sources } = prepared;
    await sessions.close();
    const format = args.format ?? 'text';
    const options = { color: false, sources };
    if (args.refreshOnly === true) io.out(renderRefreshOnly(plan, format, options));
    else for (const piece of renderPlanPieces(plan, format, options)) io.out(piece);
    if (hasErrors(plan.diagnostics)) {
      if (format !== 'text') io.err(formatDiagnostics(plan.diagnostics, sources));
      return out.done(1, plan);
    }
    const blocking = args.refreshOnly === true ? [] : blockingViolations(plan);
    if (blocking.length > 0) {
      if (format !== 'text') io.err(renderGuardrails(plan));
      return out.done(1, plan);
    }
    if (args.out !== undefined) {
      const file = this.path(args.out);
      writeFileSync(file, encodePlanFile(plan, this.clock.now(), dirname(file)));
    }
    const changed = args.refreshOnly === true ? hasDrift(plan) : hasChanges(plan);
    return out.done(args.detailedExitcode === true && changed ? 2 : 0, plan);
  }

  /** `adsctl apply` with the manifests (execute.ts, `planThenApply`). */
  apply(args: ApplyArgs = {}): Promise<EngineRun> {
    return this.planThenApply(args, { mode: 'plan', question: 'Do you want to perform these actions?', verb: 'apply' });
  }

  /** `adsctl destroy`. */
  destroy(args: ApplyArgs = {}): Promise<EngineRun> {
    return this.planThenApply(args, { mode: 'destroy', question: 'Do you really want to destroy all resources the state manages for these manifests?', verb: 'destroy' });
  }

  private async planThenApply(args: ApplyArgs, how: { mode: Plan['mode']; question: string; verb: 'apply' | 'destroy' }): Promise<EngineRun> {
    const out = new RunOutput(this.clock, this.env, args.answer);
    const io = out.io();
    const prepared = await this.prepare(out, args, how.mode, how.verb);
    if (prepared === undefined) return out.done(out.code);
    const { plan, sessions, sources } = prepared;
    try {
      for (const piece of renderPlanPieces(plan, 'text', { color: false, sources })) io.out(piece);
      if (hasErrors(plan.diagnostics) || blockingViolations(plan).length > 0) return out.done(1, plan);
      if (hasChanges(plan) && !(await approved(io, args.answer === undefined, how.question, how.verb))) return out.done(1, plan);
      return out.done(await applyAndReport(io, plan, sessions.sessions, how.verb), plan);
    } catch (error) {
      if (error instanceof LockLostError) {
        io.err(`Error: ${lockLostMessage(error.message, how.verb)}\n`);
        return out.done(1, plan);
      }
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      return out.done(1, plan);
    } finally {
      await sessions.close();
    }
  }

  /** `adsctl apply PLANFILE` (apply-command.ts, `applySaved`); `file` relative to the workspace. */
  async applySaved(file: string, args: Pick<RunArgs, 'allow' | 'debug'> = {}): Promise<EngineRun> {
    const out = new RunOutput(this.clock, this.env, undefined);
    const io = out.io();
    const path = this.path(file);
    const plan = decodePlanFile(readFileSync(path, 'utf8'));
    if (typeof plan === 'string') {
      io.err(`Error: ${file}: ${plan}\n`);
      return out.done(1);
    }
    if (hasErrors(plan.diagnostics)) {
      io.err(`Error: ${file}: the saved plan has errors and cannot be applied\n`);
      return out.done(1, plan);
    }
    const roots = plan.accounts.map((a) => savedPlanRoot(a, path));
    if (roots.some((r) => r === undefined)) {
      io.err(`Error: ${file}: the manifests of an account of the plan are not here\n`);
      return out.done(1, plan);
    }
    // held to the guardrails in force where it is applied (apply-command.ts, `guardSaved`)
    const sources = new Map<string, string>();
    const rootOf = new Map(plan.accounts.map((a, i) => [a.account, roots[i]]));
    const read = readRunGuardrails(new Map(roots.map((r) => [r!, undefined] as const)), [...(plan.allowed ?? []), ...(args.allow ?? [])], sources);
    if (read.diagnostics.length > 0) {
      io.err(formatDiagnostics(read.diagnostics, sources));
      return out.done(1, plan);
    }
    guardPlan(plan, read.guardrails, this.clock.now(), (a) => rootOf.get(a.account));
    if ((plan.guardrails?.length ?? 0) > 0 || plan.allowed !== undefined) io.err(renderGuardrails(plan, 'apply'));
    if (blockingViolations(plan).length > 0) return out.done(1, plan);
    const sessions = await openAccounts(
      plan.accounts.map((a, i) => ({ key: a.account, root: roots[i]!, endpoint: a.endpoint, ...(a.accountId === undefined ? {} : { accountId: a.accountId }) })),
      this.environment(out, args.debug),
      this.options(),
      'apply',
    );
    if (sessions.diagnostics.length > 0) {
      io.err(formatDiagnostics(sessions.diagnostics, new Map()));
      return out.done(1, plan);
    }
    try {
      const stale = await staleObjects(plan, sessions.sessions);
      if (stale.length > 0) {
        io.err(staleRefusal(stale, plan));
        return out.done(1, plan);
      }
      return out.done(await applyAndReport(io, plan, sessions.sessions, 'apply'), plan);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      io.err(`Error: ${error.describe()}\n`);
      return out.done(1, plan);
    } finally {
      await sessions.close();
    }
  }

  /** `adsctl show PLANFILE` (show-command.ts): the saved plan rendered as `format`, without colour; `file` relative to the workspace unless absolute. */
  show(file: string, format: PlanFormat = 'text'): EngineRun {
    const out = new RunOutput(this.clock, this.env, undefined);
    const plan = readSavedPlan(this.path(file));
    if (typeof plan === 'string') {
      out.io().err(`Error: ${file}: ${plan}\n`);
      return out.done(1);
    }
    for (const piece of renderPlanPieces(plan, format, { color: false })) out.io().out(piece);
    return out.done(0, plan);
  }

  /** `adsctl apply --refresh-only` (apply-refresh-only.ts). */
  async applyRefreshOnly(args: ApplyArgs = {}): Promise<EngineRun> {
    const operation = 'apply --refresh-only';
    const out = new RunOutput(this.clock, this.env, args.answer);
    const io = out.io();
    const prepared = await this.prepare(out, args, 'plan', operation);
    if (prepared === undefined) return out.done(out.code);
    const { sessions, sources } = prepared;
    try {
      const scope = { targeted: (args.target?.length ?? 0) > 0 };
      const plan = acceptedScope(prepared.plan, scope);
      io.out(renderRefreshOnly(plan, 'text', { color: false, sources }));
      if (hasErrors(plan.diagnostics)) return out.done(1, plan);
      if (!hasDrift(plan)) return out.done(0, plan);
      const question = 'Would you like to update the adsctl state to reflect these detected changes?\n  adsctl will write these changes to the state without changing anything in the accounts.';
      if (!(await approved(io, args.answer === undefined, question, 'apply'))) return out.done(1, plan);
      const outcomes = await acceptLiveAccounts(plan, sessions.sessions, scope, operation);
      const failed = outcomes.filter((o) => o.error !== undefined || o.lockLost !== undefined);
      for (const o of failed) io.err(o.lockLost !== undefined ? `Error: ${o.lockLost}. The state of account ${o.account} was not written and nothing was sent to the service; run adsctl apply --refresh-only again.\n` : `Error: ${o.error}\n`);
      if (failed.length < outcomes.length) (failed.length === 0 ? io.out : io.err)(`\n${completeLine(outcomes)}`);
      return out.done(failed.length > 0 ? 1 : 0, plan);
    } finally {
      await sessions.close();
    }
  }

  /** `adsctl state show ADDRESS` in the workspace (state-command.ts): the engine's `showState` on the backend of the workspace's root. */
  async stateShow(address: string): Promise<EngineRun> {
    const out = new RunOutput(this.clock, this.env, undefined);
    const store = await openStore(this.dir, this.env, this.clock);
    if ('severity' in store) {
      out.io().err(formatDiagnostics([store], new Map()));
      return out.done(1);
    }
    try {
      return out.done((await showState(out.io(), { path: this.dir, lockTimeout: 0 }, [store], address)) ? 0 : 1);
    } finally {
      await store.close();
    }
  }

  /** The bindings of an account's state file, address → id (what `adsctl state list` prints; none before the first apply). */
  bindings(account: string): Map<string, string> {
    const path = join(stateDirOf(this.dir), `${account}.json`);
    if (!existsSync(path)) return new Map();
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { resources: Record<string, { id: string }> };
    return new Map(Object.entries(doc.resources).map(([address, entry]) => [address, entry.id]));
  }

  /** The versions kept of an account's state, newest first (`adsctl state history --account KEY`). */
  async history(account: string): Promise<StateVersion[]> {
    const store = new LocalStore(stateDirOf(this.dir), cacheDirOf(this.dir), this.clock);
    try {
      return await store.history(account);
    } finally {
      await store.close();
    }
  }

  /** `file` relative to the workspace, made absolute. */
  path(file: string): string {
    return isAbsolute(file) ? file : resolve(join(this.dir, file));
  }
}

/** Awaits `run` and expects the exit code the command would set (its output is the failure message). */
export async function expectCode(run: Promise<EngineRun>, code: number): Promise<EngineRun> {
  const done = await run;
  expect(done.code, `exit ${done.code}\n--- stdout\n${done.stdout}\n--- stderr\n${done.stderr}`).toBe(code);
  return done;
}

/** A workspace with `account.yaml` = `yaml` wired to the emulator of `info`, its runs at `clock`. */
export function createEngineWorkspace(info: StartupInfo, yaml: string, clock: ManualClock = manualClock()): EngineWorkspace {
  return new EngineWorkspace(createWorkspace(info, yaml), clock);
}

/**
 * The state backend `root`'s adsctl.yaml names, as src/cli/state-store.ts opens it (local files, or
 * PostgreSQL at the connection string of the variable it names, from the workspace's `env`), but
 * without the exit hooks that release a process's locks: the runs here release their own.
 */
async function openStore(root: string, env: NodeJS.ProcessEnv, clock: Clock): Promise<StateStore | Diagnostic> {
  const { config, diagnostics } = readStateConfig(root);
  if (config === undefined) return diagnostics[0]!;
  if (config.backend === 'local') return new LocalStore(stateDirOf(root), cacheDirOf(root), clock);
  const connectionString = env[config.connectionStringEnv];
  if (connectionString === undefined || connectionString === '') throw new Error(`${root} keeps its state in PostgreSQL, and the workspace's ${config.connectionStringEnv} is not set`);
  const { PostgresStore } = await import('../../src/state/postgres/store.js');
  return PostgresStore.open({ connectionString, schema: config.schema, clock });
}

/** execute.ts, `applyAndReport` without signals: the progress lines, each account's outcome and the summary; the exit code. */
async function applyAndReport(io: Io, plan: Plan, sessions: readonly AccountSession[], verb: 'apply' | 'destroy'): Promise<number> {
  const progress = progressPrinter(io, false, { plan });
  const result = await applyAccounts(plan, sessions, { onEvent: progress, operation: runOperation(verb, plan) }).finally(progress.flush);
  const perAccount = renderAccountOutcomes(result.accounts, verb);
  const lost = result.accounts.flatMap((a) => (a.lockLost === undefined ? [] : [a.lockLost]));
  if (lost.length > 0) {
    const blocks = result.errors.map((e) => `Error: ${e.address}: ${e.message}\n\n`).join('');
    io.err(`\n${blocks}Error: ${lockLostMessage(lost.join('; '), verb)}\n`);
    return 1;
  }
  const outcome = `${perAccount.lines}\n${(verb === 'destroy' ? renderDestroyOutcome : renderApplyOutcome)(result)}\n${perAccount.failed}`;
  if (result.errors.length === 0) io.out(outcome);
  else io.err(outcome);
  return result.errors.length > 0 ? 1 : 0;
}
