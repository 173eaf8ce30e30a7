// The sandbox gateway's operations, without HTTP and without either API's spelling: each takes the
// request's fields under their canonical names (values as sent: the operation checks them, with the
// readers of fields.ts) and answers in canonical values (src/operations/*: amounts as exact digits,
// times as Unix seconds) or with a Failure (a result code and message). Keys, field names, JSON
// types and envelopes are the operations' codecs' business (routes.ts, envelopes.ts): the same
// tables the client reads with.
//
// SandboxGateway is the facade the rows of SANDBOX_BEHAVIOURS (at the end) call; the work is in
// the rooms around it:
//   store.ts      the payments kept and found again: this process's (memory), an earlier one's
//                 (the journal), and `sbx…` ids of before, which carry the record themselves
//   create.ts     creating a payment (its checks, pricing, a new 9-digit track id)
//   invoices.ts   payment links (invoices): creating one, and what its payer does on its page
//   history.ts    the payment history: filters, sorting, paging
//   reference.ts  balances, rates, prices and the other reference data
//   live.ts       the lifecycle applied (lifecycle.ts has its rules): states, transactions, the
//                 changes emitted on `events` (events.ts), and forced states
//   fields.ts     the request's fields read liberally (what every operation checks them with)
//   static-addresses.ts  fixed addresses: made, listed, revoked, and payments to them simulated
//   payouts.ts    payouts: their checks, lifecycle and history; what they take off the balances

import { ACCEPTED_CURRENCIES, type AcceptedCurrenciesAnswer } from '../operations/accepted-currencies.js';
import { BALANCE, type BalanceAnswer } from '../operations/balance.js';
import type { Api, KeyKind, Operation } from '../operations/codec.js';
import { CREATE_INVOICE, type CreatedInvoice } from '../operations/create-invoice.js';
import { CREATE_PAYMENT, type CreatedPayment } from '../operations/create-payment.js';
import { CREATE_STATIC_ADDRESS } from '../operations/static-address.js';
import { STATIC_ADDRESS_LIST } from '../operations/static-address-list.js';
import { REVOKE_STATIC_ADDRESS } from '../operations/static-address-revoke.js';
import { CREATE_PAYOUT, type CreatedPayoutAnswer } from '../operations/create-payout.js';
import { PAYOUT_HISTORY, type PayoutHistoryAnswer } from '../operations/payout-history.js';
import { PAYOUT_INFO, type PayoutRecord } from '../operations/payout-info.js';
import { Decimal } from '../money/decimal.js';
import { MERCHANT_RATE } from '../operations/merchant-rate.js';
import { PAYMENT_HISTORY, type PaymentHistoryAnswer } from '../operations/payment-history.js';
import { PAYMENT_STATS, type StatsAnswer } from '../operations/payment-stats.js';
import { PAYMENT_INFO, type PaymentRecord } from '../operations/payment-info.js';
import { RATE, type RateAnswer } from '../operations/rate.js';
import {
  FIATS,
  PRICES,
  SUPPORTED_CURRENCIES,
  SUPPORTED_NETWORKS,
  SYSTEM_STATUS,
  type CurrenciesAnswer,
  type FiatsAnswer,
  type NetworksAnswer,
  type PricesAnswer,
  type SystemStatusAnswer,
} from '../operations/reference-data.js';
import { createPayment } from './create.js';
import { fail, ok, type Answer, type GatewayReply } from './envelopes.js';
import type { PaymentSnapshot, SandboxEvents } from './events.js';
import { readId, type RequestFields } from './fields.js';
import { paymentHistory } from './history.js';
import { paymentStats } from './stats.js';
import { createInvoice, PaymentLinks } from './invoices.js';
import type { SandboxJournal } from './journal.js';
import { DEFAULT_SETTLE_SECONDS, type TriggerState } from './lifecycle.js';
import { PaymentLifecycles } from './live.js';
import * as reference from './reference.js';
import { attachPayouts, SandboxPayouts } from './payouts.js';
import { PaymentStore, type SandboxPayment } from './store.js';
import { StaticAddressBook } from './static-addresses.js';

export type { GatewayReply } from './envelopes.js';
export type { RequestFields } from './fields.js';
export { LIST_SIZE, V1_LIST_SIZE_DEFAULT } from './history.js';
export type { SandboxPayment } from './store.js';

export interface GatewayConfig {
  merchantKey: string;
  payoutKey: string;
  /** The versioned API's general key (balance, rate); without one, those endpoints refuse every key. */
  generalKey?: string;
  /** Current time in milliseconds. */
  now: () => number;
  /** Base URL of the running sandbox (no trailing slash), for QR code and payment page links; undefined when it does not listen (no links then). */
  baseUrl: () => string | undefined;
  /** Seconds from creation to a payment's final state; default DEFAULT_SETTLE_SECONDS. */
  settleSeconds?: number;
  /** Where payments are recorded for later processes (`--sandbox` runs); none by default. */
  journal?: SandboxJournal;
  /** Runs `fn` after `ms` and returns a cancel function; default an unref'd setTimeout. */
  schedule?: (ms: number, fn: () => void) => () => void;
}

export class SandboxGateway {
  /** Every change of a payment created here, creation included (events.ts). */
  readonly events: SandboxEvents;
  private readonly store: PaymentStore;
  private readonly lifecycles: PaymentLifecycles;
  /** Fixed addresses (static-addresses.ts): kept while this sandbox lives; payments to them are payments of this store. */
  readonly staticAddresses: StaticAddressBook;
  /** The payment links' pages act through this (invoices.ts, payment-page.ts). */
  readonly links: PaymentLinks;
  /** Payouts (payouts.ts): made here, or by an earlier `--sandbox` run (the file beside the journal). */
  readonly payouts: SandboxPayouts;

  constructor(private readonly config: GatewayConfig) {
    this.store = new PaymentStore(config.journal);
    this.lifecycles = new PaymentLifecycles(config);
    this.events = this.lifecycles.events;
    this.staticAddresses = new StaticAddressBook(this.store, this.lifecycles, config);
    this.links = new PaymentLinks(this.store, this.lifecycles, config.now);
    this.payouts = new SandboxPayouts({
      now: config.now,
      settleSeconds: config.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
      payoutKey: config.payoutKey,
      ...(config.schedule !== undefined && { schedule: config.schedule }),
      ...(config.journal !== undefined && { journalFile: config.journal.file }),
    });
    // Payout notifications go out with the payments' (notify.ts finds the payouts by the events object).
    attachPayouts(this.events, this.payouts);
  }

  /** The key of `kind` this sandbox accepts (the general key: none unless configured). */
  keyOf(kind: KeyKind): string | undefined {
    return kind === 'merchant' ? this.config.merchantKey : kind === 'payout' ? this.config.payoutKey : this.config.generalKey;
  }

  /** The accepted pay currencies, each once, in offering order. */
  acceptedList(): string[] {
    return reference.acceptedList();
  }

  /** A stored white-label payment, for tests and later operations. */
  payment(trackId: string): SandboxPayment | undefined {
    return this.store.get(trackId);
  }

  /**
   * GET /qr/<trackId>.png — the image behind a payment's QRCode link: the QR of its payment URI
   * (or of the address alone where the network has no URI scheme), as gw pay --qr-out draws it.
   */
  async qrImage(file: string): Promise<GatewayReply> {
    const id = file.endsWith('.png') ? file.slice(0, -'.png'.length) : undefined;
    const payment = id === undefined ? undefined : this.resolve(id);
    // A fixed address's QR (static-addresses.ts): its coin URI without an amount, the memo inside.
    const fixed = payment === undefined && id !== undefined ? this.staticAddresses.byTrackId(id) : undefined;
    if (payment === undefined && fixed === undefined) return { status: 404, body: { message: 'no such QR code' } };
    const [{ buildPaymentUri, NETWORKS }, { qrPng }] = await Promise.all([import('../payment-uri/index.js'), import('../qr/image.js')]);
    const { uri, qr } =
      payment !== undefined
        ? buildPaymentUri({ network: payment.network, payCurrency: payment.payCurrency, address: payment.address, payAmount: payment.payAmount })
        : buildPaymentUri({
            network: fixed?.network ?? '',
            payCurrency: fixed === undefined ? '' : NETWORKS[fixed.networkId].nativeSymbol,
            address: fixed?.address ?? '',
            payAmount: '0',
            memo: fixed?.memo ?? null,
          });
    if (!qr) return { status: 404, body: { message: 'no QR code: its memo cannot go in one' } };
    return { status: 200, body: qrPng(uri), headers: { 'content-type': 'image/png', 'cache-control': 'no-store' } };
  }

  /** The accepted currencies (both APIs; the route checked the merchant key). */
  acceptedCurrencies(): Answer<AcceptedCurrenciesAnswer> {
    return reference.acceptedCurrencies();
  }

  /** The balances, or one currency's (`currency`); the route checked the payout or general key. */
  balance(fields: RequestFields): Answer<BalanceAnswer> {
    // Balances move: what arrived for the sandbox's payments is on them, what payouts took (payouts.ts) is off them.
    const answer = reference.balance(fields, reference.arrivedByCoin(this.paymentRecords()));
    if (!answer.ok) return answer;
    const debits = this.payouts.debits();
    const balances = Object.fromEntries(
      Object.entries(answer.value.balances).map(([coin, amount]) => {
        const debit = debits.get(coin);
        return [coin, debit === undefined ? amount : subtractDigits(amount, debit)];
      }),
    );
    return ok({ balances });
  }

  /** Every payment the sandbox knows (created here, or recorded in the journal), as it stands now. */
  private *paymentRecords(): Iterable<PaymentRecord> {
    for (const payment of this.store.known()) yield this.lifecycles.record(payment, this.lifecycles.current(payment));
  }

  /** A payout (POST /v1/payout): within the coin's balance now. */
  createPayout(fields: RequestFields): Answer<CreatedPayoutAnswer> {
    return this.payouts.create(fields, (coin) => {
      const answer = this.balance({ currency: coin });
      const amount = answer.ok ? answer.value.balances[coin] : undefined;
      return amount === undefined ? undefined : Decimal.fromLiteral(amount);
    });
  }

  /** One payout by track id. */
  payoutInfo(fields: RequestFields): Answer<PayoutRecord> {
    return this.payouts.info(fields);
  }

  /** One page of the payout history. */
  payoutHistory(fields: RequestFields): Answer<PayoutHistoryAnswer> {
    return this.payouts.history(fields);
  }

  /** The USD price of every coin the sandbox knows, fiat left out. No key. */
  prices(): Answer<PricesAnswer> {
    return reference.prices();
  }

  /** Every coin the sandbox offers with its networks. No key. */
  supportedCurrencies(): Answer<CurrenciesAnswer> {
    return reference.supportedCurrencies();
  }

  /** The networks the sandbox's coins are on. No key. */
  supportedNetworks(): Answer<NetworksAnswer> {
    return reference.supportedNetworks();
  }

  /** The fiat currencies the sandbox prices, each with its USD price. No key. */
  fiats(): Answer<FiatsAnswer> {
    return reference.fiats();
  }

  /** The sandbox is up whenever it answers. No key. */
  systemStatus(): Answer<SystemStatusAnswer> {
    return reference.systemStatus();
  }

  /** How many `toCurrency` one `fromCurrency` is worth (the legacy endpoint takes no key). */
  rate(fields: RequestFields): Answer<RateAnswer> {
    return reference.rate(fields);
  }

  /** A white-label payment, created through `api` (its notifications are in that API's style). */
  createPayment(fields: RequestFields, api: Api = 'legacy'): Answer<CreatedPayment> {
    return createPayment(this.store, this.lifecycles, this.config, fields, api);
  }

  /** An invoice, a payment link (invoices.ts): versioned API only. */
  createInvoice(fields: RequestFields): Answer<CreatedInvoice> {
    return createInvoice(this.store, this.lifecycles, this.config, fields);
  }

  /** One payment by `trackId` (text, or a JSON integer as the gateway's own client sends it). */
  paymentInfo(fields: RequestFields): Answer<PaymentRecord> {
    const trackId = readId(fields, 'trackId');
    if (trackId.kind === 'absent') return fail(101, 'Validation problem: trackId is required');
    if (trackId.kind === 'invalid') return fail(116, 'Invalid trackId');
    const payment = this.resolve(trackId.value);
    if (payment === undefined) return fail(116, 'Invalid trackId');
    return ok(this.lifecycles.record(payment, this.lifecycles.current(payment)));
  }

  /** One page of the history, newest first, with the filters given (docs/gateway.md §6). */
  paymentHistory(fields: RequestFields, api: Api = 'legacy'): Answer<PaymentHistoryAnswer> {
    return paymentHistory(this.store, this.lifecycles, fields, api);
  }

  /** Per pay currency, the payments of the date range and what arrived for them (stats.ts; versioned API only). */
  paymentStats(fields: RequestFields): Answer<StatsAnswer> {
    return paymentStats(this.store, this.lifecycles, fields);
  }

  /**
   * Forces a payment into `state` now (for `gw sandbox trigger`): the change is emitted, and the
   * payment stays in that state, its planned lifecycle ended, until forced again. Undefined when
   * no payment has that track id.
   */
  setState(trackId: string, state: TriggerState): PaymentSnapshot | undefined {
    const payment = this.resolve(trackId);
    return payment === undefined ? undefined : this.lifecycles.setState(trackId, payment, state);
  }

  /** A payment's snapshot as it stands now (undefined for an unknown track id). */
  snapshotOf(trackId: string): PaymentSnapshot | undefined {
    const payment = this.resolve(trackId);
    return payment === undefined ? undefined : this.lifecycles.snapshot(payment, this.lifecycles.current(payment));
  }

  /** Stops every lifecycle timer; no change is emitted after this. */
  close(): void {
    this.lifecycles.close();
    this.payouts.close();
  }

  /**
   * A payment by track id: one created here, else one the journal records (created by an earlier
   * process), else one an `sbx…` id of before describes, with its order id from the journal when
   * it is there.
   */
  resolve(trackId: string): SandboxPayment | undefined {
    return this.store.resolve(trackId);
  }
}

// ---------------------------------------------------------------------------------------------
// What the sandbox serves

/** One operation the sandbox serves: the operation's module, and what the sandbox does for it (canonical fields in). */
export interface SandboxBehaviour {
  // biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every request and answer type.
  operation: Operation<any, unknown, any>;
  serve(gateway: SandboxGateway, fields: RequestFields, api: Api): Answer<unknown>;
}

/**
 * The operations the sandbox serves, each with its behaviour: its routes are generated from these
 * rows and the operations' codecs (routes.ts). An operation not listed is not served: gw says so
 * before sending anything (the factory asks sandboxServes()).
 */
export const SANDBOX_BEHAVIOURS: readonly SandboxBehaviour[] = [
  { operation: ACCEPTED_CURRENCIES, serve: (g) => g.acceptedCurrencies() },
  { operation: CREATE_PAYMENT, serve: (g, fields, api) => g.createPayment(fields, api) },
  { operation: CREATE_INVOICE, serve: (g, fields) => g.createInvoice(fields) },
  { operation: PAYMENT_INFO, serve: (g, fields) => g.paymentInfo(fields) },
  { operation: PAYMENT_HISTORY, serve: (g, fields, api) => g.paymentHistory(fields, api) },
  { operation: PAYMENT_STATS, serve: (g, fields) => g.paymentStats(fields) },
  { operation: BALANCE, serve: (g, fields) => g.balance(fields) },
  { operation: RATE, serve: (g, fields) => g.rate(fields) },
  { operation: CREATE_PAYOUT, serve: (g, fields) => g.createPayout(fields) },
  { operation: PAYOUT_INFO, serve: (g, fields) => g.payoutInfo(fields) },
  { operation: PAYOUT_HISTORY, serve: (g, fields) => g.payoutHistory(fields) },
  { operation: CREATE_STATIC_ADDRESS, serve: (g, fields) => g.staticAddresses.create(fields) },
  { operation: STATIC_ADDRESS_LIST, serve: (g, fields) => g.staticAddresses.list(fields) },
  { operation: REVOKE_STATIC_ADDRESS, serve: (g, fields) => g.staticAddresses.revoke(fields) },
  // The official Node library's exchangeRate (legacy only, merchant key), and the keyless reference data.
  { operation: MERCHANT_RATE, serve: (g, fields) => g.rate(fields) },
  { operation: PRICES, serve: (g) => g.prices() },
  { operation: SUPPORTED_CURRENCIES, serve: (g) => g.supportedCurrencies() },
  { operation: SUPPORTED_NETWORKS, serve: (g) => g.supportedNetworks() },
  { operation: SYSTEM_STATUS, serve: (g) => g.systemStatus() },
  { operation: FIATS, serve: (g) => g.fiats() },
];

/** a − b as plain digits, never below 0 (a balance). */
function subtractDigits(a: string, b: Decimal): string {
  const scale = Math.max((Decimal.fromLiteral(a) as Decimal).fractionDigits, b.fractionDigits);
  const units = (Decimal.fromLiteral(a) as Decimal).toBaseUnits(scale) - b.toBaseUnits(scale);
  return Decimal.fromBaseUnits(units < 0n ? 0n : units, scale).toString();
}
