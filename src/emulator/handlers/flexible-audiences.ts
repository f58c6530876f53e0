/**
 * `POST /12/batch/accounts/:account_id/custom_audiences` (Part B, Custom audiences): flexible
 * audiences, at most 10 items, all or nothing (batch.ts). Create takes `audience_type` (FLEXIBLE;
 * MOBILE_AUDIENCE is 400 `INVALID_TAILORED_AUDIENCE_TYPE`), `name` (unique like any audience of
 * the account, 255) and the segment tree, either as `segments` {boolean_operator,
 * child_segments} or as top-level `child_segments` with `boolean_operator` (not both: 400
 * `EXCLUSIVE_PARAMETERS`). A group holds `child_segments` (an array; `boolean_operator` AND or OR
 * is required when it is not empty); a leaf holds `custom_audience_id` (an audience the account
 * owns or was granted, not deleted: 404 `TAILORED_AUDIENCE_NOT_FOUND`; not itself flexible: 400
 * `INVALID_TAILORED_AUDIENCE_TYPE`), `lookback_window` (1, 7, 14 or 30; default 30), `frequency`
 * (at least 1, default 1), `frequency_comparator` (default NUM_GTE) and `negate` (default true).
 * An audience has 1 to 10 leaves. Flexible audiences are immutable: Update is refused (400
 * `INVALID_PARAMETER`); Delete takes `custom_audience_id` of a flexible audience the account
 * owns. The record is the custom audience record with its normalised `segments`.
 */
import type { ApiContext, HandlerResult, RouteDef } from '../context.js';
import { WireError, badRequest, combine, invalidParameter, missingParameter } from '../errors.js';
import { runBatch } from '../batch.js';
import type { ParamReader } from '../params.js';
import type { Rec } from '../store/row.js';
import { accountIdOf, now } from './common.js';
import { audienceView, visibleAudience } from './custom-audience-model.js';
import { AUDIENCE_NAME_MAX, checkUniqueName } from './custom-audiences.js';

const MAX_ITEMS = 10;
const MAX_LEAVES = 10;
const MAX_DEPTH = 5;
const LOOKBACK_WINDOWS = [1, 7, 14, 30];
const COMPARATORS = ['NUM_GTE', 'NUM_GT', 'NUM_EQ', 'NUM_LTE', 'NUM_LT'];
const GROUP_KEYS = ['boolean_operator', 'child_segments'];
const LEAF_KEYS = ['custom_audience_id', 'lookback_window', 'frequency', 'frequency_comparator', 'negate'];

const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads and normalises a segment tree, collecting problems in `errors`. */
class SegmentReader {
  leaves = 0;
  readonly errors: WireError[] = [];

  constructor(private readonly ctx: ApiContext) {}

  group(node: Rec, path: string, depth: number): Rec {
    const children = node['child_segments'];
    const op = node['boolean_operator'];
    for (const key of Object.keys(node)) if (!GROUP_KEYS.includes(key)) this.errors.push(invalidParameter(key, `${path}.${key} is not a segment group field`));
    if (children === undefined) {
      this.errors.push(missingParameter('child_segments'));
      return {};
    }
    if (!Array.isArray(children)) {
      this.errors.push(invalidParameter('child_segments', `${path}.child_segments must be an array`));
      return {};
    }
    if (children.length > 0 && op === undefined) this.errors.push(missingParameter('boolean_operator'));
    else if (op !== undefined && op !== 'AND' && op !== 'OR') this.errors.push(invalidParameter('boolean_operator', `Expected a value in AND, OR, got ${JSON.stringify(op)} for boolean_operator`));
    if (depth > MAX_DEPTH) {
      this.errors.push(invalidParameter('child_segments', `Segments nest at most ${MAX_DEPTH} levels`));
      return {};
    }
    const out = children.map((child, i) => this.node(child, `${path}.child_segments[${i}]`, depth + 1));
    return { boolean_operator: op ?? null, child_segments: out };
  }

  private node(node: unknown, path: string, depth: number): Rec {
    if (!isObject(node)) {
      this.errors.push(invalidParameter('child_segments', `${path} must be an object`));
      return {};
    }
    if ('custom_audience_id' in node) return this.leaf(node, path);
    if ('child_segments' in node) return this.group(node, path, depth);
    this.errors.push(invalidParameter('child_segments', `${path} must hold custom_audience_id or child_segments`));
    return {};
  }

  private leaf(node: Rec, path: string): Rec {
    this.leaves++;
    for (const key of Object.keys(node)) if (!LEAF_KEYS.includes(key)) this.errors.push(invalidParameter(key, `${path}.${key} is not a leaf segment field`));
    const id = node['custom_audience_id'];
    if (typeof id !== 'string' || id === '') this.errors.push(invalidParameter('custom_audience_id', `${path}.custom_audience_id must be an audience id`));
    else {
      const found = visibleAudience(this.ctx, id);
      if (found === undefined) {
        this.errors.push(new WireError(404, [{ code: 'TAILORED_AUDIENCE_NOT_FOUND', message: `Custom audience ${id} was not found for Account ${accountIdOf(this.ctx)}`, parameter: 'custom_audience_id' }]));
      } else if (found.row.rec['audience_type'] === 'FLEXIBLE') {
        this.errors.push(badRequest('INVALID_TAILORED_AUDIENCE_TYPE', `${path}: the flexible audience ${id} cannot be a leaf segment`, 'custom_audience_id'));
      }
    }
    const lookback = node['lookback_window'] ?? 30;
    if (typeof lookback !== 'number' || !LOOKBACK_WINDOWS.includes(lookback)) {
      this.errors.push(invalidParameter('lookback_window', `Expected a value in ${LOOKBACK_WINDOWS.join(', ')}, got ${JSON.stringify(lookback)} for lookback_window`));
    }
    const frequency = node['frequency'] ?? 1;
    if (typeof frequency !== 'number' || !Number.isInteger(frequency) || frequency < 1) {
      this.errors.push(invalidParameter('frequency', `Expected a positive Int, got ${JSON.stringify(frequency)} for frequency`));
    }
    const comparator = node['frequency_comparator'] ?? 'NUM_GTE';
    if (typeof comparator !== 'string' || !COMPARATORS.includes(comparator)) {
      this.errors.push(invalidParameter('frequency_comparator', `Expected a value in ${COMPARATORS.join(', ')}, got ${JSON.stringify(comparator)} for frequency_comparator`));
    }
    const negate = node['negate'] ?? true;
    if (typeof negate !== 'boolean') this.errors.push(invalidParameter('negate', `Expected Boolean, got ${JSON.stringify(negate)} for negate`));
    return { custom_audience_id: id, lookback_window: lookback, frequency, frequency_comparator: comparator, negate };
  }
}

function create(ctx: ApiContext, p: ParamReader): Rec {
  const type = p.oneOf('audience_type', ['FLEXIBLE', 'MOBILE_AUDIENCE'] as const, { required: true });
  const name = p.string('name', { required: true, max: AUDIENCE_NAME_MAX });
  const segments = p.accept('segments');
  const children = p.accept('child_segments');
  const op = p.accept('boolean_operator');
  p.finish();
  if (type === 'MOBILE_AUDIENCE') throw badRequest('INVALID_TAILORED_AUDIENCE_TYPE', 'Only FLEXIBLE audiences are created through this batch', 'audience_type');
  const reader = new SegmentReader(ctx);
  let tree: Rec = {};
  if (segments !== undefined && (children !== undefined || op !== undefined)) {
    throw badRequest('EXCLUSIVE_PARAMETERS', 'segments and child_segments are exclusive parameters', 'segments');
  } else if (segments !== undefined) {
    if (!isObject(segments)) throw invalidParameter('segments', 'segments must be an object holding boolean_operator and child_segments');
    tree = reader.group(segments, 'segments', 0);
  } else {
    const top: Rec = {};
    if (children !== undefined) top['child_segments'] = children;
    if (op !== undefined) top['boolean_operator'] = op;
    tree = reader.group(top, 'segments', 0);
  }
  if (reader.errors.length === 0 && reader.leaves === 0) reader.errors.push(invalidParameter('child_segments', 'A flexible audience needs at least 1 custom audience leaf segment'));
  if (reader.leaves > MAX_LEAVES) reader.errors.push(invalidParameter('child_segments', `A flexible audience has at most ${MAX_LEAVES} custom audience leaf segments, got ${reader.leaves}`));
  if (reader.errors.length > 0) throw combine(reader.errors);
  checkUniqueName(ctx, name!);
  const id = ctx.store.newId();
  const time = now(ctx);
  const row = ctx.store.insert(
    'custom_audience',
    id,
    accountIdOf(ctx),
    { id, name, description: null, audience_type: 'FLEXIBLE', segments: tree, created_at: time, updated_at: time, deleted: false },
    { uploaded: false, unmatched: 0 },
  );
  return audienceView(ctx, row, accountIdOf(ctx));
}

function remove(ctx: ApiContext, p: ParamReader): Rec {
  const id = p.string('custom_audience_id', { required: true });
  p.finish();
  const found = visibleAudience(ctx, id!);
  if (found === undefined || found.grant !== undefined) {
    throw new WireError(404, [{ code: 'TAILORED_AUDIENCE_NOT_FOUND', message: `Custom audience ${id} was not found for Account ${accountIdOf(ctx)}`, parameter: 'custom_audience_id' }]);
  }
  if (found.row.rec['audience_type'] !== 'FLEXIBLE') throw badRequest('INVALID_TAILORED_AUDIENCE_TYPE', `Custom audience ${id} is not a flexible audience`, 'custom_audience_id');
  ctx.store.update(found.row, { deleted: true, updated_at: now(ctx) });
  return audienceView(ctx, found.row, accountIdOf(ctx));
}

function batch(ctx: ApiContext): HandlerResult {
  return runBatch(ctx, {
    max: MAX_ITEMS,
    operations: {
      Create: (p) => create(ctx, p),
      Update: () => {
        throw invalidParameter('operation_type', 'Flexible audiences are immutable once created; delete the audience and create a new one');
      },
      Delete: (p) => remove(ctx, p),
    },
  });
}

/** The flexible audience batch endpoint. */
export const routes: RouteDef[] = [
  { method: 'POST', path: '/12/batch/accounts/:account_id/custom_audiences', family: 'write', access: 'audience', jsonBody: true, handler: batch },
];
