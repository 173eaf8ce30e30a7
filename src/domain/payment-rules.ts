// The gateway's rules for a white-label payment request, in one place: gw checks them before it
// sends anything (a usage error costs nothing, a bad payment does) and the sandbox enforces them
// with the gateway's result codes. Source: the gateway's public documentation
// (docs/gateway.md §1).
import { asciiUpperCase } from '../util/ascii.js';
import { Decimal } from '../money/decimal.js';

/** lifeTime, in minutes. */
export const LIFETIME = { min: 15, max: 2880, default: 60 } as const;

/** underPaidCover, a percentage. */
export const UNDERPAID_COVER = { min: 0, max: 60 } as const;

/** feePaidByPayer: 0, the merchant pays the network fee; 1, the payer does. */
export const FEE_PAID_BY_PAYER = [0, 1] as const;

/**
 * Fiat codes the gateway prices in but a payer cannot send (ISO 4217, the ones merchants use with
 * crypto gateways; IRT is the toman the gateway also accepts).
 */
export const FIAT_CODES: ReadonlySet<string> = new Set([
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'JPY',
  'CHF',
  'CNY',
  'INR',
  'RUB',
  'TRY',
  'BRL',
  'AED',
  'IRR',
  'IRT',
  'SGD',
  'HKD',
  'KRW',
  'MXN',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'ZAR',
]);

export function isFiat(symbol: string): boolean {
  return FIAT_CODES.has(asciiUpperCase(symbol));
}

export type Check<T> = { ok: true; value: T } | { ok: false; problem: 'not-a-number' | 'too-low' | 'too-high' | 'not-whole' };

/** lifeTime from text: a whole number of minutes within LIFETIME. */
export function checkLifeTime(text: string): Check<number> {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return { ok: false, problem: /^\d*\.\d+$/.test(trimmed) ? 'not-whole' : 'not-a-number' };
  const minutes = Number(trimmed);
  if (minutes < LIFETIME.min) return { ok: false, problem: 'too-low' };
  if (minutes > LIFETIME.max) return { ok: false, problem: 'too-high' };
  return { ok: true, value: minutes };
}

/** underPaidCover from text: a percentage within UNDERPAID_COVER (decimals allowed). */
export function checkUnderPaidCover(text: string): Check<Decimal> {
  const trimmed = text.trim();
  const value = /^\d{1,9}(?:\.\d{1,8})?$/.test(trimmed) ? Decimal.fromLiteral(trimmed) : undefined;
  if (value === undefined) return { ok: false, problem: 'not-a-number' };
  if (value.compare(Decimal.fromBaseUnits(BigInt(UNDERPAID_COVER.max), 0)) > 0) return { ok: false, problem: 'too-high' };
  return { ok: true, value };
}

/** feePaidByPayer from text: 0 or 1. */
export function checkFeePaidByPayer(text: string): Check<0 | 1> {
  const trimmed = text.trim();
  if (trimmed === '0' || trimmed === '1') return { ok: true, value: trimmed === '1' ? 1 : 0 };
  return { ok: false, problem: 'not-a-number' };
}
