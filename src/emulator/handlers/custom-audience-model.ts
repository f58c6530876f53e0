/**
 * What every audience endpoint knows about a custom audience: who may see it (its owner, and the
 * accounts it is shared with by a live permission), and its derived, read-only fields.
 *
 * - A CRM audience is targetable once it has at least `TARGETABLE_MEMBERS` members (distinct
 *   valid identifier hashes held). Below that it is not, with `reasons_not_targetable`
 *   TOO_SMALL, plus PROCESSING while no user upload has reached it yet (a new audience shows
 *   both, as the service's examples do). `audience_size` is null while not targetable, then the
 *   member count rounded down to two significant digits — never the exact count.
 * - A FLEXIBLE audience is targetable when every leaf audience it names is targetable and not
 *   deleted (TOO_SMALL otherwise); its `audience_size` is null (the emulator does not combine
 *   sets).
 * - `is_owner` and `permission_level` depend on who looks: the owner sees READ_WRITE, an account
 *   it is shared with sees the level it was granted.
 */
import type { ApiContext } from '../context.js';
import { WireError, invalidParameter, notFound } from '../errors.js';
import type { Rec, Row } from '../store/row.js';
import { accountIdOf } from './common.js';

/** Members a CRM audience needs before it is targetable. */
export const TARGETABLE_MEMBERS = 100;

export const AUDIENCE_LABEL = 'Custom Audience';

/** The member set of a custom audience. */
export const audienceMembers = (id: string): string => `ca:${id}`;

/** Rounds a count down to two significant digits (1,234 → 1,200; 987 → 980). */
export function roundedSize(n: number): number {
  if (n < 100) return n;
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.floor(n / unit) * unit;
}

/** The live permission sharing audience `audienceId` with `accountId`, if any. */
function liveGrant(ctx: ApiContext, audienceId: string, accountId: string): Row | undefined {
  return ctx.store
    .table('audience_permission')
    .under('audience', audienceId)
    .find((r) => r.rec['granted_account_id'] === accountId && r.rec['deleted'] !== true);
}

/** An audience as the path's account may see it: owned, or shared with it. */
interface VisibleAudience {
  row: Row;
  /** The permission sharing it with the path's account; undefined for the owner. */
  grant: Row | undefined;
}

/** The audience `id` if the path's account owns it or it is shared with it; undefined otherwise. */
export function visibleAudience(ctx: ApiContext, id: string, withDeleted = false): VisibleAudience | undefined {
  const row = ctx.store.get('custom_audience', id);
  if (row === undefined || (!withDeleted && row.rec['deleted'] === true)) return undefined;
  const accountId = accountIdOf(ctx);
  if (row.accountId === accountId) return { row, grant: undefined };
  const grant = liveGrant(ctx, id, accountId);
  return grant === undefined ? undefined : { row, grant };
}

/** `visibleAudience`, or the service's 404 naming the path parameter. */
export function findAudience(ctx: ApiContext, param: string, withDeleted = false): VisibleAudience {
  const id = ctx.pathParams[param] ?? '';
  const found = visibleAudience(ctx, id, withDeleted);
  if (found === undefined) throw notFound(AUDIENCE_LABEL, id, accountIdOf(ctx), param);
  return found;
}

/** The audience `id` owned by the path's account: 404 if invisible, 403 if only shared with it. */
export function findOwnedAudience(ctx: ApiContext, param: string): Row {
  const { row, grant } = findAudience(ctx, param);
  if (grant !== undefined) {
    throw new WireError(403, [{ code: 'ACTION_NOT_ALLOWED', message: `Only the owning Account ${row.accountId} may change ${AUDIENCE_LABEL} ${row.id}` }]);
  }
  return row;
}

/** Leaf audience ids of a flexible audience's segments. */
function leafIds(segments: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as Rec;
    if (typeof n['custom_audience_id'] === 'string') out.push(n['custom_audience_id']);
    if (Array.isArray(n['child_segments'])) for (const c of n['child_segments']) walk(c);
  };
  walk(segments);
  return out;
}

/** Whether an audience is targetable, and why not. */
function targetability(ctx: ApiContext, row: Row, depth = 0): { targetable: boolean; reasons: string[]; size: number | null } {
  if (row.rec['audience_type'] === 'FLEXIBLE') {
    const ok =
      depth < 4 &&
      leafIds(row.rec['segments']).every((id) => {
        const leaf = ctx.store.get('custom_audience', id);
        return leaf !== undefined && leaf.rec['deleted'] !== true && targetability(ctx, leaf, depth + 1).targetable;
      });
    return { targetable: ok, reasons: ok ? [] : ['TOO_SMALL'], size: null };
  }
  const members = ctx.store.members.size(audienceMembers(row.id));
  if (members >= TARGETABLE_MEMBERS) return { targetable: true, reasons: [], size: roundedSize(members) };
  return { targetable: false, reasons: row.ext['uploaded'] === true ? ['TOO_SMALL'] : ['PROCESSING', 'TOO_SMALL'], size: null };
}

/** The wire record of an audience as `viewer` (an account id) sees it. */
export function audienceView(ctx: ApiContext, row: Row, viewer: string): Rec {
  const t = targetability(ctx, row);
  const owner = row.accountId === viewer;
  const level = owner ? 'READ_WRITE' : (liveGrant(ctx, row.id, viewer)?.rec['permission_level'] ?? 'READ_ONLY');
  const rec = row.rec;
  const out: Rec = {
    id: row.id,
    name: rec['name'],
    description: rec['description'] ?? null,
    audience_type: rec['audience_type'],
    targetable: t.targetable,
    targetable_types: rec['audience_type'] === 'FLEXIBLE' ? ['FLEXIBLE'] : ['CRM', 'EXCLUDED_CRM'],
    reasons_not_targetable: t.reasons,
    audience_size: t.size,
    partner_source: 'OTHER',
    permission_level: level,
    owner_account_id: row.accountId,
    is_owner: owner,
  };
  if (rec['segments'] !== undefined) out['segments'] = rec['segments'];
  out['created_at'] = rec['created_at'];
  out['updated_at'] = rec['updated_at'];
  out['deleted'] = rec['deleted'];
  return out;
}

/**
 * The `name` of a CUSTOM_AUDIENCE or CUSTOM_AUDIENCE_EXPANDED targeting criterion. The audience
 * must be owned by or shared with the path's account, not deleted, and targetable; otherwise 400
 * `INVALID_PARAMETER` on `targeting_value`, as for every other unusable targeting value.
 */
export function customAudienceCriterionName(ctx: ApiContext, value: string): string {
  const found = visibleAudience(ctx, value);
  const refuse = (why: string): WireError => invalidParameter('targeting_value', `Custom audience ${value} ${why}`);
  if (found === undefined) throw refuse(`is not a custom audience of Account ${accountIdOf(ctx)} or shared with it`);
  const t = targetability(ctx, found.row);
  if (!t.targetable) throw refuse(`is not targetable (${t.reasons.join(', ')})`);
  return String(found.row.rec['name']);
}
