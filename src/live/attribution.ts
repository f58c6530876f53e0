/**
 * Who changed it (docs/architecture.md, "Who changed it"): the account history of each object
 * that drifted, read in one request per object (`GET accounts/:id/account_history`, the first
 * 1,000 changes of the hours since adsctl last recorded the object — or since the last apply, for
 * what it never recorded), in parallel within the client's rate limits.
 * The first object is read alone: when the history cannot be read — the endpoint is a beta the
 * account must be allowlisted for, so the real service often answers 403 — that one refusal is
 * all it costs, and the plan goes on with a note instead of sending one doomed request per object.
 * Any error on the route makes the note; nothing here fails a plan.
 *
 * The history has no way to list users with their screen names (Part A lists users only by id,
 * as promotable users and the caller's own access), so an attribution names the user by id.
 */
import type { AdsApi } from '../api/ads-api.js';
import { ApiError } from '../api/errors.js';
import type { AccountHistoryRecord } from '../api/generated/wire.js';
import type { HistoryEntity } from '../kinds/descriptor.js';
import { historyWindow } from './history-window.js';

/** One change of an object made outside adsctl, as the account history records it. */
export interface ChangeAttribution {
  /** The user who made it; null when the history does not say. */
  userId: string | null;
  /** Where it was made (`change_by.platform`, e.g. `API`). */
  platform: string;
  /** When, as the history gives it (ISO 8601 UTC). */
  changeTime: string;
  /** `CREATE`, `UPDATE`, `DELETE`, as the history gives it. */
  changeType: string;
  /** The API fields an update changed (the keys of its `changes`); empty for a create or a delete. */
  fields: string[];
}

/** An object whose history is read: its history entity type and live id. */
export interface HistorySubject {
  entity: HistoryEntity;
  id: string;
  /**
   * When adsctl last recorded what the service holds of it (`StateResource.recorded_at`): its
   * changes after that are read, however many other objects were accepted since. Absent: since the
   * last apply.
   */
  since?: Date;
}

/** What the history said: the changes of each object read (by `subjectKey`), newest first; why it could not be read, once. */
export interface AttributionRead {
  byObject: Map<string, ChangeAttribution[]>;
  /** Set when a request failed: the first failure, in words. */
  unreadable?: string;
  /** History requests sent. */
  requests: number;
}

/** The key of an object in `AttributionRead.byObject`. */
export const subjectKey = (entity: HistoryEntity, id: string): string => `${entity}:${id}`;

interface AttributionInput {
  api: AdsApi;
  accountId: string;
  subjects: readonly HistorySubject[];
  /** When the last apply finished: changes made at or before its second are adsctl's own, for a subject with no `since` of its own. */
  lastApply: Date;
  now: Date;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The records made after the last apply, as attributions, newest first. */
function changesSince(records: readonly AccountHistoryRecord[], lastApply: Date): ChangeAttribution[] {
  const after = Math.floor(lastApply.getTime() / 1000) * 1000 + 1000;
  return records
    .map((r, i) => ({ r, i, at: Date.parse(r.change_time) }))
    .filter(({ at }) => Number.isFinite(at) && at >= after)
    .sort((a, b) => b.at - a.at || b.i - a.i)
    .map(({ r }) => ({
      userId: text(r.change_by?.user_id),
      platform: text(r.change_by?.platform) ?? 'UNKNOWN',
      changeTime: r.change_time,
      changeType: text(r.change_type) ?? 'UNKNOWN',
      fields: r.change_type === 'UPDATE' && typeof r.changes === 'object' && r.changes !== null ? Object.keys(r.changes).sort() : [],
    }));
}

/** Reads the history of every subject (each once); never throws for an API error. */
export async function readAttribution(input: AttributionInput): Promise<AttributionRead> {
  const read: AttributionRead = { byObject: new Map(), requests: 0 };
  const unique = [...new Map(input.subjects.map((s) => [subjectKey(s.entity, s.id), s])).values()];
  if (unique.length === 0) return read;
  const readOne = async (s: HistorySubject): Promise<boolean> => {
    read.requests++;
    const since = s.since ?? input.lastApply;
    const window = historyWindow(since, input.now);
    try {
      const records = await input.api.accountHistoryPage(input.accountId, { entity_type: s.entity, entity_id: s.id, start_time: window.start, end_time: window.end });
      read.byObject.set(subjectKey(s.entity, s.id), changesSince(records, since));
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      read.unreadable ??= error.describe();
      return false;
    }
  };
  const [first, ...rest] = unique;
  if (!(await readOne(first!))) return read;
  await Promise.all(rest.map(readOne));
  return read;
}
