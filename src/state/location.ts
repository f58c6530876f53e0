/**
 * Where state is: the directories of a configuration root that hold it. How a message names one
 * account's state and journal is the backend's to say (`StateReader.locate`, store.ts).
 */
import { join } from 'node:path';

/** `.adsctl/state` of a configuration root. */
export const stateDirOf = (root: string): string => join(root, '.adsctl', 'state');
/** `.adsctl/cache` of a configuration root. */
export const cacheDirOf = (root: string): string => join(root, '.adsctl', 'cache');
