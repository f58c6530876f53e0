/**
 * The emulator's targeting option lookups as data, for tests that plan without a network (the
 * golden plans, the plan's unit tests): what `fetchTargetingValues` would have read from a fresh
 * emulator, each lookup whole.
 */
import { EVENTS, TV_SHOWS } from '../../src/emulator/lookups/events-and-tv.js';
import { INTERESTS } from '../../src/emulator/lookups/interests.js';
import { LOCATIONS } from '../../src/emulator/lookups/locations.js';
import {
  APP_STORE_CATEGORIES, CONVERSATIONS, DEVICES, LANGUAGES, NETWORK_OPERATORS, PLATFORMS, PLATFORM_VERSIONS,
} from '../../src/emulator/lookups/targeting-values.js';
import { targetingLookupOf, type TargetingLookup } from '../../src/kinds/targeting-lookups.js';
import type { TargetingOption, TargetingValues } from '../../src/live/targeting-values.js';

type Item = { name: string; targeting_value: string | number; country_code?: string | null };

const options = (items: readonly Item[]): TargetingOption[] =>
  items.map((i) => ({ value: String(i.targeting_value), name: i.name, ...(typeof i.country_code === 'string' ? { country: i.country_code } : {}) }));

/** Every option of each lookup of a fresh emulator. */
export const EMULATOR_TARGETING_OPTIONS: Record<TargetingLookup, TargetingOption[]> = {
  locations: options(LOCATIONS),
  languages: options(LANGUAGES),
  interests: options(INTERESTS),
  platforms: options(PLATFORMS),
  platform_versions: options(PLATFORM_VERSIONS),
  devices: options(DEVICES),
  network_operators: options(NETWORK_OPERATORS),
  app_store_categories: options(APP_STORE_CATEGORIES),
  conversations: options(CONVERSATIONS),
  events: options(EVENTS),
  tv_shows: options(TV_SHOWS),
};

/** `Lookups.targetingValues` for the values `wanted` by type, looked up in a fresh emulator's lookups; undefined when nothing is wanted. */
export function emulatorTargetingValues(wanted: Readonly<Record<string, readonly string[]>>): Record<string, TargetingValues> | undefined {
  const out: Record<string, TargetingValues> = {};
  for (const [type, values] of Object.entries(wanted)) {
    const lookup = targetingLookupOf(type);
    if (lookup !== undefined && values.length > 0) out[type] = { checked: [...values], options: EMULATOR_TARGETING_OPTIONS[lookup] };
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
