// The sandbox's payouts (docs/gateway.md §13; docs/sandbox.md "Payouts"): POST /v1/payout checked as
// the gateway would (coin, network, address for that network, amount within the coin's decimals and
// the balance), then a lifecycle on the compressed clock, read from the time like the payments':
// processing → pending → confirming → confirmed over the settle time; a payout whose description
// ends in `-reject` ends `rejected` instead (nothing leaves). Fees and minimums are 0, like every
// sandbox fee. Balances move: what confirmed or is still under way is taken off the balance.
//
// Payouts made by a `--sandbox` run are appended to `sandbox-payouts.jsonl` beside the payment
// journal (one O_APPEND write per payout), so a later run's `gw payout status` finds them.
//
// Notifications: a payout with a callback_url emits a change at creation and at each later state
// (timers, unref'd, cancelled by close()); notify.ts delivers them, type `payout`, signed with the
// PAYOUT key (docs/gateway.md §13), the v1 fields track_id, type, status, tx_hash, address,
// amount, value, currency, network, description, date.
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { normalizePayoutStatus, payoutCounts, type PayoutState } from '../domain/payout-status.js';
import { compareDecimals, Decimal, fractionDigits, multiplyRounded } from '../money/decimal.js';
import type { CreatedPayoutAnswer } from '../operations/create-payout.js';
import type { PayoutHistoryAnswer } from '../operations/payout-history.js';
import type { PayoutRecord } from '../operations/payout-info.js';
import { assetDecimals } from '../payment-uri/decimals.js';
import { validateAddress } from '../payment-uri/index.js';
import { matchNetwork } from '../payment-uri/networks.js';
import { LosslessNumber } from 'lossless-json';
import { stringifyLossless } from '../util/json.js';
import { fail, ok, type Answer } from './envelopes.js';
import { usdPrice } from './prices.js';
import { isHttpUrl, isPositive, readId, readInteger, readNumeric, readString, readSymbol, type RequestFields } from './fields.js';
import { offerings } from './store.js';
import { randomTrackNumber } from './track-id.js';
import { readSandboxFile } from './journal.js';

/** A description ending in this makes the payout end `rejected`. */
export const REJECT_SUFFIX = '-reject';
/** The payout file beside the payment journal. */
export const PAYOUTS_FILE = 'sandbox-payouts.jsonl';
/** A payout file larger than this is not read (the sandbox goes on with this process's payouts). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** A payout the sandbox keeps: canonical values, amounts as digits. */
export interface SandboxPayout {
  trackId: string;
  address: string;
  currency: string;
  network: string;
  amount: string;
  memo: string;
  description: string;
  callbackUrl: string;
  /** Unix seconds. */
  createdAt: number;
  settleSeconds: number;
  final: 'confirmed' | 'rejected';
}

export interface PayoutsConfig {
  now: () => number;
  settleSeconds: number;
  /** The key payout notifications are signed with. */
  payoutKey?: string;
  /** Runs `fn` after `ms`, returns a cancel function; default an unref'd setTimeout. */
  schedule?: (ms: number, fn: () => void) => () => void;
  /** The payment journal's file: the payouts file goes beside it. None: this process's payouts only. */
  journalFile?: string;
  onNotice?: (line: string) => void;
}

/** A payout's state at `nowMs`: thirds of the settle time as processing, pending, confirming; then its end. */
export function payoutStateAt(payout: SandboxPayout, nowMs: number): Exclude<PayoutState, 'unknown' | 'canceled'> {
  const elapsed = nowMs - payout.createdAt * 1000;
  const settle = payout.settleSeconds * 1000;
  if (elapsed >= settle) return payout.final;
  if (payout.final === 'rejected') return 'processing';
  if (elapsed < settle / 3) return 'processing';
  return elapsed < (2 * settle) / 3 ? 'pending' : 'confirming';
}

/** Its made-up transaction hash once broadcast (confirming or confirmed); "" before and when rejected. */
function txHashOf(payout: SandboxPayout, state: PayoutState): string {
  return state === 'confirming' || state === 'confirmed' ? bytesToHex(sha256(utf8ToBytes(`gw-sandbox-payout\u0000${payout.trackId}`))) : '';
}

/** One change of a payout with a callback URL: what notify.ts signs (with `payoutKey`) and sends. */
export interface PayoutChange {
  trackId: string;
  callbackUrl: string;
  /** The status word the body carries. */
  status: string;
  /** The exact body bytes. */
  body: string;
  payoutKey: string;
}

const defaultSchedule = (ms: number, fn: () => void): (() => void) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** The payouts of a gateway, by its events object (how notify.ts's listen() finds them). */
const BY_EVENTS = new WeakMap<object, SandboxPayouts>();
export function attachPayouts(events: object, payouts: SandboxPayouts): void {
  BY_EVENTS.set(events, payouts);
}
export function payoutsOf(events: object): SandboxPayouts | undefined {
  return BY_EVENTS.get(events);
}

/** The v1 payout notification body (docs/gateway.md §13), amounts as JSON numbers, the status capitalised as the webhook samples write them. */
export function payoutNotificationBody(record: PayoutRecord): string {
  const price = usdPrice(record.currency);
  const word = `${record.status.charAt(0).toUpperCase()}${record.status.slice(1)}`;
  return stringifyLossless({
    track_id: record.trackId,
    type: 'payout',
    status: word,
    tx_hash: record.txHash,
    address: record.address,
    amount: new LosslessNumber(record.amount),
    value: new LosslessNumber(price === undefined ? '0' : multiplyRounded(record.amount, price, 2)),
    currency: record.currency,
    network: record.network,
    description: record.description,
    date: record.date,
  });
}

export class SandboxPayouts {
  readonly #mine = new Map<string, SandboxPayout>();
  readonly #listeners = new Set<(change: PayoutChange) => void>();
  readonly #timers = new Set<() => void>();

  constructor(private readonly config: PayoutsConfig) {}

  /** Subscribes to payout changes (those with a callback URL); returns the unsubscribe function. */
  onChange(listener: (change: PayoutChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops every notification timer. */
  close(): void {
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
  }

  #emit(payout: SandboxPayout): void {
    const record = this.record(payout);
    const change: PayoutChange = {
      trackId: payout.trackId,
      callbackUrl: payout.callbackUrl,
      status: record.status,
      body: payoutNotificationBody(record),
      payoutKey: this.config.payoutKey ?? '',
    };
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /** A change now, and one at each later state (thirds of the settle time; a rejected one at its end only). */
  #notify(payout: SandboxPayout): void {
    if (payout.callbackUrl === '') return;
    this.#emit(payout);
    const settle = payout.settleSeconds * 1000;
    const steps = payout.final === 'rejected' ? [settle] : [settle / 3, (2 * settle) / 3, settle];
    const schedule = this.config.schedule ?? defaultSchedule;
    for (const at of steps) {
      const cancel = schedule(Math.ceil(at), () => {
        this.#timers.delete(cancel);
        this.#emit(payout);
      });
      this.#timers.add(cancel);
    }
  }

  get #file(): string | undefined {
    return this.config.journalFile === undefined ? undefined : path.join(path.dirname(this.config.journalFile), PAYOUTS_FILE);
  }

  /** This process's payouts and those the file records, by track id (this process's win). */
  #all(): SandboxPayout[] {
    const byId = new Map<string, SandboxPayout>();
    for (const p of this.#readFile()) byId.set(p.trackId, p);
    for (const p of this.#mine.values()) byId.set(p.trackId, p);
    return [...byId.values()];
  }

  #readFile(): SandboxPayout[] {
    const file = this.#file;
    if (file === undefined) return [];
    let text: string | undefined;
    try {
      text = readSandboxFile(file, MAX_FILE_BYTES);
    } catch {
      // A payouts file that cannot be used holds none (the journal's own rules: ./journal.ts).
      return [];
    }
    if (text === undefined) return [];
    const out: SandboxPayout[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const v = JSON.parse(line) as SandboxPayout;
        if (typeof v.trackId === 'string' && typeof v.amount === 'string' && typeof v.createdAt === 'number') out.push(v);
      } catch {
        // A line cut short (a write under way) is left out.
      }
    }
    return out;
  }

  #record(payout: SandboxPayout): void {
    this.#mine.set(payout.trackId, payout);
    const file = this.#file;
    if (file === undefined) return;
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, `${JSON.stringify(payout)}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      this.config.onNotice?.(
        `the sandbox could not record payout ${payout.trackId} in ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}): a later --sandbox run will not find it`,
      );
    }
  }

  /** Per coin, what payouts took off the balance: every one not rejected (the fee is 0). */
  debits(): Map<string, Decimal> {
    const now = this.config.now();
    const out = new Map<string, Decimal>();
    for (const p of this.#all()) {
      if (!payoutCounts(payoutStateAt(p, now))) continue;
      const amount = Decimal.fromLiteral(p.amount) as Decimal;
      out.set(p.currency, (out.get(p.currency) ?? Decimal.ZERO).plus(amount));
    }
    return out;
  }

  /** POST /v1/payout. `available`: the coin's balance now (payouts already taken off). */
  create(fields: RequestFields, available: (coin: string) => Decimal | undefined): Answer<CreatedPayoutAnswer> {
    const currency = readSymbol(fields, 'currency');
    if (currency.kind !== 'ok') return fail(101, 'Validation problem: currency is required');
    const address = readString(fields, 'address');
    if (address.kind !== 'ok') return fail(101, 'Validation problem: address is required');
    const amount = readNumeric(fields, 'amount');
    if (amount.kind === 'absent') return fail(126, 'Validation problem: amount is required');
    if (amount.kind === 'invalid' || !isPositive(amount.plain)) return fail(101, 'Validation problem: amount must be a positive number');
    const coinOfferings = offerings().filter((o) => o.payCurrency === currency.value);
    if (coinOfferings.length === 0) return fail(105, 'Invalid currency');
    const networkField = readString(fields, 'network');
    if (networkField.kind === 'invalid') return fail(101, 'Validation problem: network must be a string');
    let offering = coinOfferings[0];
    if (networkField.kind === 'ok') {
      const id = matchNetwork(networkField.value, currency.value);
      offering = coinOfferings.find((o) => o.networkId === id);
      if (offering === undefined) return fail(106, 'Invalid network');
    } else if (coinOfferings.length > 1) {
      return fail(101, 'Validation problem: network is required for this currency');
    }
    if (offering === undefined) return fail(106, 'Invalid network');
    if (!validateAddress(offering.networkId, address.value).ok) return fail(117, 'Invalid address');
    const decimals = assetDecimals(offering.networkId, currency.value) ?? 8;
    if (fractionDigits(amount.plain) > decimals) return fail(101, `Validation problem: amount has more than ${decimals} decimals`);
    const balance = available(currency.value) ?? Decimal.ZERO;
    if (compareDecimals(amount.plain, balance.toString()) > 0) return fail(130, 'Insufficient balance');
    const callback = readString(fields, 'callbackUrl');
    if (callback.kind === 'invalid' || (callback.kind === 'ok' && !isHttpUrl(callback.value))) return fail(107, 'Invalid callbackUrl');
    const memo = readString(fields, 'memo');
    const description = readString(fields, 'description');
    const payout: SandboxPayout = {
      trackId: randomTrackNumber(),
      address: address.value,
      currency: currency.value,
      network: offering.network,
      amount: amount.plain,
      memo: memo.kind === 'ok' ? memo.value : '',
      description: description.kind === 'ok' ? description.value : '',
      callbackUrl: callback.kind === 'ok' ? callback.value : '',
      createdAt: Math.floor(this.config.now() / 1000),
      settleSeconds: this.config.settleSeconds,
      final: description.kind === 'ok' && description.value.endsWith(REJECT_SUFFIX) ? 'rejected' : 'confirmed',
    };
    this.#record(payout);
    this.#notify(payout);
    return ok({ trackId: payout.trackId, status: 'processing' });
  }

  /** A payout as the API answers it, now. */
  record(payout: SandboxPayout): PayoutRecord {
    const status = payoutStateAt(payout, this.config.now());
    return {
      trackId: payout.trackId,
      address: payout.address,
      currency: payout.currency,
      network: payout.network,
      amount: payout.amount,
      fee: '0',
      status,
      txHash: txHashOf(payout, status),
      description: payout.description,
      internal: false,
      memo: payout.memo,
      date: payout.createdAt,
    };
  }

  /** A payout by track id (this process's, or one the file records). */
  find(trackId: string): SandboxPayout | undefined {
    return this.#mine.get(trackId) ?? this.#readFile().find((p) => p.trackId === trackId);
  }

  /** GET /v1/payout/{track_id}: an unknown one is the versioned 404. */
  info(fields: RequestFields): Answer<PayoutRecord> {
    const trackId = readId(fields, 'trackId');
    if (trackId.kind !== 'ok') return fail(116, 'Invalid trackId');
    const payout = this.find(trackId.value);
    return payout === undefined ? fail(116, 'Invalid trackId') : ok(this.record(payout));
  }

  /** GET /v1/payout: newest first, with the documented filters, paged (size 1–200, default 10). */
  history(fields: RequestFields): Answer<PayoutHistoryAnswer> {
    const size = readInteger(fields, 'size', 10);
    if (size === undefined || size < 1 || size > 200) return fail(101, 'Validation problem: size must be a whole number from 1 to 200', 'size');
    const page = readInteger(fields, 'page', 1);
    if (page === undefined || page < 1) return fail(101, 'Validation problem: page must be a whole number from 1');
    const fromDate = readInteger(fields, 'fromDate', undefined);
    const toDate = readInteger(fields, 'toDate', undefined);
    if (fromDate !== undefined && toDate !== undefined && toDate < fromDate) return fail(119, 'toDate cannot be earlier than fromDate');
    const fromAmount = readNumeric(fields, 'fromAmount');
    const toAmount = readNumeric(fields, 'toAmount');
    const currency = readSymbol(fields, 'currency');
    const network = readString(fields, 'network');
    const status = readString(fields, 'status');
    const type = readString(fields, 'type');
    const wantedNetwork = network.kind === 'ok' ? matchNetwork(network.value) : undefined;
    const records = this.#all()
      .map((p) => ({ p, r: this.record(p) }))
      .filter(({ p, r }) => {
        if (fromDate !== undefined && p.createdAt < fromDate) return false;
        if (toDate !== undefined && p.createdAt > toDate) return false;
        if (fromAmount.kind === 'ok' && compareDecimals(p.amount, fromAmount.plain) < 0) return false;
        if (toAmount.kind === 'ok' && compareDecimals(p.amount, toAmount.plain) > 0) return false;
        if (currency.kind === 'ok' && p.currency !== currency.value) return false;
        if (network.kind === 'ok' && matchNetwork(p.network) !== wantedNetwork) return false;
        if (status.kind === 'ok' && normalizePayoutStatus(status.value) !== r.status) return false;
        if (type.kind === 'ok' && type.value !== 'external') return false;
        return true;
      })
      .sort((a, b) => b.p.createdAt - a.p.createdAt || (a.p.trackId < b.p.trackId ? 1 : -1))
      .map(({ r }) => r);
    const pages = Math.max(1, Math.ceil(records.length / size));
    return ok({ payouts: records.slice((page - 1) * size, page * size), page, pages, total: records.length });
  }
}
