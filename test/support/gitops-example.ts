/**
 * What examples/gitops must hold before its workflows are run (test/e2e/gitops-example.test.ts):
 * each installs adsctl pinned — a git URL at a 40-hex commit, or a tarball checked against its
 * sha512 integrity — and never by its bare name from the npm registry, where anyone may publish
 * it; the plan's comment, the drift issue and the step that fails the job as plan exited run
 * `if: always()`. The checks read the workflow files of a directory, so a test can hold a changed
 * copy to them and see them fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { stepLabel, type Workflow, type WorkflowJob, type WorkflowStep } from './workflow-run.js';

/** The example's directory in this repository. */
export const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'gitops');
export const WORKFLOWS = ['plan.yml', 'apply.yml', 'drift.yml'] as const;
export type WorkflowFile = (typeof WORKFLOWS)[number];
/** The action that posts the plan as a pull-request comment. */
export const STICKY_COMMENT = 'marocchino/sticky-pull-request-comment';

const GIT_AT_COMMIT = /^git\+https:\/\/github\.com\/[^/\s]+\/[^/\s#]+\.git#[0-9a-f]{40}$/;
const SHA512_CHECK = /\b(?:sha512sum|shasum\s+-a\s*512|openssl\s+dgst\s+-sha512)\b/;

/** A workflow file of `dir`, as text and parsed. */
export function readWorkflow(file: WorkflowFile, dir = EXAMPLE): { text: string; workflow: Workflow } {
  const text = readFileSync(join(dir, '.github', 'workflows', file), 'utf8');
  return { text, workflow: parse(text) as Workflow };
}

/** The id and the job of a workflow that has one job, as each of the example's has. */
export function onlyJob(workflow: Workflow): [string, WorkflowJob] {
  const jobs = Object.entries(workflow.jobs);
  if (jobs.length !== 1) throw new Error(`${workflow.name}: ${jobs.length} jobs, not one`);
  return jobs[0]!;
}

/** Whether a step installs or fetches a package. */
export const isInstall = (step: WorkflowStep): boolean => /\bnpm\s+(?:install|i|add)\b|\bnpx\b/.test(step.run ?? '');

/** `env:` blocks merged, later ones winning, their values as strings. */
export const plainEnv = (...envs: Array<Record<string, string | number | boolean> | undefined>): Record<string, string> =>
  Object.fromEntries(envs.flatMap((e) => Object.entries(e ?? {})).map(([k, v]) => [k, String(v)]));

/**
 * The first line of `text` that installs or runs adsctl by its bare name from the registry
 * (`npm install --global adsctl`, `npm i -g adsctl@0.1.0`, `npx adsctl@latest`).
 */
function byBareName(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/).map((w) => w.replace(/^["'`]+|["'`:;,.)]+$/g, ''));
    for (let i = 0; i < words.length; i++) {
      const npx = words[i] === 'npx';
      if (!npx && !(words[i] === 'npm' && ['install', 'i', 'add'].includes(words[i + 1] ?? ''))) continue;
      const command = words.slice(i + (npx ? 1 : 2));
      const end = command.findIndex((w) => ['&&', '||', ';', '|'].includes(w));
      const packages = command.slice(0, end < 0 ? undefined : end).filter((w) => !w.startsWith('-'));
      // npx runs its first package; npm installs every one it is given
      if ((npx ? packages.slice(0, 1) : packages).some((w) => w === 'adsctl' || w.startsWith('adsctl@'))) return line.trim();
    }
  }
  return undefined;
}

/**
 * Why the install step `run` (its `$VAR`s read from `env`) does not pin adsctl, or undefined when
 * it does: one global `npm install` of a git URL at a 40-hex commit, or of a local tarball after a
 * check of its sha512 integrity in the same step.
 */
export function pinProblem(run: string, env: Record<string, string>): string | undefined {
  if (byBareName(run) !== undefined) return 'installs adsctl by its bare name from the registry';
  const expanded = run.replace(/\$\{?([A-Za-z_]\w*)\}?/g, (whole, name: string) => env[name] ?? whole);
  const installs = [...expanded.matchAll(/\bnpm\s+(?:install|i|add)\b([^\n]*)/g)].map((m) => m[1]!.trim().split(/\s+/));
  if (installs.length !== 1) return `runs ${installs.length} npm installs, not one`;
  const words = installs[0]!;
  if (!words.includes('--global') && !words.includes('-g')) return 'does not install globally';
  const specs = words.filter((w) => !w.startsWith('-')).map((w) => w.replace(/^["']|["']$/g, ''));
  if (specs.length !== 1) return `installs ${specs.length} packages, not one`;
  const spec = specs[0]!;
  if (GIT_AT_COMMIT.test(spec)) return undefined;
  if (/^\.\/[^\s/]+\.tgz$/.test(spec)) return /sha512-/.test(expanded) && SHA512_CHECK.test(expanded) ? undefined : 'installs a tarball without checking its sha512 integrity';
  return `installs "${spec}", neither a git URL at a 40-hex commit nor a checked tarball`;
}

const runsAlways = (step: WorkflowStep | undefined): boolean => /\balways\(\)/.test(step?.if ?? '');

/** What the workflow files of `dir` break of the file comment's rules, one message each (none when they hold). */
export function exampleProblems(dir = EXAMPLE): string[] {
  const problems: string[] = [];
  for (const file of WORKFLOWS) {
    const { text, workflow } = readWorkflow(file, dir);
    const bare = byBareName(text);
    if (bare !== undefined) problems.push(`${file}: installs adsctl by its bare name from the registry: ${bare}`);
    const [jobId, job] = onlyJob(workflow);
    const installs = job.steps.filter(isInstall);
    if (installs.length !== 1) problems.push(`${file}: job ${jobId} has ${installs.length} install steps, not one`);
    for (const step of installs) {
      const problem = pinProblem(step.run!, plainEnv(workflow.env, job.env, step.env));
      if (problem !== undefined) problems.push(`${file}: "${stepLabel(step)}" ${problem}`);
    }
    const last = job.steps.at(-1);
    if (file !== 'apply.yml' && !runsAlways(last)) problems.push(`${file}: the last step ("${last === undefined ? '' : stepLabel(last)}") is not if: always(), so it cannot fail the job as plan exited`);
  }
  const comment = onlyJob(readWorkflow('plan.yml', dir).workflow)[1].steps.find((s) => s.uses?.startsWith(`${STICKY_COMMENT}@`));
  if (comment === undefined) problems.push(`plan.yml: no ${STICKY_COMMENT} step`);
  else if (!runsAlways(comment)) problems.push(`plan.yml: the comment step is not if: always() (if: ${comment.if ?? 'absent'}), so a plan that fails posts nothing`);
  const issue = onlyJob(readWorkflow('drift.yml', dir).workflow)[1].steps.find((s) => /\bgh issue create\b/.test(s.run ?? ''));
  if (issue === undefined) problems.push('drift.yml: no step creates the drift issue');
  else if (!runsAlways(issue)) problems.push(`drift.yml: the issue step is not if: always() (if: ${issue.if ?? 'absent'})`);
  return problems;
}
