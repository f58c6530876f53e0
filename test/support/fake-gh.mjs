#!/usr/bin/env node
/**
 * A stand-in for the GitHub CLI in tests of the example workflows (test/e2e/gitops-example.test.ts):
 * the commands they run, with gh's output, against `state.json` in the directory FAKE_GH_STATE
 * names — workflow runs (`{ databaseId, workflow, headSha, conclusion }`, written by the test),
 * their artifacts (`artifacts/<run id>/<name>/`), labels and issues. Any other command or flag
 * exits 64 naming it, so a workflow that starts using one fails its test instead of reading an
 * empty answer. Like gh, it refuses to run without GH_TOKEN.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [group, command, ...args] = process.argv.slice(2);

function fail(code, message) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const dir = process.env.FAKE_GH_STATE;
if (dir === undefined || dir === '') fail(64, 'fake gh: FAKE_GH_STATE is not set');
if ((process.env.GH_TOKEN ?? '') === '') fail(4, 'To get started with GitHub CLI, please run:  gh auth login');
const file = join(dir, 'state.json');
const state = JSON.parse(readFileSync(file, 'utf8'));
const save = () => writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);

/** The flags (each with a value) and positional arguments of `args`; a flag not in `known` is refused. */
function parse(known) {
  const flags = {};
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) positional.push(arg);
    else if (known.includes(arg.slice(2))) flags[arg.slice(2)] = args[++i];
    else fail(64, `fake gh: ${group} ${command}: ${arg} is not supported`);
  }
  return { flags, positional };
}

/** Prints what `--json FIELD --jq '.[0].FIELD'` prints: the first item's field, or an empty line when there is none. */
function printFirst(items, flags, field) {
  if (flags.json !== field || flags.jq !== `.[0].${field}`) fail(64, `fake gh: ${group} ${command}: only --json ${field} --jq '.[0].${field}' is supported`);
  const limited = items.slice(0, Number(flags.limit ?? 30));
  process.stdout.write(`${limited[0]?.[field] ?? ''}\n`);
}

function issue(number) {
  const found = state.issues.find((i) => String(i.number) === number);
  if (found === undefined) fail(1, `GraphQL: Could not resolve to an issue or pull request with the number of ${number}.`);
  return found;
}

const commands = {
  'run list': () => {
    const { flags } = parse(['workflow', 'commit', 'branch', 'status', 'limit', 'json', 'jq']);
    const runs = state.runs
      .filter((r) => (flags.workflow === undefined || r.workflow === flags.workflow) && (flags.commit === undefined || r.headSha === flags.commit) && (flags.branch === undefined || r.branch === flags.branch) && (flags.status === undefined || r.conclusion === flags.status))
      .sort((a, b) => b.databaseId - a.databaseId);
    printFirst(runs, flags, 'databaseId');
  },
  'run download': () => {
    const { flags, positional } = parse(['name']);
    const from = join(dir, 'artifacts', String(positional[0]), String(flags.name));
    if (!existsSync(from)) fail(1, `no artifact matches any of the names or patterns provided`);
    cpSync(from, process.cwd(), { recursive: true });
  },
  'label create': () => {
    const { positional } = parse(['color', 'description']);
    if (state.labels.includes(positional[0])) fail(1, `label with name "${positional[0]}" already exists; use \`--force\` to update its color and description`);
    state.labels.push(positional[0]);
    save();
  },
  'issue list': () => {
    const { flags } = parse(['label', 'state', 'limit', 'json', 'jq']);
    const issues = state.issues.filter((i) => (flags.label === undefined || i.labels.includes(flags.label)) && (flags.state === undefined || i.state === flags.state)).sort((a, b) => b.number - a.number);
    printFirst(issues, flags, 'number');
  },
  'issue create': () => {
    const { flags } = parse(['title', 'label', 'body-file']);
    if (flags.label !== undefined && !state.labels.includes(flags.label)) fail(1, `could not add label: '${flags.label}' not found`);
    const number = state.issues.length + 1;
    state.issues.push({ number, title: flags.title, labels: flags.label === undefined ? [] : [flags.label], state: 'open', body: readFileSync(flags['body-file'], 'utf8'), comments: [] });
    save();
    process.stdout.write(`https://github.com/example/accounts/issues/${number}\n`);
  },
  'issue edit': () => {
    const { flags, positional } = parse(['body-file']);
    issue(positional[0]).body = readFileSync(flags['body-file'], 'utf8');
    save();
  },
  'issue comment': () => {
    const { flags, positional } = parse(['body']);
    issue(positional[0]).comments.push(flags.body);
    save();
  },
  'issue close': () => {
    const { flags, positional } = parse(['comment']);
    const closing = issue(positional[0]);
    if (flags.comment !== undefined) closing.comments.push(flags.comment);
    closing.state = 'closed';
    save();
  },
};

const run = commands[`${group} ${command}`];
if (run === undefined) fail(64, `fake gh: "gh ${group} ${command}" is not supported`);
run();
