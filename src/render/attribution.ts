/**
 * Who changed it, in words (docs/architecture.md, "Who changed it"): ` by user 756201191646691328
 * at 2026-11-26T14:00:00Z`, after "changed outside adsctl", "deleted outside adsctl" or "added
 * outside adsctl", from the `attribution` the JSON document carries. A drifted attribute names the
 * newest change of that field; a deleted object its deletion, an added one its creation; each
 * falls back to the newest change the history holds. Empty when the history was not read or
 * recorded nothing since the last apply.
 */
import type { DocumentAttribution } from './document-types.js';

/** The change that made the drift: the newest of `type` touching `path`, else the newest of `type`, else the newest. */
function pick(attribution: readonly DocumentAttribution[] | undefined, type: 'CREATE' | 'UPDATE' | 'DELETE', path?: string): DocumentAttribution | undefined {
  if (attribution === undefined) return undefined;
  const ofType = attribution.filter((a) => a.change_type === type);
  return (path === undefined ? undefined : ofType.find((a) => a.fields?.includes(path) === true)) ?? ofType[0] ?? attribution[0];
}

/** ` by user ID at TIME` (the screen name first, when known), or '' when nothing is known. */
export function byWhom(attribution: readonly DocumentAttribution[] | undefined, type: 'CREATE' | 'UPDATE' | 'DELETE', path?: string): string {
  const a = pick(attribution, type, path);
  if (a === undefined) return '';
  const who = a.user_id === null ? '' : ` by ${a.screen_name === undefined ? `user ${a.user_id}` : `@${a.screen_name} (user ${a.user_id})`}`;
  return `${who} at ${a.change_time}`;
}
