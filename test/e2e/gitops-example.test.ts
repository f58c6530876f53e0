/**
 * The GitOps example (examples/gitops) run as GitHub would run it, against the emulator, so it
 * cannot rot unnoticed: its three workflow files are parsed with `yaml` and each job's steps run
 * in order (test/support/workflow-run.ts), `run:` steps in bash in a checkout of a temporary git
 * repository whose `origin` is a bare repository beside it.
 *
 * A pull request adds a campaign whose budget is mistyped: the plan job comments the error at its
 * line and fails. Corrected, the budget is over the example's guardrail (accounts/adsctl.yaml):
 * the plan job comments the Markdown, guardrail table included, and its last step fails with
 * plan's exit code. The author lowers the budget: the plan passes and keeps plan.bin. Merged, the apply job
 * applies that plan and pushes the state. A budget changed by hand through the API makes the
 * nightly drift job open an issue whose body is the digest, and fail (exit 2); put back by hand,
 * the next drift job closes the issue and passes, and a plan finds no changes.
 *
 * First the files are held to test/support/gitops-example.ts: adsctl installed pinned — a git URL
 * at a 40-hex commit, or a tarball checked against its sha512 integrity — never by its bare name
 * from the registry (`npm install --global adsctl`, `npx adsctl@latest`); the comment step, the
 * drift issue step and the step that fails the job as plan exited run `if: always()`. A copy of
 * the example with those undone is shown to fail the same checks.
 *
 * What stands in for GitHub here:
 * - The install step is not run (nothing is fetched): its text is checked to be pinned, and
 *   `adsctl` on PATH is a shim that runs this repository's build (bin/adsctl.js; `npx tsc -p
 *   tsconfig.json` first); `npm` and `npx` on PATH refuse to run.
 * - `uses:` steps: actions/checkout clones the temporary origin at the pull request's head (its
 *   base has not moved: the tree of GitHub's merge commit), at `with.ref`, else at main;
 *   actions/setup-node does nothing; actions/cache, cache/restore and cache/save copy their `path`
 *   to and from a directory (test/support/actions-cache.ts; actions/cache saves after the job when
 *   it succeeded, as GitHub's does);
 *   actions/upload-artifact keeps its file under the run's id; marocchino/sticky-pull-request-comment
 *   checks its `if:` holds `always()` and the file it posts exists, and keeps it as the comment.
 * - `gh` is test/support/fake-gh.mjs, over the runs this file records, their artifacts, and issues.
 * - GitHub expressions in `if:`, `run:` and `env:` are evaluated (test/support/workflow-expressions.ts)
 *   with `steps.<id>.outputs.*` and `steps.<id>.outcome` of the run, and this substitution table;
 *   any other expression fails the test, naming it:
 *     secrets.ADSCTL_CONSUMER_KEY, secrets.ADSCTL_CONSUMER_SECRET,
 *     secrets.ADSCTL_ACCESS_TOKEN, secrets.ADSCTL_ACCESS_TOKEN_SECRET   the emulator's credentials
 *     github.token                          a fake token (fake gh requires GH_TOKEN)
 *     github.event.pull_request.number      7                        (pull_request events)
 *     github.event.pull_request.head.sha    the head commit          (pull_request events)
 *     github.event.pull_request.merged      false; true when merged  (pull_request events)
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { actionsCache } from '../support/actions-cache.js';
import { BIN } from '../support/cli.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { listAll, seededAccountHead, stepsInOrder, transcript } from '../support/e2e.js';
import { runCli } from '../support/run-cli.js';
import { EXAMPLE, exampleProblems, isInstall, onlyJob, pinProblem, plainEnv, readWorkflow, STICKY_COMMENT, type WorkflowFile } from '../support/gitops-example.js';
import { clockEnv } from '../support/test-clock.js';
import type { ExpressionValue } from '../support/workflow-expressions.js';
import { jobTranscript, runJob, type JobResult, type StepStandIn, type WorkflowStep } from '../support/workflow-run.js';

const FAKE_GH = join(import.meta.dirname, '..', 'support', 'fake-gh.mjs');
const ACCOUNT = '18ce54d4x5t';
const PR = 7;
const BRANCH = 'summer-sale';

let emulator: RunningEmulator;
let client: TestClient;
let root: string;
let origin: string;
let seed: string;
let home: string;
let ghState: string;
let cacheStore: string;
let cache: ReturnType<typeof actionsCache>;
let lastRunId = 1000;
const comments = new Map<number, string>();
const heads: string[] = [];

const gitEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'], HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Author', GIT_AUTHOR_EMAIL: 'author@example.com', GIT_COMMITTER_NAME: 'Author', GIT_COMMITTER_EMAIL: 'author@example.com' });
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8' }).trim();

/** The example's account: a paused brand campaign, and the summer sale at `summer` a day when given. */
const manifest = (summer?: string): string => `${seededAccountHead(emulator.info.base_url, ACCOUNT)}campaigns:
  brand:
    name: US-Brand
    funding_instrument: main
    daily_budget: "20.00"
    entity_status: PAUSED
${
  summer === undefined
    ? ''
    : `  summer_sale:
    name: US-Summer Sale
    funding_instrument: main
    daily_budget: "${summer}"
    entity_status: PAUSED
`
}`;

interface GhState {
  runs: Array<{ databaseId: number; workflow: string; headSha: string | undefined; branch: string | undefined; conclusion: string }>;
  labels: string[];
  issues: Array<{ number: number; title: string; labels: string[]; state: string; body: string; comments: string[] }>;
}
const readGh = (): GhState => JSON.parse(readFileSync(join(ghState, 'state.json'), 'utf8')) as GhState;
const writeGh = (state: GhState): void => writeFileSync(join(ghState, 'state.json'), JSON.stringify(state, null, 2));

type GitHubEvent = { name: 'pull_request'; headSha: string; merged: boolean } | { name: 'schedule' };

function contextsFor(event: GitHubEvent): Record<string, ExpressionValue> {
  const table: Record<string, ExpressionValue> = {
    'secrets.ADSCTL_CONSUMER_KEY': emulator.info.consumer_key,
    'secrets.ADSCTL_CONSUMER_SECRET': emulator.info.consumer_secret,
    'secrets.ADSCTL_ACCESS_TOKEN': emulator.info.access_token,
    'secrets.ADSCTL_ACCESS_TOKEN_SECRET': emulator.info.access_token_secret,
    'github.token': 'fake-token-of-the-test',
  };
  if (event.name === 'pull_request') {
    table['github.event.pull_request.number'] = PR;
    table['github.event.pull_request.head.sha'] = event.headSha;
    table['github.event.pull_request.merged'] = event.merged;
  }
  return table;
}

/** What stands in for `step` in run `runId` of `event` (see the file comment), or undefined to run it in bash. */
function standInFor(step: WorkflowStep, event: GitHubEvent, runId: number, env: Record<string, string>): StepStandIn | undefined {
  if (isInstall(step)) {
    return () => {
      expect(pinProblem(step.run!, env), step.run).toBeUndefined();
    };
  }
  const action = step.uses?.replace(/@.*$/, '');
  switch (action) {
    case undefined:
      return undefined;
    case 'actions/checkout':
      return ({ workdir }) => {
        git(workdir, 'clone', '-q', origin, '.');
        const ref = step.with?.['ref'] ?? (event.name === 'pull_request' ? event.headSha : 'main');
        git(workdir, 'checkout', '-q', String(ref));
      };
    case 'actions/setup-node':
      return () => {};
    case 'actions/cache':
      return ({ workdir, afterJob }) => {
        cache.restore(step, workdir);
        afterJob((succeeded) => (succeeded ? cache.save(step, workdir) : undefined));
      };
    case 'actions/cache/restore':
      return ({ workdir }) => cache.restore(step, workdir);
    case 'actions/cache/save':
      return ({ workdir }) => cache.save(step, workdir);
    case 'actions/upload-artifact':
      return ({ workdir }) => {
        const path = String(step.with?.['path']);
        expect(existsSync(join(workdir, path)), `the artifact ${path}`).toBe(true);
        const into = join(ghState, 'artifacts', String(runId), String(step.with?.['name']));
        mkdirSync(into, { recursive: true });
        cpSync(join(workdir, path), join(into, path));
      };
    case STICKY_COMMENT:
      return ({ workdir }) => {
        expect(step.if, 'the comment step posts whatever plan exits').toMatch(/\balways\(\)/);
        const path = join(workdir, String(step.with?.['path']));
        expect(existsSync(path), `the comment file ${path}`).toBe(true);
        if (event.name === 'pull_request') comments.set(PR, readFileSync(path, 'utf8'));
      };
    default:
      return undefined;
  }
}

/** Runs the one job of `file` for `event`, records the run for fake gh, and returns its result. */
async function runWorkflow(file: WorkflowFile, event: GitHubEvent): Promise<JobResult> {
  const { workflow } = readWorkflow(file);
  const [jobId, job] = onlyJob(workflow);
  const runId = ++lastRunId;
  const temp = mkdtempSync(join(root, `${file}-${runId}-`));
  const workdir = join(temp, 'workspace');
  mkdirSync(workdir);
  const env: NodeJS.ProcessEnv = { ...clockEnv(), PATH: `${join(root, 'bin')}:${process.env['PATH'] ?? ''}`, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', FAKE_GH_STATE: ghState };
  const result = await runJob({
    workflow,
    jobId,
    workdir,
    temp,
    env,
    contexts: contextsFor(event),
    standIn: (step) => standInFor(step, event, runId, plainEnv(workflow.env, job.env, step.env)),
  });
  const state = readGh();
  state.runs.push({ databaseId: runId, workflow: file, headSha: event.name === 'pull_request' ? event.headSha : undefined, branch: event.name === 'pull_request' ? BRANCH : 'main', conclusion: result.conclusion });
  writeGh(state);
  return result;
}

/** Commits the manifest with `summer` on the pull request's branch and pushes it; the head commit. */
function pushToPullRequest(summer: string, message: string): string {
  writeFileSync(join(seed, 'accounts', 'brand.yaml'), manifest(summer));
  git(seed, 'commit', '-q', '-am', message);
  git(seed, 'push', '-q', 'origin', BRANCH);
  const head = git(seed, 'rev-parse', 'HEAD');
  heads.push(head);
  return head;
}

async function summerSale(): Promise<Record<string, any>> {
  const campaigns = await listAll(client, `/12/accounts/${ACCOUNT}/campaigns`, { with_draft: true });
  const found = campaigns.filter((c) => c['name'] === 'US-Summer Sale');
  expect(found, JSON.stringify(campaigns)).toHaveLength(1);
  return found[0]!;
}

async function setSummerBudget(micros: number): Promise<void> {
  const changed = await client.put(`/12/accounts/${ACCOUNT}/campaigns/${String((await summerSale())['id'])}`, { daily_budget_amount_local_micro: micros }, { as: 'form' });
  expect(changed.status, changed.text).toBe(200);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator());
  root = mkdtempSync(join(tmpdir(), 'adsctl-gitops-'));
  home = join(root, 'home');
  ghState = join(root, 'github');
  cacheStore = join(root, 'actions-cache');
  for (const d of [home, ghState, cacheStore, join(root, 'bin')]) mkdirSync(d);
  cache = actionsCache(cacheStore);
  writeGh({ runs: [], labels: [], issues: [] });
  const shim = (name: string, body: string): void => {
    writeFileSync(join(root, 'bin', name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(root, 'bin', name), 0o755);
  };
  shim('adsctl', `exec '${process.execPath}' '${BIN}' "$@"`);
  shim('gh', `exec '${process.execPath}' '${FAKE_GH}' "$@"`);
  for (const name of ['npm', 'npx']) shim(name, `echo "${name}: this test installs nothing; adsctl on PATH is the repository's build" >&2; exit 97`);

  origin = join(root, 'origin.git');
  seed = join(root, 'author');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env: gitEnv() });
  execFileSync('git', ['init', '-q', '-b', 'main', seed], { env: gitEnv() });
  git(seed, 'remote', 'add', 'origin', origin);
  cpSync(join(EXAMPLE, '.github'), join(seed, '.github'), { recursive: true });
  cpSync(join(EXAMPLE, '.gitignore'), join(seed, '.gitignore'));
  cpSync(join(EXAMPLE, 'accounts'), join(seed, 'accounts'), { recursive: true });
  writeFileSync(join(seed, 'accounts', 'brand.yaml'), manifest());
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'The accounts, their guardrails and the workflows');
  git(seed, 'push', '-q', 'origin', 'main');
  git(seed, 'checkout', '-q', '-b', BRANCH);
});
afterAll(async () => {
  await emulator?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});
stepsInOrder();

describe('examples/gitops', () => {
  it('installs adsctl at a pinned commit, never by its bare name, and comments whatever plan exits', () => {
    expect(exampleProblems()).toEqual([]);
    // the checks themselves: each refuses what it is there to refuse
    const commit = 'a'.repeat(40);
    expect(pinProblem('npm install --global adsctl', {})).toBe('installs adsctl by its bare name from the registry');
    expect(pinProblem('npm i -g adsctl@0.1.0', {})).toBe('installs adsctl by its bare name from the registry');
    expect(pinProblem('npx adsctl@latest plan accounts', {})).toBe('installs adsctl by its bare name from the registry');
    expect(pinProblem('npm install --global "git+$R#$REF"', { R: 'https://github.com/o/adsctl.git', REF: 'main' })).toMatch(/neither a git URL at a 40-hex commit/);
    expect(pinProblem('npm install --global git+https://github.com/o/adsctl.git', {})).toMatch(/neither/);
    expect(pinProblem('npm install --global ./adsctl-0.1.0.tgz', {})).toBe('installs a tarball without checking its sha512 integrity');
    expect(pinProblem('npm install --global "git+$R#$REF"', { R: 'https://github.com/o/adsctl.git', REF: commit })).toBeUndefined();
    const tarball = 'test "sha512-$(openssl dgst -sha512 -binary adsctl-0.1.0.tgz | base64 -w0)" = "$SUM"\nnpm install --global ./adsctl-0.1.0.tgz';
    expect(pinProblem(tarball, { SUM: 'sha512-abc' })).toBeUndefined();
  });

  it('those checks fail when a workflow goes back to the registry name or its comment step loses if: always()', () => {
    const copy = join(root, 'example-regressed');
    cpSync(EXAMPLE, copy, { recursive: true });
    const edit = (file: WorkflowFile, from: RegExp, to: string): void => {
      const path = join(copy, '.github', 'workflows', file);
      const text = readFileSync(path, 'utf8');
      expect(text, `${file} holds ${from.source}`).toMatch(from);
      writeFileSync(path, text.replace(from, to));
    };
    edit('apply.yml', /npm install --global "git\+\$ADSCTL_REPO#\$ADSCTL_REF"/, 'npm install --global adsctl');
    edit('drift.yml', /- name: Install adsctl at the pinned commit\n(\s+#.*\n)*\s+run: \|(\n\s{10}.*)+/, '- run: npx adsctl@latest --version');
    edit('plan.yml', /(Comment the plan, whatever plan exited with\n(\s+#.*\n)*\s+)if: always\(\) && /, '$1if: ');
    expect(exampleProblems(copy)).toEqual([
      'apply.yml: installs adsctl by its bare name from the registry: npm install --global adsctl',
      'apply.yml: "Install adsctl at the pinned commit" installs adsctl by its bare name from the registry',
      'drift.yml: installs adsctl by its bare name from the registry: - run: npx adsctl@latest --version',
      'drift.yml: "npx adsctl@latest --version" installs adsctl by its bare name from the registry',
      "plan.yml: the comment step is not if: always() (if: steps.plan.outcome == 'success'), so a plan that fails posts nothing",
    ]);
  });

  it('an expression not in the substitution table fails the run, naming it', async () => {
    const workflow = { name: 'unknown expression', jobs: { only: { steps: [{ run: 'echo "${{ github.event.pull_request.title }}"' }] } } };
    const temp = mkdtempSync(join(root, 'unknown-'));
    mkdirSync(join(temp, 'workspace'));
    const run = runJob({ workflow, jobId: 'only', workdir: join(temp, 'workspace'), temp, env: {}, contexts: contextsFor({ name: 'pull_request', headSha: 'f'.repeat(40), merged: false }), standIn: () => undefined });
    await expect(run).rejects.toThrow('unknown expression: the expression github.event.pull_request.title is not in the substitution table the test gives');
  });

  it('a pull request with a manifest error: the comment names it at its line, and the job fails', async () => {
    const head = pushToPullRequest('2.500,00', 'The summer sale');
    const job = await runWorkflow('plan.yml', { name: 'pull_request', headSha: head, merged: false });
    const log = jobTranscript(job);
    expect(job.conclusion, log).toBe('failure');
    expect(comments.get(PR) ?? '', log).toMatch(/^## adsctl plan\n\n\*\*Planning failed \(exit 1\):\*\*\n\n```\naccounts\/brand\.yaml:\d+:\d+: error money-format: daily_budget "2\.500,00" /);
    const last = job.steps.at(-1)!;
    expect([last.label, last.outcome, last.code], log).toEqual(['Fail the job as the plan did', 'failure', 1]);
  });

  it('a pull request over a guardrail: the comment has the guardrail table, and the job fails as plan exited', async () => {
    const head = pushToPullRequest('2500.00', 'The summer sale at 2500.00 a day');
    const job = await runWorkflow('plan.yml', { name: 'pull_request', headSha: head, merged: false });
    const log = jobTranscript(job);
    expect(job.conclusion, log).toBe('failure');
    const plan = job.steps.find((s) => s.step.id === 'plan')!;
    expect(plan.outcome, log).toBe('success');
    expect(plan.stderr, log).toContain('error  max_daily_budget  campaigns.summer_sale  daily_budget = 2500.00 USD  limit 1000.00 USD');
    expect(job.step('Keep the plan for apply.yml, which applies it on merge').outcome, log).toBe('skipped');
    expect(job.step('Comment the plan, whatever plan exited with').outcome, log).toBe('success');
    const comment = comments.get(PR) ?? '';
    expect(comment).toContain('**Planning failed: 1 mandatory guardrail of adsctl.yaml violated. This plan cannot be applied.**');
    expect(comment).toContain('### Guardrails\n\n| | Rule | Address | Value | Limit |\n| --- | --- | --- | --- | --- |\n| **mandatory** | max\\_daily\\_budget | campaigns.summer\\_sale | daily\\_budget = 2500.00 USD | 1000.00 USD |\n');
    const last = job.steps.at(-1)!;
    expect([last.label, last.outcome, last.code], log).toEqual(['Fail the job as the plan did', 'failure', 1]);
    expect(existsSync(join(ghState, 'artifacts', String(lastRunId))), 'no plan is kept from a failed plan').toBe(false);
  });

  it('the budget lowered: the plan passes, comments the plan and keeps plan.bin', async () => {
    const head = pushToPullRequest('250.00', 'The summer sale at 250.00 a day, within the guardrail');
    const job = await runWorkflow('plan.yml', { name: 'pull_request', headSha: head, merged: false });
    const log = jobTranscript(job);
    expect(job.conclusion, log).toBe('success');
    expect(job.steps.every((s) => s.outcome === 'success'), log).toBe(true);
    const comment = comments.get(PR) ?? '';
    expect(comment).toContain('**Plan: 2 to add, 0 to change, 0 to destroy.**');
    expect(comment).toMatch(/daily_budget += 250\.00 USD/);
    expect(comment).not.toContain('### Guardrails');
    expect(existsSync(join(ghState, 'artifacts', String(lastRunId), 'adsctl-plan', 'plan.bin'))).toBe(true);
    // the lookups adsctl cached are where the workflows' actions/cache keeps them for the next run
    const cached = join(cacheStore, encodeURIComponent('accounts/.adsctl/cache'), 'accounts', '.adsctl', 'cache');
    expect(existsSync(cached) && readdirSync(cached).length > 0, cached).toBe(true);
  });

  it('merged: the apply job applies the reviewed plan and pushes the state', async () => {
    git(seed, 'checkout', '-q', 'main');
    git(seed, 'merge', '-q', '--no-ff', '--no-edit', BRANCH);
    git(seed, 'push', '-q', 'origin', 'main');
    const job = await runWorkflow('apply.yml', { name: 'pull_request', headSha: heads.at(-1)!, merged: true });
    const log = jobTranscript(job);
    expect(job.conclusion, log).toBe('success');
    expect(job.step('Apply exactly that plan').stdout, log).toContain('Apply complete!');
    expect((await summerSale())['daily_budget_amount_local_micro']).toBe(250_000_000);
    expect(git(origin, 'log', '-1', '--format=%s', 'main')).toBe(`adsctl state after applying #${PR}`);
    const committed = git(origin, 'ls-tree', '-r', '--name-only', 'main', 'accounts/.adsctl').split('\n');
    expect(committed).toContain(`accounts/.adsctl/state/${ACCOUNT}.json`);
    expect(committed.filter((f) => !f.startsWith('accounts/.adsctl/state/') || /\.(generation|members)(\/|$)/.test(f)), 'only the state is committed').toEqual([]);
  });

  it('a budget changed by hand: the nightly drift job puts the digest in an issue and fails with exit 2', async () => {
    await setSummerBudget(100_000_000);
    const job = await runWorkflow('drift.yml', { name: 'schedule' });
    const log = jobTranscript(job);
    expect(job.conclusion, log).toBe('failure');
    const last = job.steps.at(-1)!;
    expect([last.label, last.outcome, last.code], log).toEqual(['Fail the job as the plan did (2 drift, 1 an error)', 'failure', 2]);
    expect(job.step('Keep one issue up to date, its body the digest').outcome, log).toBe('success');
    const issues = readGh().issues;
    expect(issues.map((i) => [i.labels, i.state]), log).toEqual([[['adsctl-drift'], 'open']]);
    const body = issues[0]!.body;
    expect(body.startsWith('## adsctl drift report\n\n**1 of 1 account changed outside adsctl since the last apply.**\n'), body).toBe(true);
    expect(body).toContain('campaigns.summer_sale: daily_budget 250.00 USD -> 100.00 USD');
    expect(job.summary).toBe(body);
  });

  it('put back by hand: the drift job closes the issue and passes, and a plan finds no changes', async () => {
    await setSummerBudget(250_000_000);
    const job = await runWorkflow('drift.yml', { name: 'schedule' });
    const log = jobTranscript(job);
    expect(job.conclusion, log).toBe('success');
    expect(job.step('Close the issue once the accounts match again').outcome, log).toBe('success');
    const issues = readGh().issues;
    expect(issues.map((i) => i.state)).toEqual(['closed']);
    expect(issues[0]!.comments.at(-1)).toMatch(/^No drift on \d{4}-\d{2}-\d{2}\.$/);
    const checkout = join(root, 'final');
    git(root, 'clone', '-q', origin, checkout);
    const env = { ...clockEnv(), HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ADSCTL_CONSUMER_KEY: emulator.info.consumer_key, ADSCTL_CONSUMER_SECRET: emulator.info.consumer_secret, ADSCTL_ACCESS_TOKEN: emulator.info.access_token, ADSCTL_ACCESS_TOKEN_SECRET: emulator.info.access_token_secret };
    const plan = await runCli(['plan', 'accounts', '--detailed-exitcode', '--no-color'], { cwd: checkout, env });
    expect(plan.code, transcript(plan)).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });
});
