/**
 * The golden plan harness: one case directory in, the outputs to compare out. A case holds
 * `*.yaml` manifests, `live.json` (see live-fixture.ts), optionally `state.json` (the account's
 * state as adsctl wrote it), `lookups.json` (else the emulator's bidding rules and placements and
 * ACCOUNT_ADMIN permissions; new criteria's values are always checked against the emulator's
 * targeting options), `uploaded.json` (the member files last uploaded, from which the
 * member stores beside the state are written) and `now.json` (the state serials and live records
 * at apply time, for a saved plan). Files the manifests name (media, member files) are read from
 * the case directory. Load, then `planAccounts` (refresh → diff → plan) as `adsctl plan` runs it,
 * then render.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { staleRefusal } from '../../../src/cli/stale.js';
import { hasErrors } from '../../../src/diag/diagnostic.js';
import { formatDiagnostics } from '../../../src/diag/format.js';
import { BIDDING_RULES } from '../../../src/emulator/lookups/bidding-rules.js';
import { PLACEMENT_COMBINATIONS, PRODUCT_TYPES } from '../../../src/emulator/lookups/placements.js';
import { fetchFingerprints } from '../../../src/live/fingerprints.js';
import type { Lookups } from '../../../src/live/lookups.js';
import { formatAddress } from '../../../src/manifest/address.js';
import { loadManifestSources } from '../../../src/manifest/load.js';
import { projectRootOf } from '../../../src/manifest/project-root.js';
import type { DesiredAccount } from '../../../src/manifest/types.js';
import { readMembers, recordUploaded } from '../../../src/members/membership.js';
import { decodePlanFile, encodePlanFile } from '../../../src/plan/plan-file.js';
import { fingerprintTargets, staleEntries } from '../../../src/plan/stale.js';
import type { Plan } from '../../../src/plan/types.js';
import { renderPlan } from '../../../src/render/render.js';
import { membersStoreOf } from '../../../src/members/store-path.js';
import { emptyState, type AccountState } from '../../../src/state/state-file.js';
import { emulatorTargetingValues } from '../../support/targeting-options.js';
import { checkLiveFixture, fixtureApi, readLiveFixture, type LiveFixture } from './live-fixture.js';
import { planAccounts } from '../../../src/engine/plan-accounts.js';
import { pipelineAccount } from './pipeline.js';
import { renderSteps } from './steps-text.js';
import { testClock } from '../../support/test-clock.js';

/** The directory holding the cases (and `before/`, the manifests fixtures are made from). */
export const CASES_DIR = new URL('./', import.meta.url);

/** Sub-directories of CASES_DIR that are not cases. */
const NOT_CASES = new Set(['before']);

/** The case names, sorted. */
export function caseNames(): string[] {
  return readdirSync(CASES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !NOT_CASES.has(e.name))
    .map((e) => e.name)
    .sort();
}

/** The lookups of a fresh emulator: every bidding rule and placement combination, the seeded owner's permissions. */
export function emulatorLookups(accountId: string): Lookups {
  return {
    biddingRules: BIDDING_RULES.map((r) => ({ ...r })),
    placements: PRODUCT_TYPES.map((t) => ({ product_type: t, placements: PLACEMENT_COMBINATIONS[t].map((c) => [...c]) })),
    permissions: { [accountId]: ['ACCOUNT_ADMIN'] },
  };
}

const wire = JSON.parse(readFileSync(new URL('../../../schemas/wire.schema.json', import.meta.url), 'utf8')) as { $id: string };
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(wire);
ajv.addSchema({
  $id: 'golden-lookups',
  type: 'object',
  additionalProperties: false,
  required: ['biddingRules', 'placements', 'permissions'],
  properties: {
    biddingRules: { type: 'array', items: { $ref: `${wire.$id}#/$defs/BiddingRule` } },
    placements: { type: 'array', items: { $ref: `${wire.$id}#/$defs/PlacementCombination` } },
    permissions: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
});

function readLookups(path: string): Lookups {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const validate = ajv.getSchema('golden-lookups');
  if (validate === undefined || !validate(parsed)) throw new Error(`${path}: ${ajv.errorsText(validate?.errors)}`);
  return parsed as Lookups;
}

/**
 * `now.json`: what `apply PLANFILE` finds, for a case whose plan is saved: the state serial of
 * each account and the live records (a live fixture) it re-reads the fingerprints from.
 */
interface Now {
  serials: Record<string, number>;
  live: LiveFixture;
}

/**
 * Checks a saved plan as `apply PLANFILE` does (src/cli/stale.ts, src/engine/stale.ts): the fingerprints of the
 * objects the plan touches re-read through `fetchFingerprints`, here from the `now.json` fixture,
 * for every account whose state did not move; then `staleEntries` decides and `staleRefusal`
 * words the refusal.
 */
async function refusalOf(plan: Plan, nowPath: string): Promise<string> {
  const now = JSON.parse(readFileSync(nowPath, 'utf8')) as Now;
  const problems = checkLiveFixture(now.live, `${nowPath}: live`);
  if (problems.length > 0) throw new Error(`invalid now.json:\n${problems.join('\n')}`);
  const fingerprints = new Map<string, string>();
  for (const account of plan.accounts) {
    if (account.accountId === undefined || now.serials[account.account] !== account.stateSerial) continue;
    const found = await fetchFingerprints(fixtureApi(now.live, account.accountId).api, account.accountId, fingerprintTargets(account));
    for (const [id, fingerprint] of found) fingerprints.set(id, fingerprint);
  }
  const entries = staleEntries(plan, now.serials, fingerprints);
  return entries.length === 0 ? 'the saved plan is not stale\n' : staleRefusal(entries, plan);
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Everything a case produces, by the golden file name it is compared with. */
export type CaseOutputs = Record<string, string>;

/** The bytes of a file the manifests of the case in `dir` name (a media file), or undefined when there is none. */
function caseFile(dir: string, path: string): Uint8Array | undefined {
  const absolute = resolve(dir, path);
  return existsSync(absolute) ? readFileSync(absolute) : undefined;
}

/**
 * `uploaded.json`: the members last uploaded, by membership address, as the member file (a path
 * in the case directory) they were read from; each is read as the manifest's membership reads its
 * own file (its `type` and `default_region`).
 */
type Uploaded = Record<string, string>;

/**
 * Writes the member store of every membership `uploaded.json` names into a new state directory,
 * exactly as apply records an upload (`recordUploaded`, at `membersStoreOf`, by the id the state binds); undefined when
 * the case has no `uploaded.json` (then nothing was uploaded yet).
 */
async function memberStores(dir: string, desired: DesiredAccount, state: AccountState): Promise<string | undefined> {
  const path = join(dir, 'uploaded.json');
  if (!existsSync(path)) return undefined;
  const uploaded = readJson<Uploaded>(path);
  const stateDir = mkdtempSync(join(tmpdir(), 'adsctl-golden-'));
  try {
    for (const [address, file] of Object.entries(uploaded)) {
      const membership = desired.resources.find((r) => formatAddress(r.address) === address);
      if (membership === undefined || (membership.kind !== 'audience_members' && membership.kind !== 'do_not_reach_members')) throw new Error(`${path}: ${address} is not a membership of the manifests`);
      const read = await readMembers({ path: resolve(dir, file), shownAs: file, root: projectRootOf(dir), type: membership.attributes['type'], defaultRegion: membership.attributes['default_region'] });
      if (read.value === undefined || hasErrors(read.diagnostics)) throw new Error(`${path}: ${file} does not read:\n${formatDiagnostics(read.diagnostics, new Map())}`);
      const problems = await recordUploaded(membersStoreOf(stateDir, desired.key, address, state.resources[address]?.id ?? ''), read.value.members);
      if (problems.length > 0) throw new Error(`${path}: ${problems.map((d) => d.message).join('; ')}`);
    }
  } catch (error) {
    rmSync(stateDir, { recursive: true, force: true });
    throw error;
  }
  return stateDir;
}

/** The planned `Plan` of a case and the manifest texts (for diagnostics). */
export async function planCase(dir: string): Promise<{ plan: Plan; sources: Map<string, string> }> {
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (files.length === 0) throw new Error(`${dir}: no *.yaml manifests`);
  const loaded = loadManifestSources(
    files.map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') })),
    { env: {}, fileExists: (path) => existsSync(resolve(dir, path)), readFile: (path) => caseFile(dir, path) },
  );
  if (loaded.value === undefined || hasErrors(loaded.diagnostics)) throw new Error(`${dir}: the manifests do not load:\n${formatDiagnostics(loaded.diagnostics, loaded.sources)}`);
  const [loadedAccount, ...others] = loaded.value.accounts;
  if (loadedAccount === undefined || others.length > 0 || loadedAccount.accountId === undefined) throw new Error(`${dir}: a case describes exactly one existing account (with account.id)`);
  // the manifest's file as the process opens it: the plan reads the member files it names beside it
  const desired: DesiredAccount = { ...loadedAccount, file: join(dir, loadedAccount.file) };
  const accountId = loadedAccount.accountId;
  const livePath = join(dir, 'live.json');
  if (!existsSync(livePath)) throw new Error(`${dir}: live.json is missing`);
  const served = fixtureApi(readLiveFixture(livePath), accountId);
  const statePath = join(dir, 'state.json');
  const state = existsSync(statePath) ? readJson<AccountState>(statePath) : emptyState(desired.key, desired.endpoint ?? 'local');
  const lookupsPath = join(dir, 'lookups.json');
  const lookups = existsSync(lookupsPath) ? readLookups(lookupsPath) : emulatorLookups(accountId);
  const stateDir = await memberStores(dir, desired, state);
  try {
    // permissions are read fresh on every plan; bidding rules, placements and the targeting
    // options new criteria are checked against (the emulator's) come from a warm cache
    let lookupReads = 0;
    const account = pipelineAccount(desired, state, served.api, () => served.reads() + lookupReads, stateDir);
    const plan = await planAccounts([account], {
      mode: 'plan',
      targets: [],
      now: () => testClock.now(),
      lookups: (_account, needs) => {
        lookupReads++;
        const targetingValues = emulatorTargetingValues(needs.targetingValues);
        return Promise.resolve(targetingValues === undefined ? lookups : { ...lookups, targetingValues });
      },
    });
    return { plan, sources: loaded.sources };
  } finally {
    if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * The outputs of the case in `dir`: `plan.txt`, `plan.md`, `plan.json` (the three renderings),
 * `steps.txt` (the ordered, batched steps; see steps-text.ts) and, when the case has `now.json`,
 * `refusal.txt`: the plan saved (through the plan file codec) and checked against `now.json`.
 */
export async function runCase(dir: string): Promise<CaseOutputs> {
  const { plan, sources } = await planCase(dir);
  const outputs: CaseOutputs = {
    'plan.txt': renderPlan(plan, 'text', { color: false, sources }),
    'plan.md': renderPlan(plan, 'markdown', { color: false, sources }),
    'plan.json': renderPlan(plan, 'json'),
    'steps.txt': renderSteps(plan),
  };
  const nowPath = join(dir, 'now.json');
  if (existsSync(nowPath)) {
    const saved = decodePlanFile(encodePlanFile(plan, new Date(0)));
    if (typeof saved === 'string') throw new Error(`${dir}: the saved plan does not decode: ${saved}`);
    outputs['refusal.txt'] = await refusalOf(saved, nowPath);
  }
  return outputs;
}
