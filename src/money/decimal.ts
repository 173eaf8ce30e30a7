// Money as decimal strings. Nothing here converts an amount to a JavaScript number: amounts stay
// strings of digits from the moment they are typed or received until they are printed or encoded,
// and conversions to base units are BigInt arithmetic on those digits.

const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;
const DECIMAL_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Validates an amount typed by a user: a plain positive decimal such as `25` or `0.00038127`.
 * Returns it with redundant leading zeros removed (so it is a valid JSON number literal) and every
 * other digit, trailing zeros included, exactly as typed. Returns undefined when it is not one.
 */
export function parsePositiveDecimal(input: string): string | undefined {
  const text = input.trim();
  if (!PLAIN_DECIMAL.test(text)) return undefined;
  const [intPart = '', fracPart] = text.split('.');
  const int = intPart.replace(/^0+(?=\d)/, '');
  if (/^0*$/.test(int) && (fracPart === undefined || /^0*$/.test(fracPart))) return undefined;
  return fracPart === undefined ? int : `${int}.${fracPart}`;
}

/**
 * Turns a numeric literal the gateway sent (a JSON number or a numeric string, possibly with an
 * exponent such as `1.5e-7`) into plain decimal notation with exactly the same value and digits.
 * Returns undefined when the text is not a number.
 */
export function toPlainDecimal(literal: string): string | undefined {
  const m = DECIMAL_LITERAL.exec(literal.trim());
  if (!m) return undefined;
  const [, sign = '', int = '', frac = '', expText] = m;
  if (expText === undefined) return `${sign}${int}${frac ? `.${frac}` : ''}`;
  const exp = Number(expText);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) return undefined;
  let digits = int + frac;
  let point = int.length + exp;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const intOut = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const fracOut = digits.slice(point);
  return `${sign}${intOut}${fracOut ? `.${fracOut}` : ''}`;
}

/** Number of digits after the decimal point of a plain decimal string. */
export function fractionDigits(amount: string): number {
  const dot = amount.indexOf('.');
  return dot < 0 ? 0 : amount.length - dot - 1;
}

export class TooManyDecimalsError extends Error {
  constructor(
    readonly amount: string,
    readonly decimals: number,
  ) {
    super(`${amount} has more than ${decimals} decimal places`);
    this.name = 'TooManyDecimalsError';
  }
}

/**
 * Converts a plain non-negative decimal amount in coin units to integer base units
 * (satoshi, wei, sun…) for an asset with `decimals` decimal places. Trailing zeros beyond the
 * asset's precision are harmless; any other extra digit would be silently lost, so it is refused.
 */
export function toBaseUnits(amount: string, decimals: number): bigint {
  if (!PLAIN_DECIMAL.test(amount)) throw new RangeError(`not a plain decimal amount: ${amount}`);
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`bad decimals: ${decimals}`);
  const [int = '0', frac = ''] = amount.split('.');
  const kept = frac.slice(0, decimals);
  if (/[1-9]/.test(frac.slice(decimals))) throw new TooManyDecimalsError(amount, decimals);
  return BigInt(int + kept.padEnd(decimals, '0'));
}

/** The inverse of toBaseUnits: integer base units to a plain decimal string without trailing zeros. */
export function fromBaseUnits(units: bigint, decimals: number): string {
  if (units < 0n) throw new RangeError('negative amount');
  const digits = units.toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** Compares two plain non-negative decimal strings by value. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(fractionDigits(a), fractionDigits(b));
  const x = toBaseUnits(a, scale);
  const y = toBaseUnits(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rounds numerator/denominator (numerator ≥ 0, denominator > 0) half-up to an integer. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** a×b of plain non-negative decimals, rounded half-up to `decimals` places, trailing zeros trimmed. */
export function multiplyRounded(a: string, b: string, decimals: number): string {
  const sa = fractionDigits(a);
  const sb = fractionDigits(b);
  const product = toBaseUnits(a, sa) * toBaseUnits(b, sb);
  const scale = sa + sb;
  if (scale <= decimals) return fromBaseUnits(product * 10n ** BigInt(decimals - scale), decimals);
  return fromBaseUnits(roundHalfUp(product, 10n ** BigInt(scale - decimals)), decimals);
}

/**
 * a/b of plain non-negative decimals (b > 0), rounded half-up to `decimals` places, or to more
 * places (up to `maxDecimals`) while the result would have fewer than `significant` significant
 * digits; trailing zeros trimmed.
 */
export function divideRounded(a: string, b: string, decimals: number, significant = 0, maxDecimals = decimals): string {
  const sa = fractionDigits(a);
  const sb = fractionDigits(b);
  const num = toBaseUnits(a, sa) * 10n ** BigInt(sb);
  const den = toBaseUnits(b, sb) * 10n ** BigInt(sa);
  if (den === 0n) throw new RangeError('division by zero');
  if (num === 0n) return '0';
  const minUnits = significant > 0 ? 10n ** BigInt(significant - 1) : 0n;
  let places = decimals;
  while (places < maxDecimals && (num * 10n ** BigInt(places)) / den < minUnits) places++;
  return fromBaseUnits(roundHalfUp(num * 10n ** BigInt(places), den), places);
}

/**
 * An exact decimal amount. It can only be built from text that was validated as a decimal number
 * (a literal the gateway sent, an amount a user typed, or base units), so holding a Decimal means
 * holding exact digits: it never passes through a JavaScript number. Its string form is plain
 * notation (no exponent), and JSON writes it as that string.
 */
export class Decimal {
  static readonly ZERO = new Decimal('0');

  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
  }

  /** A number literal as a peer writes it: JSON number or numeric text, exponent forms included. */
  static fromLiteral(literal: string): Decimal | undefined {
    const plain = toPlainDecimal(literal);
    if (plain === undefined) return undefined;
    const negative = plain.startsWith('-');
    const body = negative ? plain.slice(1) : plain;
    const zero = /^[0.]*$/.test(body);
    return new Decimal(`${negative && !zero ? '-' : ''}${body.replace(/^0+(?=\d)/, '')}`);
  }

  /** An amount typed by a user: a plain positive decimal such as 25 or 0.00038127. */
  static parseAmount(input: string): Decimal | undefined {
    const plain = parsePositiveDecimal(input);
    return plain === undefined ? undefined : new Decimal(plain);
  }

  static fromBaseUnits(units: bigint, decimals: number): Decimal {
    return new Decimal(fromBaseUnits(units, decimals));
  }

  toString(): string {
    return this.#text;
  }

  toJSON(): string {
    return this.#text;
  }

  get isNegative(): boolean {
    return this.#text.startsWith('-');
  }

  get isZero(): boolean {
    return /^-?[0.]*$/.test(this.#text);
  }

  get isPositive(): boolean {
    return !this.isNegative && !this.isZero;
  }

  /** Digits after the decimal point, as written. */
  get fractionDigits(): number {
    return fractionDigits(this.#text);
  }

  /** Compares by value. */
  compare(other: Decimal): -1 | 0 | 1 {
    if (this.isNegative !== other.isNegative) return this.isNegative ? -1 : 1;
    const magnitude = compareDecimals(this.#text.replace(/^-/, ''), other.#text.replace(/^-/, ''));
    return this.isNegative ? ((-magnitude || 0) as -1 | 0 | 1) : magnitude;
  }

  equals(other: Decimal): boolean {
    return this.compare(other) === 0;
  }

  /** Integer base units for an asset with `decimals` places; TooManyDecimalsError rather than rounding. */
  toBaseUnits(decimals: number): bigint {
    if (this.isNegative) throw new RangeError('negative amount');
    return toBaseUnits(this.#text, decimals);
  }

  /** This × factor, rounded half-up to `decimals` places (both non-negative). */
  times(factor: Decimal, decimals: number): Decimal {
    return new Decimal(multiplyRounded(this.#text, factor.#text, decimals));
  }

  /** This + other (both non-negative), exact. */
  plus(other: Decimal): Decimal {
    const scale = Math.max(this.fractionDigits, other.fractionDigits);
    return Decimal.fromBaseUnits(this.toBaseUnits(scale) + other.toBaseUnits(scale), scale);
  }
}
