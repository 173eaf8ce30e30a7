// The sandbox's static (fixed) addresses (docs/gateway.md §11): created per network with a
// made-up address in the network's test form (addresses.ts), listed with the documented filters
// and paging, revoked; kept while the sandbox lives. A payment TO one is simulated on request
// (`gw sandbox deposit`, the control route): a payment of type static address, with the address's
// order id, e-mail, description and callback URL, whose lifecycle runs as a white-label payment's
// does (full: paid; partial: two transfers, 90 % in all, ending underpaid; late: the full amount
// after its expiry) and whose notifications (`type: static_address`) go to the address's callback URL.
// A sandbox with a journal (`--sandbox` runs) appends each address, and each
// revocation, to `sandbox-static-addresses.jsonl` beside it (one O_APPEND write per line; the newest
// line of an address wins), so a later run lists and revokes them too. Like the payment journal,
// the file holds no e-mails, descriptions or callback URLs.

import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { LIFETIME } from '../domain/payment-rules.js';
import type { StaticAddressRecord } from '../operations/static-address.js';
import type { StaticAddressListAnswer } from '../operations/static-address-list.js';
import type { RevokedAnswer } from '../operations/static-address-revoke.js';
import { matchNetwork, type NetworkId } from '../payment-uri/index.js';
import { deriveSandboxAddress } from './addresses.js';
import type { DepositKind } from './deposit-kinds.js';
import { fail, ok, sandboxLink, type Answer } from './envelopes.js';
import { isHttpUrl, isPositive, readId, readInteger, readNumeric, readString, readSymbol, type RequestFields } from './fields.js';
import { readSandboxFile } from './journal.js';
import { DEFAULT_SETTLE_SECONDS, expiresAt, type Outcome } from './lifecycle.js';
import type { PaymentLifecycles } from './live.js';
import { isKnownCurrency } from './prices.js';
import { offerings, planOf, price, type PaymentStore, type SandboxPayment } from './store.js';

/** A fixed address the sandbox made. */
export interface SandboxStaticAddress extends StaticAddressRecord {
  networkId: NetworkId;
  toCurrency: string;
  autoWithdrawal: boolean;
  revoked: boolean;
}

const OUTCOME: Readonly<Record<DepositKind, Outcome>> = { full: 'paid', partial: 'partial', late: 'late' };

/** A simulated payment: how it goes, and what it is worth (25 USD in the network's first coin unless told). */
export interface DepositRequest {
  kind: DepositKind;
  amount?: string;
  currency?: string;
  /** The coin paid; the network's first coin in the sandbox when absent. */
  coin?: string;
}

/** Networks whose deposits the sandbox tags with a memo (as custodial TON deposits are): the memo path is tried there. */
const MEMO_NETWORKS: ReadonlySet<NetworkId> = new Set(['ton']);

/** The list's page size when none is sent (docs/gateway.md §11: 1), and its bound. */
const LIST_SIZE = { min: 1, max: 200, default: 1 } as const;

/** The file beside the payment journal that keeps the addresses. */
export const STATIC_ADDRESSES_FILE = 'sandbox-static-addresses.jsonl';
/** A file larger than this is not one gw wrote: it is not read. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** What the static addresses need of the gateway's configuration. */
export interface StaticAddressSettings {
  now: () => number;
  /** Undefined when the sandbox does not listen: no QR link then. */
  baseUrl: () => string | undefined;
  settleSeconds?: number;
  /** The payment journal: the addresses are kept in a file beside it, and what could not be kept is told through it. */
  journal?: { readonly file: string; notice(line: string): void };
}

export class StaticAddressBook {
  /** By address: those made (or revoked) here, whole. */
  private readonly addresses = new Map<string, SandboxStaticAddress>();

  constructor(
    private readonly store: PaymentStore,
    private readonly lifecycles: PaymentLifecycles,
    private readonly settings: StaticAddressSettings,
  ) {}

  /** A fixed address by its track id (revoked ones too). */
  byTrackId(trackId: string): SandboxStaticAddress | undefined {
    return this.all().find((a) => a.trackId === trackId);
  }

  /** A fixed address by its text (revoked ones too): made here, or kept by an earlier run. */
  get(address: string): SandboxStaticAddress | undefined {
    return this.all().find((a) => a.address === address);
  }

  /** Every address, oldest first: those the file keeps and those made here. */
  private all(): SandboxStaticAddress[] {
    const byAddress = new Map<string, SandboxStaticAddress>();
    for (const a of this.readFile()) byAddress.set(a.address, a);
    // This process's records are whole (the file lacks e-mails, descriptions, callback URLs); a
    // revocation by another process, in the file, still counts.
    for (const a of this.addresses.values()) {
      const kept = byAddress.get(a.address);
      byAddress.set(a.address, kept?.revoked === true ? { ...a, revoked: true } : a);
    }
    return [...byAddress.values()].sort((a, b) => a.date - b.date);
  }

  private get file(): string | undefined {
    const journal = this.settings.journal;
    return journal === undefined ? undefined : path.join(path.dirname(journal.file), STATIC_ADDRESSES_FILE);
  }

  /** The addresses the file keeps (the newest line of each); none without a file; JournalError (exit 78) when it cannot be used. */
  private readFile(): SandboxStaticAddress[] {
    const file = this.file;
    if (file === undefined) return [];
    const text = readSandboxFile(file, MAX_FILE_BYTES);
    if (text === undefined) return [];
    const byAddress = new Map<string, SandboxStaticAddress>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const v = JSON.parse(line) as Partial<SandboxStaticAddress>;
        const networkId = typeof v.network === 'string' ? matchNetwork(v.network) : undefined;
        if (typeof v.address !== 'string' || typeof v.trackId !== 'string' || networkId === undefined || typeof v.date !== 'number') continue;
        byAddress.delete(v.address);
        byAddress.set(v.address, {
          trackId: v.trackId,
          network: String(v.network),
          networkId,
          address: v.address,
          memo: typeof v.memo === 'string' ? v.memo : '',
          QRCode: sandboxLink(this.settings.baseUrl(), `/qr/${v.trackId}.png`),
          callbackUrl: '',
          email: '',
          orderId: typeof v.orderId === 'string' ? v.orderId : '',
          description: '',
          date: v.date,
          toCurrency: typeof v.toCurrency === 'string' ? v.toCurrency : '',
          autoWithdrawal: v.autoWithdrawal === true,
          revoked: v.revoked === true,
        });
      } catch {
        // A line cut short (a write under way) is left out.
      }
    }
    return [...byAddress.values()];
  }

  /** Keeps an address (made, or revoked) here and, with a journal, in the file: one line, one write. */
  private keep(a: SandboxStaticAddress): void {
    this.addresses.set(a.address, a);
    const file = this.file;
    if (file === undefined) return;
    const { trackId, network, address, memo, orderId, date, toCurrency, autoWithdrawal, revoked } = a;
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, `${JSON.stringify({ trackId, network, address, memo, orderId, date, toCurrency, autoWithdrawal, revoked })}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      // Kept in memory all the same: this sandbox answers for it; a later run will not know it.
      this.settings.journal?.notice(
        `the sandbox could not record static address ${address} in ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}): a later --sandbox run will not find it`,
      );
    }
  }

  /** POST /v1/payment/static-address. */
  create(fields: RequestFields): Answer<StaticAddressRecord> {
    const network = readString(fields, 'network');
    if (network.kind === 'invalid') return fail(101, 'Validation problem: network must be a string', 'network');
    if (network.kind === 'absent') return fail(101, 'Validation problem: network is required', 'network');
    const networkId = matchNetwork(network.value);
    const offering = offerings().find((o) => o.networkId === networkId);
    if (networkId === undefined || offering === undefined) return fail(106, 'Invalid network');
    const toCurrency = readSymbol(fields, 'toCurrency');
    if (toCurrency.kind === 'invalid') return fail(101, 'Validation problem: toCurrency must be a string', 'to_currency');
    if (toCurrency.kind === 'ok' && !isKnownCurrency(toCurrency.value)) return fail(122, 'Invalid toCurrency');
    const autoWithdrawal = readFlag(fields.autoWithdrawal);
    if (autoWithdrawal === undefined) return fail(101, 'Validation problem: autoWithdrawal must be 0 or 1', 'auto_withdrawal');
    const callbackUrl = readString(fields, 'callbackUrl');
    if (callbackUrl.kind === 'invalid') return fail(101, 'Validation problem: callbackUrl must be a string');
    if (callbackUrl.kind === 'ok' && !isHttpUrl(callbackUrl.value)) return fail(107, 'Invalid callbackUrl');
    const echoed: Record<'description' | 'orderId' | 'email', string> = { description: '', orderId: '', email: '' };
    for (const name of ['description', 'orderId', 'email'] as const) {
      const s = readString(fields, name);
      if (s.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
      if (s.kind === 'ok') echoed[name] = s.value;
    }
    let trackId = this.store.newTrackId();
    const known = this.all();
    while (known.some((a) => a.trackId === trackId)) trackId = this.store.newTrackId();
    const address = deriveSandboxAddress(networkId, `static-address/${trackId}`);
    const record: SandboxStaticAddress = {
      trackId,
      network: offering.network,
      networkId,
      address,
      memo: MEMO_NETWORKS.has(networkId) ? trackId : '',
      // Its QR image, served as a payment's is (gateway.ts qrImage): the coin URI without an amount.
      QRCode: sandboxLink(this.settings.baseUrl(), `/qr/${trackId}.png`),
      callbackUrl: callbackUrl.kind === 'ok' ? callbackUrl.value : '',
      ...echoed,
      date: Math.floor(this.settings.now() / 1000),
      toCurrency: toCurrency.kind === 'ok' ? toCurrency.value : '',
      autoWithdrawal,
      revoked: false,
    };
    this.keep(record);
    return ok(answerOf(record));
  }

  /** POST /v1/payment/static-address/revoke: payments to it are no longer credited. */
  revoke(fields: RequestFields): Answer<RevokedAnswer> {
    const address = readString(fields, 'address');
    if (address.kind === 'invalid') return fail(101, 'Validation problem: address must be a string', 'address');
    if (address.kind === 'absent') return fail(101, 'Validation problem: address is required', 'address');
    const found = this.get(address.value.trim());
    if (found === undefined || found.revoked) return fail(101, 'Validation problem: no active static address is that address', 'address');
    this.keep({ ...found, revoked: true });
    return ok({});
  }

  /** GET /v1/payment/static-address: newest first, the documented filters, pages of `size` (default 1). */
  list(fields: RequestFields): Answer<StaticAddressListAnswer> {
    const size = readInteger(fields, 'size', LIST_SIZE.default);
    if (size === undefined || size < LIST_SIZE.min || size > LIST_SIZE.max)
      return fail(101, `Validation problem: size must be a whole number from ${LIST_SIZE.min} to ${LIST_SIZE.max}`, 'size');
    const page = readInteger(fields, 'page', 1);
    if (page === undefined || page < 1) return fail(101, 'Validation problem: page must be a whole number from 1', 'page');
    const trackId = readId(fields, 'trackId');
    if (trackId.kind === 'invalid') return fail(116, 'Invalid trackId');
    const text: Partial<Record<'network' | 'currency' | 'address' | 'orderId' | 'email', string>> = {};
    for (const name of ['network', 'currency', 'address', 'orderId', 'email'] as const) {
      const value = name === 'currency' ? readSymbol(fields, name) : readString(fields, name);
      if (value.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
      if (value.kind === 'ok') text[name] = value.value;
    }
    const haveTx = fields.haveTx === undefined ? undefined : readFlag(fields.haveTx);
    if (fields.haveTx !== undefined && haveTx === undefined) return fail(101, 'Validation problem: haveTx must be true or false', 'have_tx');
    const wantedNetwork = text.network === undefined ? undefined : matchNetwork(text.network, text.currency ?? '');
    const matches = this.all()
      .reverse()
      .filter((a) => {
        if (a.revoked) return false;
        if (trackId.kind === 'ok' && a.trackId !== trackId.value) return false;
        if (text.address !== undefined && a.address !== text.address.trim()) return false;
        if (text.orderId !== undefined && a.orderId !== text.orderId) return false;
        if (text.email !== undefined && a.email.toLowerCase() !== text.email.toLowerCase()) return false;
        if (text.network !== undefined && a.networkId !== wantedNetwork) return false;
        if (text.currency !== undefined && !offerings().some((o) => o.networkId === a.networkId && o.payCurrency === text.currency)) return false;
        if (haveTx !== undefined && this.paymentsTo(a.address).length > 0 !== haveTx) return false;
        return true;
      });
    const total = matches.length;
    const pages = Math.max(1, Math.ceil(total / size));
    return ok({ addresses: matches.slice((page - 1) * size, page * size).map(answerOf), page, pages, total });
  }

  /** The payments simulated to `address`, oldest first. */
  paymentsTo(address: string): SandboxPayment[] {
    return [...this.store.known()].filter((p) => p.kind === 'static-address' && p.address === address).reverse();
  }

  /**
   * Simulates a payment to `address` (`gw sandbox deposit`): a new payment of type static address
   * whose lifecycle starts now, its notifications going to the address's callback URL. A message
   * when the address is unknown or revoked, or the amount or coin cannot be used.
   */
  deposit(addressText: string, request: DepositRequest): { ok: true; payment: SandboxPayment } | { ok: false; status: number; message: string } {
    const address = this.get(addressText);
    if (address === undefined) return { ok: false, status: 404, message: `no static address ${addressText} in this sandbox` };
    if (address.revoked) return { ok: false, status: 409, message: `${addressText} is revoked: a payment to it would not be credited` };
    const onNetwork = offerings().filter((o) => o.networkId === address.networkId);
    const offering = request.coin === undefined ? onNetwork[0] : onNetwork.find((o) => o.payCurrency === request.coin);
    if (offering === undefined)
      return { ok: false, status: 400, message: `coin must be one of ${onNetwork.map((o) => o.payCurrency).join(', ')} (the coins of ${address.network})` };
    const amount = readNumeric({ amount: request.amount ?? '25' }, 'amount');
    if (amount.kind !== 'ok' || !isPositive(amount.plain)) return { ok: false, status: 400, message: 'amount must be a positive decimal' };
    const currency = request.currency ?? (request.amount === undefined ? 'USD' : offering.payCurrency);
    if (!isKnownCurrency(currency)) return { ok: false, status: 400, message: `currency ${currency} is not one the sandbox prices` };
    const priced = price(amount.plain, currency, offering.payCurrency);
    if (priced === undefined || !isPositive(priced.payAmount)) return { ok: false, status: 400, message: 'the amount is too small to pay in that coin' };
    const payment: SandboxPayment = {
      kind: 'static-address',
      trackId: this.store.newTrackId(),
      amount: amount.plain,
      currency,
      payAmount: priced.payAmount,
      payCurrency: offering.payCurrency,
      network: offering.network,
      address: address.address,
      rate: priced.rate,
      lifeTime: LIFETIME.default,
      feePaidByPayer: 0,
      underPaidCover: '0',
      callbackUrl: address.callbackUrl,
      description: address.description,
      email: address.email,
      orderId: address.orderId,
      createdAt: Math.floor(this.settings.now() / 1000),
      expiredAt: 0,
      outcome: OUTCOME[request.kind],
      settleSeconds: this.settings.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
      api: 'v1',
    };
    payment.expiredAt = expiresAt(planOf(payment));
    this.store.add(payment);
    this.lifecycles.start(payment);
    return { ok: true, payment };
  }
}

/** A 0/1 or boolean flag as sent (JSON or query text); false when absent, undefined when neither. */
function readFlag(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return false;
  const text = String(value).trim().toLowerCase();
  if (text === '1' || text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  return undefined;
}

/** The address as the answers carry it. */
function answerOf(a: SandboxStaticAddress): StaticAddressRecord {
  return {
    trackId: a.trackId,
    network: a.network,
    address: a.address,
    memo: a.memo,
    QRCode: a.QRCode,
    callbackUrl: a.callbackUrl,
    email: a.email,
    orderId: a.orderId,
    description: a.description,
    date: a.date,
  };
}
