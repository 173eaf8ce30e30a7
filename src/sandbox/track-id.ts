// The sandbox's track ids of before (`sbx…`; new payments get numeric ids, gateway.ts, with their
// record in the journal, journal.ts). Journals on users' machines still hold them, so every sandbox
// still answers for one from the id alone; the encoder stays for tests and benchmarks.
//
// Such a track id carries the payment: when it was created, its lifetime, the offering (coin
// and network), the outcome its order id chose, the settle time, and the amount and currency asked
// for. Every `--sandbox` run starts its own in-process sandbox, so a later `gw status <id>
// --sandbox` has no memory of the payment: it decodes the id and the lifecycle (lifecycle.ts)
// gives the state at that moment. The pay amount, rate and address follow from these
// deterministically (prices.ts, addresses.ts).
//
// Format: "sbx" + base 36 (0-9a-z) of one integer packing, most significant first: the amount's
// digits, its scale, the currency, the settle seconds, the outcome, the offering, the lifetime,
// the creation time (Unix seconds), a 16-bit nonce, a version; then 12 check bits
// (SHA-256 of the rest), so a mistyped id is refused (result 116) rather than read as another
// payment. A 25 USDT payment's id is 26 characters, e.g. `sbxtyzgsqjnn9ybzle8dw5ne3d`.
// Version 1 packs the outcome in 2 bits (paid, underpaid, expired, failed) and is still what those
// outcomes get, so their ids are as before; version 2 differs only in giving the outcome 4 bits,
// for the outcomes added after them (late, partial, mixed, refund).
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { OUTCOMES, type Outcome } from './lifecycle.js';
import { SANDBOX_OFFERINGS } from './offerings.js';

export const TRACK_ID_PREFIX = 'sbx';
/** Version 1: four outcomes; version 2: up to sixteen. */
const OUTCOME_RADIX: Readonly<Record<number, number>> = { 1: 4, 2: 16 };
/** Longest amount, in digits, a track id carries (the sandbox refuses longer amounts with 110). */
export const MAX_AMOUNT_DIGITS = 40;

/**
 * A new track id's number (a payment's or a payout's): 9 digits drawn at random, as the gateway's.
 * Math.random serves, as for gw's order ids: a track id is no secret; node:crypto would cost every
 * `--sandbox` run its load.
 */
export function randomTrackNumber(): string {
  return String(100_000_000 + Math.floor(Math.random() * 900_000_000));
}

/**
 * Currencies an amount may be asked in (every symbol the sandbox prices, fiat included), by index.
 * Append only: an index, once given, is part of every id issued with it.
 */
export const TRACK_ID_CURRENCIES: readonly string[] = [
  'BTC',
  'ETH',
  'USDT',
  'USDC',
  'LTC',
  'DOGE',
  'TRX',
  'BNB',
  'POL',
  'SOL',
  'TON',
  'XMR',
  'BCH',
  'DASH',
  'USD',
  'EUR',
  'GBP',
];

export interface TrackIdFields {
  /** Unix seconds. */
  createdAt: number;
  /** Minutes. */
  lifeTime: number;
  /** Index into SANDBOX_OFFERINGS. */
  offering: number;
  outcome: Outcome;
  settleSeconds: number;
  /** The currency the amount was asked in (one of TRACK_ID_CURRENCIES). */
  currency: string;
  /** The amount asked for, a plain decimal with its digits as sent (trailing zeros kept). */
  amount: string;
  /** Tells apart payments that agree on everything else. */
  nonce: number;
}

// Radix of each packed field, least significant first after the version.
const R = { version: 16, nonce: 65536, created: 2 ** 34, lifeTime: 4096, offering: 64, settle: 65536, currency: 64, scale: 64 } as const;
const CHECK = 4096n;

function checkBits(body: bigint): bigint {
  const digest = sha256(utf8ToBytes(`${TRACK_ID_PREFIX}:${body.toString(36)}`));
  return BigInt(((digest[0] ?? 0) << 4) | ((digest[1] ?? 0) >> 4));
}

function inRange(n: number, radix: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n < radix;
}

/** The track id for `fields`, or undefined when a field cannot be carried (unknown currency, amount too long…). */
export function encodeTrackId(fields: TrackIdFields): string | undefined {
  const currency = TRACK_ID_CURRENCIES.indexOf(fields.currency);
  const outcome = OUTCOMES.indexOf(fields.outcome);
  const version = outcome < (OUTCOME_RADIX[1] as number) ? 1 : 2;
  const [int = '', frac = ''] = fields.amount.split('.');
  const digits = `${int}${frac}`;
  const created = fields.createdAt;
  if (
    currency < 0 ||
    outcome < 0 ||
    outcome >= (OUTCOME_RADIX[version] as number) ||
    !/^\d+(?:\.\d+)?$/.test(fields.amount) ||
    digits.length > MAX_AMOUNT_DIGITS ||
    !inRange(frac.length, R.scale) ||
    !inRange(fields.settleSeconds, R.settle) ||
    !inRange(fields.offering, R.offering) ||
    !inRange(fields.lifeTime, R.lifeTime) ||
    !inRange(created, R.created) ||
    !inRange(fields.nonce, R.nonce)
  ) {
    return undefined;
  }
  let n = BigInt(digits);
  const push = (value: number, radix: number): void => {
    n = n * BigInt(radix) + BigInt(value);
  };
  push(frac.length, R.scale);
  push(currency, R.currency);
  push(fields.settleSeconds, R.settle);
  push(outcome, OUTCOME_RADIX[version] as number);
  push(fields.offering, R.offering);
  push(fields.lifeTime, R.lifeTime);
  push(created, R.created);
  push(fields.nonce, R.nonce);
  push(version, R.version);
  return TRACK_ID_PREFIX + (n * CHECK + checkBits(n)).toString(36);
}

/** The fields a sandbox track id carries, or undefined when it is not one (or was mistyped). */
export function decodeTrackId(trackId: string): TrackIdFields | undefined {
  if (!trackId.startsWith(TRACK_ID_PREFIX)) return undefined;
  const body = trackId.slice(TRACK_ID_PREFIX.length);
  if (!/^[0-9a-z]{1,80}$/.test(body)) return undefined;
  let n = 0n;
  for (const ch of body) n = n * 36n + BigInt(parseInt(ch, 36));
  const check = n % CHECK;
  n /= CHECK;
  if (checkBits(n) !== check) return undefined;
  const pop = (radix: number): number => {
    const value = Number(n % BigInt(radix));
    n /= BigInt(radix);
    return value;
  };
  const outcomeRadix = OUTCOME_RADIX[pop(R.version)];
  if (outcomeRadix === undefined) return undefined;
  const nonce = pop(R.nonce);
  const createdAt = pop(R.created);
  const lifeTime = pop(R.lifeTime);
  const offering = pop(R.offering);
  const outcome = OUTCOMES[pop(outcomeRadix)];
  const settleSeconds = pop(R.settle);
  const currency = TRACK_ID_CURRENCIES[pop(R.currency)];
  const scale = pop(R.scale);
  const digits = n.toString().padStart(scale + 1, '0');
  if (outcome === undefined || currency === undefined || offering >= SANDBOX_OFFERINGS.length || lifeTime === 0 || settleSeconds === 0 || n === 0n) {
    return undefined;
  }
  const amount = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return { createdAt, lifeTime, offering, outcome, settleSeconds, currency, amount, nonce };
}
