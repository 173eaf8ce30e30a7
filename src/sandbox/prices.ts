// Deterministic prices, rates and display precisions for the sandbox. Every value is a decimal
// string and every computation is BigInt arithmetic on those digits: no amount or rate ever passes
// through a JavaScript number.
import { fromBaseUnits } from '../money/decimal.js';

/** Fixed USD price of one unit of each symbol the sandbox knows (fiat included). */
const USD_PRICES: Readonly<Record<string, string>> = {
  BTC: '65573.55',
  ETH: '3421.17',
  USDT: '1',
  USDC: '1',
  LTC: '84.12',
  DOGE: '0.1623',
  TRX: '0.1582',
  BNB: '598.4',
  POL: '0.52',
  SOL: '142.37',
  TON: '5.21',
  XMR: '162.9',
  BCH: '372.6',
  DASH: '28.9',
  USD: '1',
  EUR: '1.08',
  GBP: '1.27',
};

/** Fiat symbols accepted as a white-label `currency` (never as a `payCurrency`). */
export const FIAT_CURRENCIES: readonly string[] = ['USD', 'EUR', 'GBP'];

/** Digits after the point to which a pay amount is rounded, per pay asset. */
const DISPLAY_DECIMALS: Readonly<Record<string, number>> = {
  BTC: 8,
  LTC: 8,
  DOGE: 8,
  BCH: 8,
  DASH: 8,
  USDT: 6,
  USDC: 6,
  TRX: 6,
  SOL: 9,
  TON: 9,
  XMR: 12,
  ETH: 18,
  BNB: 18,
  POL: 18,
};

/**
 * Deterministic wallet balances of the sandbox merchant, one per crypto symbol: several with many
 * decimals (an 18-decimal ETH one among them) and several zero balances written "0".
 */
const BALANCES: Readonly<Record<string, string>> = {
  BTC: '0.00012345',
  ETH: '1.234567890123456789',
  USDT: '1520.75',
  USDC: '0',
  LTC: '3.14159265',
  DOGE: '0',
  TRX: '250.000001',
  BNB: '0.000000000000000001',
  POL: '0',
  SOL: '12.345678901',
  TON: '0',
  XMR: '0.123456789012',
  BCH: '0',
  DASH: '0.5',
};

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** USD price of one unit of `symbol` (upper case), or undefined when the sandbox does not know it. */
export function usdPrice(symbol: string): string | undefined {
  return own(USD_PRICES, symbol);
}

/** Whether the sandbox has a price for `symbol` (crypto or fiat). */
export function isKnownCurrency(symbol: string): boolean {
  return usdPrice(symbol) !== undefined;
}

/** Display precision of a pay asset; 8 for an asset missing from the table. */
export function displayDecimals(symbol: string): number {
  return own(DISPLAY_DECIMALS, symbol) ?? 8;
}

/** The sandbox merchant's balances, in a fixed order. A fresh object each call. */
export function sandboxBalances(): Record<string, string> {
  return { ...BALANCES };
}

// ---------------------------------------------------------------------------------------------
// Exact decimal arithmetic on plain non-negative decimal strings ("123", "0.00038127").

interface Scaled {
  /** The digits as an integer. */
  units: bigint;
  /** Number of digits after the point. */
  scale: number;
}

const PLAIN = /^(\d+)(?:\.(\d+))?$/;

function scaled(value: string): Scaled {
  const m = PLAIN.exec(value);
  if (!m) throw new RangeError(`not a plain non-negative decimal: ${value}`);
  const int = m[1] ?? '0';
  const frac = m[2] ?? '';
  return { units: BigInt(int + frac), scale: frac.length };
}

/** Rounds numerator/denominator (both > 0 or numerator = 0) half-up to an integer. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Exact quotient a/b of two plain decimals as a fraction of BigInts. */
function fraction(a: string, b: string): { num: bigint; den: bigint } {
  const x = scaled(a);
  const y = scaled(b);
  // a/b = (x.units / 10^x.scale) / (y.units / 10^y.scale)
  return { num: x.units * 10n ** BigInt(y.scale), den: y.units * 10n ** BigInt(x.scale) };
}

const RATE_DECIMALS = 8;
const RATE_SIGNIFICANT = 8;
const RATE_MAX_DECIMALS = 40;

/**
 * a/b rounded half-up to 8 decimal places, or to more places when that would leave fewer than
 * 8 significant digits (rates below 1, e.g. DOGE→BTC), trailing zeros trimmed.
 */
export function divideForRate(a: string, b: string): string {
  const { num, den } = fraction(a, b);
  if (den === 0n) throw new RangeError('division by zero');
  if (num === 0n) return '0';
  const minUnits = 10n ** BigInt(RATE_SIGNIFICANT - 1);
  let decimals = RATE_DECIMALS;
  while (decimals < RATE_MAX_DECIMALS && (num * 10n ** BigInt(decimals)) / den < minUnits) decimals++;
  return fromBaseUnits(roundHalfUp(num * 10n ** BigInt(decimals), den), decimals);
}

/** Rate from→to: how many `to` one `from` is worth, as a decimal string. Undefined if unknown. */
export function exchangeRate(from: string, to: string): string | undefined {
  const pf = usdPrice(from);
  const pt = usdPrice(to);
  if (pf === undefined || pt === undefined) return undefined;
  return divideForRate(pf, pt);
}

/** a×b rounded half-up to `decimals` places, trailing zeros trimmed (plain non-negative decimals). */
export function multiplyRounded(a: string, b: string, decimals: number): string {
  const x = scaled(a);
  const y = scaled(b);
  const product = x.units * y.units;
  const scale = x.scale + y.scale;
  if (scale <= decimals) return fromBaseUnits(product * 10n ** BigInt(decimals - scale), decimals);
  return fromBaseUnits(roundHalfUp(product, 10n ** BigInt(scale - decimals)), decimals);
}
