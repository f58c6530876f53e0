/**
 * The numbering plans of libphonenumber-js's `min` metadata, read once through the library's own
 * `Metadata` accessors and compiled into regular expressions. The library compiles each pattern
 * anew on every call (`new RegExp` per match), which holds it near 100,000 numbers a second;
 * `phone-number.ts` uses these tables to decide the common cases itself, with the same rules.
 */
import { Metadata, type MetadataJson } from 'libphonenumber-js/core';

/** One number type of a plan (fixed line, mobile, toll free, ...): its pattern and lengths. */
interface TypeRule {
  pattern: RegExp;
  lengths: readonly number[] | undefined;
}

/** One country's numbering plan, compiled. */
interface PhonePlan {
  country: string;
  callingCode: string;
  /** `^(?:national number pattern)$`. */
  national: RegExp;
  /** `^(?:national prefix for parsing)`, when the plan has one. */
  prefixForParsing: RegExp | undefined;
  /** The leading-digits pattern that picks this country among those sharing its calling code (unanchored, as the library searches it). */
  leadingDigits: RegExp | undefined;
  /** The plan's number types, when the metadata holds them (it does for countries sharing a calling code). */
  types: readonly TypeRule[] | undefined;
  /** The international dialling prefix (unanchored, as the library searches it). */
  idd: RegExp;
}

/** The plans behind one calling code. */
interface CallingCodePlans {
  /** The plan the library selects by calling code alone (its first country). */
  main: PhonePlan;
  /** Every country of the calling code, in the metadata's order. */
  countries: readonly PhonePlan[];
}

/** Every geographic calling code's plans, and each country's plan. */
export interface PhonePlans {
  byCallingCode: ReadonlyMap<string, CallingCodePlans>;
  byCountry: ReadonlyMap<string, PhonePlan>;
  /** Calling codes the fast paths leave to the library (non-geographic ones, +800 and the like). */
  otherCallingCodes: ReadonlySet<string>;
}

/** The parts of the library's `Metadata` read here; its published types declare fewer. */
interface MetadataReader {
  selectNumberingPlan(countryOrCallingCode: string): unknown;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  numberingPlan: {
    callingCode(): string;
    nationalNumberPattern(): string;
    nationalPrefixForParsing(): string | undefined;
    leadingDigits(): string | undefined;
    IDDPrefix(): string;
    hasTypes(): boolean;
    type(name: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
  };
}

/** The types `getNumberType` tries; a number is valid for a typed plan when it is one of them. */
const NUMBER_TYPES = ['FIXED_LINE', 'MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];

function compilePlan(reader: MetadataReader, country: string): PhonePlan {
  reader.selectNumberingPlan(country);
  const plan = reader.numberingPlan;
  const prefix = plan.nationalPrefixForParsing();
  const leading = plan.leadingDigits();
  let types: TypeRule[] | undefined;
  if (plan.hasTypes()) {
    types = [];
    for (const name of NUMBER_TYPES) {
      const type = plan.type(name);
      const pattern = type?.pattern();
      if (type === undefined || pattern === undefined || pattern === '') continue;
      types.push({ pattern: new RegExp(`^(?:${pattern})$`), lengths: type.possibleLengths() });
    }
  }
  return {
    country,
    callingCode: plan.callingCode(),
    national: new RegExp(`^(?:${plan.nationalNumberPattern()})$`),
    prefixForParsing: prefix ? new RegExp(`^(?:${prefix})`) : undefined,
    leadingDigits: leading ? new RegExp(leading) : undefined,
    types,
    idd: new RegExp(plan.IDDPrefix()),
  };
}

/** Compiles every plan of `metadata` (about 250 countries; a few milliseconds). */
export function compilePhonePlans(metadata: MetadataJson): PhonePlans {
  const reader = new Metadata(metadata) as unknown as MetadataReader;
  const byCallingCode = new Map<string, CallingCodePlans>();
  const byCountry = new Map<string, PhonePlan>();
  const otherCallingCodes = new Set<string>(Object.keys(metadata.nonGeographic ?? {}));
  for (const callingCode of Object.keys(metadata.country_calling_codes)) {
    const codes = reader.getCountryCodesForCallingCode(callingCode);
    if (codes === undefined || codes.length === 0) {
      otherCallingCodes.add(callingCode);
      continue;
    }
    const countries = codes.map((country) => {
      const plan = byCountry.get(country) ?? compilePlan(reader, country);
      byCountry.set(country, plan);
      return plan;
    });
    byCallingCode.set(callingCode, { main: countries[0]!, countries });
  }
  return { byCallingCode, byCountry, otherCallingCodes };
}

/** Whether `national` is a valid number of `plan`: `isValidNumber` of the library for a selected plan. */
function validForPlan(plan: PhonePlan, national: string): boolean {
  if (!plan.national.test(national)) return false;
  if (plan.types === undefined) return true;
  return hasType(plan.types, national);
}

/** Whether `national` is of some type of the plan (`getNumberType` is defined), given the national pattern matched. */
function hasType(types: readonly TypeRule[], national: string): boolean {
  for (const t of types) {
    if (t.lengths !== undefined && !t.lengths.includes(national.length)) continue;
    if (t.pattern.test(national)) return true;
  }
  return false;
}

/**
 * Whether `national` is a valid number of the calling code `plans`, judged in the plan of its
 * country as the library picks it (`getCountryByNationalNumber`): the first country whose
 * leading digits start the number, or (for a country without leading digits) of which it is a
 * number of some type — valid then, as `isValidNumber` would find again; when no country is
 * picked, `fallback` (the region of a national number, else the calling code's main plan).
 */
export function validForCallingCode(plans: CallingCodePlans, national: string, fallback: PhonePlan = plans.main): boolean {
  if (plans.countries.length === 1) return validForPlan(plans.countries[0]!, national);
  for (const plan of plans.countries) {
    if (plan.leadingDigits !== undefined) {
      if (national.search(plan.leadingDigits) === 0) return validForPlan(plan, national);
    } else if (plan.types !== undefined && plan.national.test(national) && hasType(plan.types, national)) return true;
  }
  return validForPlan(fallback, national);
}
