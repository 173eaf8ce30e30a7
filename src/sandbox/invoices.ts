// Payment links (invoices, docs/gateway.md §10) in the sandbox: creating one, and what its payer
// does on its page (payment-page.ts): opening it, choosing a coin, paying in full, in part or late.
//
// An invoice is a SandboxPayment of kind `invoice` with a `link` (store.ts); its states follow from
// the lifecycle's rules for links (lifecycle.ts, linkSchedule): `new` until a coin is chosen,
// `waiting` until the payer pays, then the plan of its outcome as a payment created at that moment.
// With nobody at the page it settles on its own like `gw pay --sandbox`: once the settle time has
// passed (AUTO_CHOICE of it: time for a person to open the link) the default coin (defaultOffering)
// is chosen and paid, the order id's ending choosing the outcome. Opening the page before then hands the link to the person there: it waits for their
// choice and their button, or expires at its lifetime. Every change goes to the journal (a later
// process follows the link as this one does) and through live.ts, which emits it (notifications).

import { isFiat } from '../domain/payment-rules.js';
import type { CreatedInvoice } from '../operations/create-invoice.js';
import { deriveSandboxAddress } from './addresses.js';
import { fail, ok, sandboxLink, type Answer } from './envelopes.js';
import { field, isHttpUrl, isPositive, readNumeric, readString, readSymbol, type RequestFields } from './fields.js';
import { DEFAULT_SETTLE_SECONDS, expiresAt, outcomeOf, type Outcome, type SandboxStatus } from './lifecycle.js';
import type { PaymentLifecycles } from './live.js';
import { isKnownCurrency } from './prices.js';
import { offerings, planOf, price, type Offering, type PaymentStore, type SandboxPayment } from './store.js';
import { MAX_AMOUNT_DIGITS } from './track-id.js';
import { readTerms, type CreateSettings } from './create.js';

/** Share of the settle time after which a link nobody opened chooses its default coin and pays (time to open it). */
export const AUTO_CHOICE = 1;

/** What the payer's buttons on the page do: the outcome the payment then follows (lifecycle.ts). */
export const PAYER_ACTIONS = { full: 'paid', partial: 'partial', late: 'late' } as const satisfies Record<string, Outcome>;
export type PayerAction = keyof typeof PAYER_ACTIONS;

/** The coin a link settles in when nobody chooses: its own currency where that is a coin offered, else USDT (on its first network). */
export function defaultOffering(currency: string): Offering {
  const all = offerings();
  return all.find((o) => o.payCurrency === currency) ?? all.find((o) => o.payCurrency === 'USDT') ?? (all[0] as Offering);
}

/** A boolean as the gateway's clients send it: true/false, 1/0, "1"/"0", "true"/"false". */
function readFlag(fields: RequestFields, name: string): { kind: 'absent' } | { kind: 'invalid' } | { kind: 'ok'; value: boolean } {
  const v = field(fields, name);
  if (v === undefined || v === null) return { kind: 'absent' };
  if (typeof v === 'boolean') return { kind: 'ok', value: v };
  const text = String(typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v).trim();
  if (text === '1' || text === 'true') return { kind: 'ok', value: true };
  if (text === '0' || text === 'false') return { kind: 'ok', value: false };
  return { kind: 'invalid' };
}

/** Sets the coin a link is paid in: its pay amount priced now, its address derived. False when there is no rate. */
function setCoin(payment: SandboxPayment, offering: Offering): boolean {
  const priced = price(payment.amount, payment.currency, offering.payCurrency);
  if (priced === undefined) return false;
  payment.payCurrency = offering.payCurrency;
  payment.network = offering.network;
  payment.address = deriveSandboxAddress(offering.networkId, payment.trackId);
  payment.payAmount = priced.payAmount;
  payment.rate = priced.rate;
  return true;
}

/** An invoice: checked as the gateway documents its fields (only `amount` is required), kept, its lifecycle started. */
export function createInvoice(store: PaymentStore, lifecycles: PaymentLifecycles, settings: CreateSettings, fields: RequestFields): Answer<CreatedInvoice> {
  const amount = readNumeric(fields, 'amount');
  if (amount.kind === 'absent') return fail(126, 'Amount is required');
  if (amount.kind === 'invalid') return fail(101, 'Validation problem: amount must be a number');
  if (!isPositive(amount.plain)) return fail(127, 'Amount is below the minimum');
  if (amount.plain.replace('.', '').length > MAX_AMOUNT_DIGITS) return fail(110, `Amount is too high: at most ${MAX_AMOUNT_DIGITS} digits`);

  const currencyField = readSymbol(fields, 'currency');
  if (currencyField.kind === 'invalid') return fail(101, 'Validation problem: currency must be a string');
  // Without a currency the amount is in USD (docs/gateway.md §10).
  const currency = currencyField.kind === 'ok' ? currencyField.value : 'USD';
  if (!isKnownCurrency(currency)) return fail(105, 'Invalid currency');

  const terms = readTerms(fields);
  if (!terms.ok) return terms;
  const { lifeTime, feePaidByPayer, underPaidCover } = terms.value;

  const toCurrency = readSymbol(fields, 'toCurrency');
  if (toCurrency.kind === 'invalid') return fail(101, 'Validation problem: toCurrency must be a string');
  if (toCurrency.kind === 'ok' && (!isKnownCurrency(toCurrency.value) || isFiat(toCurrency.value)))
    return fail(101, 'Validation problem: toCurrency is not a coin');
  for (const name of ['autoWithdrawal', 'mixedPayment', 'testInvoice'] as const) {
    if (readFlag(fields, name).kind === 'invalid') return fail(101, `Validation problem: ${name} must be a boolean`);
  }

  const urls: Record<'callbackUrl' | 'returnUrl', string> = { callbackUrl: '', returnUrl: '' };
  for (const name of ['callbackUrl', 'returnUrl'] as const) {
    const s = readString(fields, name);
    if (s.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
    if (s.kind === 'ok' && !isHttpUrl(s.value)) return fail(107, `Invalid ${name}`);
    if (s.kind === 'ok') urls[name] = s.value;
  }
  const echoed: Record<'description' | 'orderId' | 'email' | 'thanksMessage', string> = { description: '', orderId: '', email: '', thanksMessage: '' };
  for (const name of ['description', 'orderId', 'email', 'thanksMessage'] as const) {
    const s = readString(fields, name);
    if (s.kind === 'invalid') return fail(101, `Validation problem: ${name} must be a string`);
    if (s.kind === 'ok') echoed[name] = s.value;
  }

  const createdAt = Math.floor(settings.now() / 1000);
  const settleSeconds = settings.settleSeconds ?? DEFAULT_SETTLE_SECONDS;
  const autoAt = createdAt + Math.max(1, Math.round(settleSeconds * AUTO_CHOICE));
  const payment: SandboxPayment = {
    kind: 'invoice',
    trackId: store.newTrackId(),
    amount: amount.plain,
    currency,
    payAmount: '',
    payCurrency: '',
    network: '',
    address: '',
    rate: '',
    lifeTime,
    feePaidByPayer,
    underPaidCover,
    callbackUrl: urls.callbackUrl,
    description: echoed.description,
    email: echoed.email,
    orderId: echoed.orderId,
    createdAt,
    expiredAt: 0,
    outcome: outcomeOf(echoed.orderId),
    settleSeconds,
    // Only the versioned API has invoices: its notifications are in its style.
    api: 'v1',
    link: { chosenAt: autoAt, startedAt: autoAt, expiresAt: createdAt + lifeTime * 60, returnUrl: urls.returnUrl, thanksMessage: echoed.thanksMessage },
  };
  // Nobody at the page: the default coin, chosen (and shown) only once its time comes.
  if (!setCoin(payment, defaultOffering(currency))) return fail(131, 'An error occurred');
  payment.expiredAt = expiresAt(planOf(payment));
  store.add(payment);
  lifecycles.start(payment);
  return ok({ trackId: payment.trackId, paymentUrl: sandboxLink(settings.baseUrl(), `/pay/${payment.trackId}`), expiredAt: payment.expiredAt, createdAt });
}

/** What the page shows of a link now. */
export interface LinkView {
  payment: SandboxPayment;
  status: SandboxStatus;
  /** The coin is chosen and the payer may press a button (waiting, before expiry). */
  canPay: boolean;
  /** The payer may (still) choose a coin. */
  canChoose: boolean;
  /** A coin has been chosen (by the payer, or on its own): the page may show its address. */
  chosen: boolean;
}

/** Drives the links of one sandbox: the page's actions, each applied to the payment, journaled and emitted. */
export class PaymentLinks {
  constructor(
    private readonly store: PaymentStore,
    private readonly lifecycles: PaymentLifecycles,
    private readonly now: () => number,
  ) {}

  /** The link as the page shows it, or undefined when `payment` is no link. */
  view(payment: SandboxPayment): LinkView | undefined {
    const link = payment.link;
    if (link === undefined) return undefined;
    const status = this.lifecycles.current(payment).status;
    const now = Math.floor(this.now() / 1000);
    const open = now < link.expiresAt;
    return {
      payment,
      status,
      chosen: link.chosenAt !== undefined && link.chosenAt <= now,
      canChoose: open && status === 'new',
      canPay: open && status === 'waiting' && link.startedAt === undefined,
    };
  }

  /** Someone opened the page: a link that has not settled on its own yet waits for them from now on. */
  attend(payment: SandboxPayment): LinkView | undefined {
    const link = payment.link;
    if (link === undefined) return undefined;
    const now = Math.floor(this.now() / 1000);
    if (link.chosenAt !== undefined && link.chosenAt > now && link.startedAt === link.chosenAt) {
      link.chosenAt = undefined;
      link.startedAt = undefined;
      this.changed(payment);
    }
    return this.view(payment);
  }

  /** The payer chose a coin (an offering of the sandbox's): the link now waits for their payment in it. */
  choose(payment: SandboxPayment, offering: Offering): string | undefined {
    const view = this.view(payment);
    if (view === undefined) return 'this payment is not a payment link';
    if (!view.canChoose) return `a coin can no longer be chosen: the payment is ${view.status}`;
    const link = payment.link as NonNullable<SandboxPayment['link']>;
    if (!setCoin(payment, offering)) return `the sandbox has no rate for ${offering.payCurrency}`;
    link.chosenAt = Math.floor(this.now() / 1000);
    link.startedAt = undefined;
    this.changed(payment);
    return undefined;
  }

  /** The payer paid (in full, in part, or after the expiry): the payment follows that outcome from now. */
  pay(payment: SandboxPayment, action: PayerAction): string | undefined {
    const view = this.view(payment);
    if (view === undefined) return 'this payment is not a payment link';
    if (!view.canPay) return `it cannot be paid now: the payment is ${view.status}`;
    const link = payment.link as NonNullable<SandboxPayment['link']>;
    link.startedAt = Math.max(link.chosenAt ?? 0, Math.floor(this.now() / 1000));
    payment.outcome = PAYER_ACTIONS[action];
    this.changed(payment);
    return undefined;
  }

  /** A link's plan changed: its expiry follows, the journal records it, live.ts emits what is due and sets its next timer. */
  private changed(payment: SandboxPayment): void {
    payment.expiredAt = expiresAt(planOf(payment));
    this.store.update(payment);
    this.lifecycles.advance(payment);
  }
}
