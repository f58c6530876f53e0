/**
 * A checkpoint that is gone while its journal or its kept versions remain: reading the account as
 * empty would create everything again, so it is refused with the commands that put the newest
 * kept version back (docs/architecture.md, "State, journal and locks").
 */

/** What the backend still holds of an account whose checkpoint is missing. */
export interface Remains {
  journal: boolean;
  /** The serial of the newest version kept, if any is. */
  newest?: number;
}

/**
 * The refusal for account `key`: `checkpoint` names where it should be; `pathFlag` is what the
 * commands need to find the state (`--path ROOT`), empty for the current directory.
 */
export function missingCheckpoint(checkpoint: string, key: string, remains: Remains, pathFlag: string): string {
  const pieces = [...(remains.journal ? ['its apply journal'] : []), ...(remains.newest === undefined ? [] : [`the versions kept of it (the newest at serial ${remains.newest})`])].join(' and ');
  const flags = `${pathFlag === '' ? '' : ` ${pathFlag}`} --account ${key}`;
  const file = `${key}.state.json`;
  const restore =
    remains.newest === undefined
      ? 'Put the checkpoint back from a backup, then run adsctl apply again. If there is none, move the journal aside and bind every object of the account with adsctl import before the next apply.'
      : `Put the newest kept version back: adsctl state pull${flags} --serial ${remains.newest} > ${file} && adsctl state push${flags} --force ${file} ` +
        `(or put the checkpoint back from a backup), then run adsctl apply again: it finishes what the journal holds, or says why that version is too old for it.`;
  return `${checkpoint}: the checkpoint of account ${key} is missing, but ${pieces} remain: it is not an empty state, and reading it as one would create everything again, so nothing was changed. ${restore}`;
}
