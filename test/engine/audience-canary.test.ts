/**
 * Canaries for private identifiers. An audience's member file (emails, phone numbers, handles)
 * and the do-not-reach list's file hold only unique markers drawn from a fixed seed, a few of
 * them invalid (left out with a warning). Through plan, saved plans, show, apply, a second
 * round that removes and adds members, a saved plan refused because the file changed, and
 * destroy — every run with `--debug` where it takes it — no marker may appear, as written,
 * normalised (lower-cased email, E.164 phone, handle without `@`) or by its unique token alone,
 * in any file of the project (`.adsctl/` state, journal, member stores, lookup cache; saved plans),
 * in what the runs print, in `plan --json`, `show --json` or `plan --markdown`. Their SHA-256
 * digests are expected in the member store and the requests; the member store files are mode 0600.
 *
 * The search is shown to work first on the member files themselves and on the normalised forms,
 * and last on a real leak: a marker written into a manifest's description is found in the plan.
 * Through the engine in-process (test/support/engine-harness.ts) against the in-process emulator at
 * a manual clock; what a CLI process prints and leaves behind, its temporary directory included,
 * is test/e2e/audience-canary.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/emulator.js';
import { memberCounts } from '../support/audiences.js';
import { startTestEmulator, type TestClient } from '../support/client.js';
import { canaries, canaryManifest, csv, validIdentifiers, type Line } from '../support/canaries.js';
import { stepsInOrder, transcript } from '../support/e2e.js';
import { createEngineWorkspace, type EngineRun, type EngineWorkspace } from '../support/engine-harness.js';
import { filesUnder, findMarkers, type Haystack } from '../support/leak-scan.js';
import { manualClock } from '../support/manual-clock.js';
import { startUsersRecorder, type UsersRecorder } from '../support/users-recorder.js';

let emulator: RunningEmulator;
let client: TestClient;
let ws: EngineWorkspace;
/** Between adsctl and the emulator, to hold a users request while the test looks at the project. */
let recorder: UsersRecorder;
const clock = manualClock();

const drawn = canaries(0xca7a);
/** Every marker written to any member file so far. */
const markers = drawn.markers;
/** Every output captured so far, by the command that printed it. */
const outputs: Haystack[] = [];

let audienceLines: Line[];

function writeAudience(): void {
  writeFileSync(join(ws.dir, 'data', 'vip.csv'), csv(['email', 'phone_number', 'handle'], audienceLines));
}

/** Awaits the run of `adsctl command`, keeps its output for the scans, and checks its exit code. */
async function adsctl(command: string, run: Promise<EngineRun> | EngineRun, code: number): Promise<EngineRun> {
  const done = await run;
  outputs.push({ name: `stdout of adsctl ${command}`, content: done.stdout }, { name: `stderr of adsctl ${command}`, content: done.stderr });
  expect(done.code, `adsctl ${command}\n${transcript(done)}`).toBe(code);
  return done;
}

/** The project's files but the manifest and the member files themselves: state, journal, stores, cache, saved plans. */
const projectFiles = (): Haystack[] => filesUnder(ws.dir, (path) => path === 'account.yaml' || path === 'data');

/** No marker anywhere: every file of the project now, and every output so far. */
function expectNoMarker(): void {
  expect(findMarkers([...projectFiles(), ...outputs], markers)).toEqual([]);
}

beforeAll(async () => {
  ({ emulator, client } = await startTestEmulator({ clock }));
  ws = createEngineWorkspace(emulator.info, '', clock);
  recorder = await startUsersRecorder(emulator.info.base_url);
  ws.write(canaryManifest(recorder.url));
  mkdirSync(join(ws.dir, 'data'));
  audienceLines = [...drawn.lines(120, true), drawn.invalidLine(), ...drawn.lines(30, true)];
  writeAudience();
  writeFileSync(join(ws.dir, 'data', 'opt-outs.csv'), csv(['email', 'phone_number'], drawn.lines(40, false)));
});
afterAll(async () => {
  await recorder.close();
  await emulator.close();
  ws.remove();
});
stepsInOrder();

describe('canary identifiers never leave the member files', () => {
  it('the search finds every marker in the member files, and every normalised form', () => {
    const files = filesUnder(join(ws.dir, 'data'));
    // each marker's written form is in a member file
    const written = markers.map((m) => ({ label: m.label, forms: m.forms.filter((f) => f.kind === 'written') }));
    expect(findMarkers(files, written)).toHaveLength(markers.length);
    // and each of its other forms (normalised, token, digits) is found as such
    const others = markers.map((m) => ({ label: m.label, forms: m.forms.filter((f) => f.kind !== 'written') }));
    const normalised: Haystack = { name: 'normalised forms', content: others.flatMap((m) => m.forms.map((f) => f.value)).join('\n') };
    expect(findMarkers([normalised], others)).toHaveLength(others.reduce((n, m) => n + m.forms.length, 0));
    expect(markers.length).toBeGreaterThan(300);
  });

  it('plan, saved plan, show, show -json, plan --json and plan --markdown show counts, never a marker', async () => {
    const plan = await adsctl('plan --debug', ws.plan({ debug: true }), 0);
    expect(plan.stdout).toMatch(/members\s+= \+\d+ members, −0 members, 0 unchanged/);
    // the invalid cells are named by file and line, never by value
    expect(plan.stdout).toContain('data/vip.csv:122:1: warning audience-invalid-identifiers: 3 of');
    await adsctl('plan --out first.plan --debug', ws.plan({ out: 'first.plan', debug: true }), 0);
    await adsctl('show first.plan', ws.show('first.plan'), 0);
    const json = await adsctl('show --json first.plan', ws.show('first.plan', 'json'), 0);
    expect(JSON.parse(json.stdout)).toHaveProperty('resource_changes');
    await adsctl('plan --json', ws.plan({ format: 'json' }), 0);
    const markdown = await adsctl('plan --markdown', ws.plan({ format: 'markdown' }), 0);
    expect(markdown.stdout).toContain('custom_audiences.vip.users');
    expectNoMarker();
  });

  it('apply of the saved plan uploads the members, keeping only their hashes, in files of mode 0600', async () => {
    // held at its first users request, the apply has its lock and its journal open: they hold no marker either
    const gate = recorder.holdNext();
    const running = ws.applySaved('first.plan', { debug: true });
    await gate.arrived;
    const inFlight = projectFiles();
    expect(inFlight.map((h) => h.name)).toEqual(expect.arrayContaining(['.adsctl/state/18ce54d4x5t.journal', '.adsctl/state/18ce54d4x5t.lock']));
    expect(inFlight.find((h) => h.name.endsWith('.journal'))!.content.length).toBeGreaterThan(0);
    expect(findMarkers(inFlight, markers)).toEqual([]);
    gate.release();
    await adsctl('apply first.plan --debug', running, 0);

    const state = ws.bindings('18ce54d4x5t');
    const audience = state.get('custom_audiences.vip')!;
    expect((await memberCounts(client, audience)).members).toBe(validIdentifiers(audienceLines));
    await adsctl('state show custom_audiences.vip.users', ws.stateShow('custom_audiences.vip.users'), 0);
    await adsctl('state show do_not_reach.users', ws.stateShow('do_not_reach.users'), 0);

    const stores = join(ws.dir, '.adsctl', 'state', '18ce54d4x5t.members');
    const files = readdirSync(stores);
    expect(files.filter((f) => f.endsWith('.bin'))).toHaveLength(2);
    for (const f of files) expect((statSync(join(stores, f)).mode & 0o777).toString(8), f).toBe('600');
    expect(statSync(stores).mode & 0o077).toBe(0);
    // what they hold instead: the SHA-256 digests of the normalised identifiers
    const digest = createHash('sha256').update(markers[0]!.forms.find((f) => f.kind === 'normalised')!.value).digest();
    expect(files.filter((f) => readFileSync(join(stores, f)).includes(digest))).toHaveLength(1);
    expectNoMarker();
  });

  it('a second round, removing 20 lines and adding 20 new ones, sends the difference without a marker', async () => {
    audienceLines = [...audienceLines.slice(20), ...drawn.lines(20, true)];
    writeAudience();
    const plan = await adsctl('plan --out second.plan --debug', ws.plan({ out: 'second.plan', debug: true }), 0);
    expect(plan.stdout).toMatch(/~ members = \d+ members -> \+\d+ members, −\d+ members, \d+ unchanged/);
    await adsctl('show --json second.plan', ws.show('second.plan', 'json'), 0);
    await adsctl('show second.plan', ws.show('second.plan'), 0);
    await adsctl('plan --markdown', ws.plan({ format: 'markdown' }), 0);
    await adsctl('plan --json', ws.plan({ format: 'json' }), 0);
    // (applied without the saved plan: a saved plan that updates members is refused as stale, a bug reported with these tests)
    await adsctl('apply --auto-approve --debug', ws.apply({ debug: true }), 0);
    await adsctl('plan --detailed-exitcode --debug', ws.plan({ detailedExitcode: true, debug: true }), 0);
    expectNoMarker();
  });

  it('destroy takes the audience and the list down without a marker', async () => {
    await adsctl('destroy --auto-approve --debug', ws.destroy({ debug: true }), 0);
    expectNoMarker();
  });

  it('a saved plan whose member file changed before apply is refused, naming the file, not a marker', async () => {
    await adsctl('plan --out third.plan --debug', ws.plan({ out: 'third.plan', debug: true }), 0);
    audienceLines = [...audienceLines.slice(5), ...drawn.lines(5, true)];
    writeAudience();
    const refused = await adsctl('apply third.plan --debug', ws.applySaved('third.plan', { debug: true }), 1);
    expect(refused.stderr).toContain('custom_audiences.vip.users: data/vip.csv changed since the plan was made; plan again');
    await adsctl('destroy --auto-approve --debug', ws.destroy({ debug: true }), 0);
    expectNoMarker();
  });

  it('the search catches a real leak: a marker written into a description shows in the plan and the state', async () => {
    const leaked = markers[0]!.forms.find((f) => f.kind === 'normalised')!.value;
    ws.write(canaryManifest(recorder.url, `ask ${leaked}`));
    await adsctl('apply --auto-approve', ws.apply(), 0);
    const findings = findMarkers([...projectFiles(), ...outputs], markers);
    expect(findings).toContain('stdout of adsctl apply --auto-approve: email marker 0 (normalised)');
    expect(findings).toContain('stdout of adsctl apply --auto-approve: email marker 0 (token)');
    expect(findings).toContain('.adsctl/state/18ce54d4x5t.json: email marker 0 (normalised)');
  });
});
