/**
 * Runs one job of a GitHub Actions workflow on this machine, for tests of the example workflows
 * (test/e2e/gitops-example.test.ts): its `if:`, then each step in order as GitHub would — `if:`
 * evaluated against the job's status so far, `run:` in `bash --noprofile --norc -e` with the
 * workflow's, the job's and the step's `env:`, `$GITHUB_OUTPUT` read back as `steps.<id>.outputs`
 * and `$GITHUB_STEP_SUMMARY` kept — and what runs after the job (actions/cache's save). What GitHub
 * would do for a `uses:` step, or a `run:` step the test replaces, is a stand-in the caller gives;
 * a `uses:` step without one, or a workflow feature not handled here, is an error naming it, never
 * a step quietly skipped.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conditionHolds, substitute, type ExpressionScope, type ExpressionValue } from './workflow-expressions.js';

export interface WorkflowStep {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string | number | boolean>;
  shell?: string;
}

export interface WorkflowJob {
  if?: string;
  env?: Record<string, string | number | boolean>;
  steps: WorkflowStep[];
}

export interface Workflow {
  name: string;
  env?: Record<string, string | number | boolean>;
  jobs: Record<string, WorkflowJob>;
}

/** What a stand-in sees of the job: where it runs, and a way to act once the job has ended. */
export interface JobContext {
  workdir: string;
  /** Runs `action` after the last step, with whether the job succeeded (as actions' post steps). */
  afterJob(action: (succeeded: boolean) => void | Promise<void>): void;
}

/** Does on this machine what a step does on GitHub; throws (failing the test) on what it checks. */
export type StepStandIn = (job: JobContext) => void | Promise<void>;

export interface StepResult {
  label: string;
  step: WorkflowStep;
  outcome: 'success' | 'failure' | 'skipped';
  /** The exit code of a `run:` step that ran in bash; null otherwise. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface JobResult {
  conclusion: 'success' | 'failure' | 'skipped';
  steps: StepResult[];
  /** What the steps wrote to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The result of the step labelled `label` (its name, else its `uses:` or first `run:` line). */
  step(label: string): StepResult;
}

export interface RunJobOptions {
  workflow: Workflow;
  jobId: string;
  /** An empty directory, the runner's workspace (the checkout stand-in fills it). */
  workdir: string;
  /** A directory for the runner's own files (scripts, $GITHUB_OUTPUT, the summary), outside the workspace. */
  temp: string;
  /** The runner's environment: PATH with the stand-in commands first, HOME, the clock. */
  env: NodeJS.ProcessEnv;
  /** The substitution table: the value of each context path the workflow may read (`secrets.X`, `github.token`). */
  contexts: Record<string, ExpressionValue>;
  standIn(step: WorkflowStep): StepStandIn | undefined;
}

const JOB_KEYS = ['if', 'runs-on', 'env', 'steps', 'permissions', 'concurrency'];
const STEP_KEYS = ['name', 'id', 'if', 'run', 'uses', 'with', 'env', 'shell'];

/** A step's label in results and messages. */
export const stepLabel = (step: WorkflowStep): string => step.name ?? step.uses ?? (step.run ?? '').split('\n')[0]!;

function checkHandled(job: WorkflowJob, jobId: string): void {
  for (const key of Object.keys(job)) if (!JOB_KEYS.includes(key)) throw new Error(`job ${jobId}: "${key}" is not handled by test/support/workflow-run.ts`);
  for (const step of job.steps) {
    for (const key of Object.keys(step)) if (!STEP_KEYS.includes(key)) throw new Error(`step "${stepLabel(step)}": "${key}" is not handled by test/support/workflow-run.ts`);
    if (step.shell !== undefined && step.shell !== 'bash') throw new Error(`step "${stepLabel(step)}": shell ${step.shell} is not handled`);
  }
}

/** The `KEY=value` and `KEY<<DELIMITER` lines of a $GITHUB_OUTPUT file. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`$GITHUB_OUTPUT: ${heredoc[1]} has no closing ${heredoc[2]}`);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    else if (line.trim() !== '') throw new Error(`$GITHUB_OUTPUT: cannot read "${line}"`);
  }
  return out;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['--noprofile', '--norc', '-e', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs job `jobId` of `workflow` as described in the file comment. */
export async function runJob(options: RunJobOptions): Promise<JobResult> {
  const { workflow, jobId, workdir, contexts } = options;
  const job = workflow.jobs[jobId];
  if (job === undefined) throw new Error(`no job ${jobId} in ${workflow.name}`);
  checkHandled(job, jobId);
  const files = mkdtempSync(join(options.temp, 'runner-'));
  const summaryFile = join(files, 'summary.md');
  writeFileSync(summaryFile, '');
  const results: StepResult[] = [];
  const outputs = new Map<string, Record<string, string>>();
  const declared = new Set(job.steps.map((s) => s.id).filter((id): id is string => id !== undefined));
  const scope: ExpressionScope = {
    succeeded: true,
    lookup(path) {
      if (path in contexts) return contexts[path]!;
      const step = /^steps\.([\w-]+)\.(outputs\.([\w-]+)|outcome|conclusion)$/.exec(path);
      if (step && declared.has(step[1]!)) {
        const result = results.find((r) => r.step.id === step[1]);
        if (step[3] !== undefined) return outputs.get(step[1]!)?.[step[3]] ?? '';
        return result?.outcome ?? '';
      }
      throw new Error(`${workflow.name}: the expression ${path} is not in the substitution table the test gives`);
    },
  };
  const byLabel = (l: string): StepResult => {
    const found = results.find((r) => r.label === l);
    if (found === undefined) throw new Error(`no step "${l}" among: ${results.map((r) => r.label).join(' | ')}`);
    return found;
  };
  if (!conditionHolds(job.if, scope)) return { conclusion: 'skipped', steps: [], summary: '', step: byLabel };

  const envOf = (values: Record<string, string | number | boolean> | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, substitute(String(v), scope)]));
  const workflowEnv = envOf(workflow.env);
  const jobEnv = envOf(job.env);
  const after: Array<(succeeded: boolean) => void | Promise<void>> = [];
  const context: JobContext = { workdir, afterJob: (action) => after.push(action) };

  for (const [index, step] of job.steps.entries()) {
    const result: StepResult = { label: stepLabel(step), step, outcome: 'skipped', code: null, stdout: '', stderr: '' };
    results.push(result);
    if (!conditionHolds(step.if, scope)) continue;
    const standIn = options.standIn(step);
    if (standIn !== undefined) {
      await standIn(context);
      result.outcome = 'success';
      continue;
    }
    if (step.run === undefined) throw new Error(`step "${result.label}" (uses: ${String(step.uses)}) has no stand-in in the test`);
    const outputFile = join(files, `output-${index}`);
    const envFile = join(files, `env-${index}`);
    const pathFile = join(files, `path-${index}`);
    const scriptFile = join(files, `step-${index}.sh`);
    for (const f of [outputFile, envFile, pathFile]) writeFileSync(f, '');
    writeFileSync(scriptFile, substitute(step.run, scope));
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      ...workflowEnv,
      ...jobEnv,
      ...envOf(step.env),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workdir,
      GITHUB_OUTPUT: outputFile,
      GITHUB_ENV: envFile,
      GITHUB_PATH: pathFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    };
    const ran = await bash(scriptFile, workdir, env);
    Object.assign(result, ran, { outcome: ran.code === 0 ? 'success' : 'failure' });
    for (const f of [envFile, pathFile]) if (readFileSync(f, 'utf8') !== '') throw new Error(`step "${result.label}" writes ${f === envFile ? '$GITHUB_ENV' : '$GITHUB_PATH'}, which test/support/workflow-run.ts does not handle`);
    if (step.id !== undefined) outputs.set(step.id, parseOutputFile(readFileSync(outputFile, 'utf8')));
    if (ran.code !== 0) scope.succeeded = false;
  }
  for (const action of after.reverse()) await action(scope.succeeded);
  return { conclusion: scope.succeeded ? 'success' : 'failure', steps: results, summary: readFileSync(summaryFile, 'utf8'), step: byLabel };
}

/** A job's steps with their outcomes and output, for an assertion message. */
export function jobTranscript(result: JobResult): string {
  return [`job ${result.conclusion}`, ...result.steps.map((s) => `--- ${s.outcome}${s.code === null ? '' : ` (exit ${s.code})`}: ${s.label}${s.stdout === '' ? '' : `\n${s.stdout}`}${s.stderr === '' ? '' : `\n[stderr]\n${s.stderr}`}`)].join('\n');
}
