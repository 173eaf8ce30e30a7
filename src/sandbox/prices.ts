// Deterministic prices, rates and balances for the sandbox. Every value is a decimal string and
// every computation is money/decimal.ts's BigInt arithmetic: no amount or rate ever passes through
// a JavaScript number. Decimals per asset come from the network registry (payment-uri/).
import { divideRounded } from '../money/decimal.js';
import { NETWORK_IDS } from '../payment-uri/networks.js';
import { assetDecimals } from '../payment-uri/decimals.js';

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
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** USD price of one unit of `symbol` (upper case), or undefined when the sandbox does not know it. */
export function usdPrice(symbol: string): string | undefined {
  return own(USD_PRICES, symbol);
}

/** The USD price of every symbol the sandbox knows but `except` (the fiat ones, for the prices operation), in a fixed order. */
export function usdPrices(except: (symbol: string) => boolean = () => false): Record<string, string> {
  return Object.fromEntries(Object.entries(USD_PRICES).filter(([symbol]) => !except(symbol)));
}

/** The fiat currencies the sandbox prices (USD_PRICES), with their names and display precision, for GET /v1/common/fiats. */
const FIAT_NAMES: Readonly<Record<string, string>> = { USD: 'US Dollar', EUR: 'Euro', GBP: 'British Pound' };

/** Each fiat currency the sandbox prices: code, name, USD price of one unit, display precision ("0.01"), in a fixed order. */
export function sandboxFiats(isFiat: (symbol: string) => boolean): Array<{ symbol: string; name: string; price: string; displayPrecision: string }> {
  return Object.entries(USD_PRICES)
    .filter(([symbol]) => isFiat(symbol))
    .map(([symbol, price]) => ({ symbol, name: own(FIAT_NAMES, symbol) ?? symbol, price, displayPrecision: '0.01' }));
}

/** Whether the sandbox has a price for `symbol` (crypto or fiat). */
export function isKnownCurrency(symbol: string): boolean {
  return usdPrice(symbol) !== undefined;
}

/**
 * Digits a pay amount is rounded to: the asset's fewest decimals over the networks it is on (so the
 * amount is exact on every one of them; USDT has 6 on most chains, 18 on BNB Smart Chain), capped
 * at 18; 8 for an asset the registry does not know.
 */
export function displayDecimals(symbol: string): number {
  const known = NETWORK_IDS.map((id) => assetDecimals(id, symbol)).filter((d): d is number => d !== undefined);
  return known.length === 0 ? 8 : Math.min(18, ...known);
}

/** The sandbox merchant's balances, in a fixed order. A fresh object each call. */
export function sandboxBalances(): Record<string, string> {
  return { ...BALANCES };
}

const RATE_DECIMALS = 8;
const RATE_SIGNIFICANT = 8;
const RATE_MAX_DECIMALS = 40;

/**
 * a/b rounded half-up to 8 decimal places, or to more places when that would leave fewer than
 * 8 significant digits (rates below 1, e.g. DOGE→BTC), trailing zeros trimmed.
 */
export function divideForRate(a: string, b: string): string {
  return divideRounded(a, b, RATE_DECIMALS, RATE_SIGNIFICANT, RATE_MAX_DECIMALS);
}

/** Rate from→to: how many `to` one `from` is worth, as a decimal string. Undefined if unknown. */
export function exchangeRate(from: string, to: string): string | undefined {
  const pf = usdPrice(from);
  const pt = usdPrice(to);
  if (pf === undefined || pt === undefined) return undefined;
  return divideForRate(pf, pt);
}
