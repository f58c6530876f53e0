/**
 * Exact money: amounts written in currency units ("50.00", 1.5, 2e3) become integer micros
 * (millionths of a unit) by decimal string arithmetic, never through floating point, so "0.1"
 * is 100000 micros and not 100000.00000000001.
 */

/** The micros of one currency unit. */
const MICROS_PER_UNIT = 1_000_000;

/** Why a text is not an amount: not a decimal number, more than 6 decimal places, or out of range. */
type MoneyProblem = { problem: 'format' } | { problem: 'precision'; decimals: number } | { problem: 'range' };

/** The micros of an amount, or why it has none. */
type MoneyParse = { ok: true; micros: number } | ({ ok: false } & MoneyProblem);

const DECIMAL = /^\+?([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/;
const MAX_EXPONENT = 40;

/**
 * Converts a decimal text (digits with an optional fraction and, as YAML numbers may have, an
 * exponent) into micros. Trailing zeros do not count as decimal places ("1.5000000" is fine);
 * negative amounts and amounts beyond 2^53 − 1 micros are out of range.
 */
export function decimalToMicros(text: string): MoneyParse {
  if (text.startsWith('-')) return DECIMAL.test(text.slice(1)) ? { ok: false, problem: 'range' } : { ok: false, problem: 'format' };
  const match = DECIMAL.exec(text);
  if (match === null) return { ok: false, problem: 'format' };
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole.length + fraction.length === 0) return { ok: false, problem: 'format' };
  const exponent = match[3] === undefined ? 0 : Number(match[3]);
  if (Math.abs(exponent) > MAX_EXPONENT) return { ok: false, problem: 'range' };
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  const shift = 6 - fraction.length + exponent;
  let micros: bigint;
  if (shift >= 0) {
    micros = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    const cut = digits.length + shift;
    const dropped = cut > 0 ? digits.slice(cut) : digits.padStart(-shift, '0');
    if (/[^0]/.test(dropped)) {
      const significant = fraction.replace(/0+$/, '').length - exponent;
      return { ok: false, problem: 'precision', decimals: Math.max(significant, 7) };
    }
    micros = cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
  }
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, problem: 'range' };
  return { ok: true, micros: Number(micros) };
}

/**
 * The decimals of the currencies whose minor unit is not a hundredth (ISO 4217): none for the yen,
 * the won and the others without a minor unit in use, three for the dinars that count in
 * thousandths, four for the units of account.
 */
const CURRENCY_DECIMALS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
};

/** The decimals an amount of `currency` is written with (ISO 4217); two when the currency is not known. */
function currencyDecimals(currency: string | null | undefined): number {
  return currency === null || currency === undefined ? 2 : (CURRENCY_DECIMALS[currency] ?? 2);
}

/**
 * Micros as an amount in units of `currency`, exactly: with the currency's own decimals (two when
 * it is not given), and more, up to six, only where the amount has them — 1500000 → "1.50" in USD
 * and "1.5" in JPY, 1000000000 → "1000" in JPY, 1500 → "0.0015" in USD.
 */
export function formatMicros(micros: number, currency?: string | null): string {
  const sign = micros < 0 ? '-' : '';
  const abs = BigInt(Math.abs(micros));
  const unit = BigInt(MICROS_PER_UNIT);
  const fraction = (abs % unit).toString().padStart(6, '0').replace(/0+$/, '').padEnd(currencyDecimals(currency), '0');
  const whole = (abs / unit).toString();
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}
