// The payments the sandbox keeps, and finding them again: those created by this process (in
// memory), those an earlier process wrote to the journal (journal.ts), and those an `sbx…` id of
// before carries itself (track-id.ts). What a payment is (`SandboxPayment`) and how it is priced
// are here too; what happens to it over time is live.ts's business.

import { isFiat } from '../domain/payment-rules.js';
import { multiplyRounded } from '../money/decimal.js';
import type { Api } from '../operations/codec.js';
import type { PaymentKind } from '../operations/payment-info.js';
import { deriveSandboxAddress } from './addresses.js';
import type { JournalEntry, JournalRecord, SandboxJournal } from './journal.js';
import { expiresAt, OUTCOMES, outcomeOf, type LifecyclePlan, type Outcome } from './lifecycle.js';
import { SANDBOX_OFFERINGS } from './offerings.js';
import { displayDecimals, exchangeRate, isKnownCurrency } from './prices.js';
import { decodeTrackId, randomTrackNumber } from './track-id.js';
import type { PaymentTerms } from '../operations/values.js';

export type Offering = (typeof SANDBOX_OFFERINGS)[number];

/**
 * A payment the sandbox keeps: canonical values only. `kind` says what sort of payment it is; the
 * sandbox creates white-label ones, but nothing here assumes that (a payment link has its coin
 * chosen later, a static address receives many payments, a payout goes out).
 */
export interface SandboxPayment extends PaymentTerms {
  kind: PaymentKind;
  rate: string;
  lifeTime: number;
  feePaidByPayer: number;
  underPaidCover: string;
  callbackUrl: string;
  description: string;
  email: string;
  orderId: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds: createdAt + lifeTime × 60 (the settle time for a payment that is to expire). */
  expiredAt: number;
  /** The final state its order id chose (lifecycle.ts). */
  outcome: Outcome;
  settleSeconds: number;
  /** The API it was created through: its notifications are in that API's style. */
  api: Api;
  /** A payment link's (an invoice's, invoices.ts): its coin is chosen, and it starts, after its creation. */
  link?: PaymentLinkState;
}

/** What a payment link (invoices.ts) adds: when its payer acted (Unix seconds; undefined: not yet) and what its page shows. */
export interface PaymentLinkState {
  chosenAt: number | undefined;
  startedAt: number | undefined;
  /** Its creation plus its lifetime. */
  expiresAt: number;
  returnUrl: string;
  thanksMessage: string;
}

/** The lifecycle's view of a payment. */
export function planOf(payment: SandboxPayment): LifecyclePlan {
  const plan: LifecyclePlan = { createdAt: payment.createdAt, lifeTime: payment.lifeTime, settleSeconds: payment.settleSeconds, outcome: payment.outcome };
  const link = payment.link;
  if (link !== undefined) plan.link = { chosenAt: link.chosenAt, startedAt: link.startedAt, expiresAt: link.expiresAt };
  return plan;
}

/** Pricing of an amount: the rate and the pay amount, or undefined when there is no rate. */
export function price(amount: string, currency: string, payCurrency: string): { rate: string; payAmount: string } | undefined {
  if (currency === payCurrency) return { rate: '1', payAmount: amount };
  const rate = exchangeRate(currency, payCurrency);
  if (rate === undefined) return undefined;
  return { rate, payAmount: multiplyRounded(amount, rate, displayDecimals(payCurrency)) };
}

let offeringsCache: readonly Offering[] | undefined;

/** Offerings whose pay currency has a sandbox price (all of them, unless the tables drift). */
export function offerings(): readonly Offering[] {
  offeringsCache ??= SANDBOX_OFFERINGS.filter((o) => isKnownCurrency(o.payCurrency) && !isFiat(o.payCurrency));
  return offeringsCache;
}

/** What the journal records of a payment created here: what a later process needs to answer for it. */
function recordOf(p: SandboxPayment): JournalRecord {
  return {
    createdAt: p.createdAt,
    lifeTime: p.lifeTime,
    payCurrency: p.payCurrency,
    network: p.network,
    outcome: p.outcome,
    settleSeconds: p.settleSeconds,
    currency: p.currency,
    amount: p.amount,
    // A payment link's timings (0: not yet), so that a later process follows it as this one does.
    ...(p.link !== undefined && { link: { chosenAt: p.link.chosenAt ?? 0, startedAt: p.link.startedAt ?? 0, expiresAt: p.link.expiresAt } }),
    // A payment to a fixed address: that address (static-addresses.ts).
    ...(p.kind === 'static-address' && { staticAddress: p.address }),
  };
}

/** The payments created here (memory) and those the journal records (`--sandbox` runs). */
export class PaymentStore {
  private readonly payments = new Map<string, SandboxPayment>();
  /** Payments created here whose journal entry could not be written (the journal said so). */
  private readonly unjournaled = new Set<string>();

  constructor(readonly journal: SandboxJournal | undefined) {}

  /** A payment created here. */
  get(trackId: string): SandboxPayment | undefined {
    return this.payments.get(trackId);
  }

  /** Keeps a payment created here, and writes it to the journal (if there is one). */
  add(payment: SandboxPayment): void {
    const trackId = payment.trackId;
    this.payments.set(trackId, payment);
    if (this.journal !== undefined && !this.journal.append({ trackId, orderId: payment.orderId, record: recordOf(payment) })) {
      this.unjournaled.add(trackId);
    }
  }

  /** Records a payment created here again, after it changed (a payment link's payer acted): the journal's newest line for it wins. */
  update(payment: SandboxPayment): void {
    if (this.journal !== undefined && !this.journal.append({ trackId: payment.trackId, orderId: payment.orderId, record: recordOf(payment), again: true })) {
      this.unjournaled.add(payment.trackId);
    }
  }

  /** The payments created here that the journal lacks (its append failed), in creation order. */
  unjournaledPayments(): SandboxPayment[] {
    return [...this.unjournaled].flatMap((id) => this.payments.get(id) ?? []);
  }

  /** How many payments created here the journal lacks. */
  unjournaledCount(): number {
    return this.unjournaled.size;
  }

  /**
   * A payment by track id: one created here, else one the journal records (created by an earlier
   * process), else one an `sbx…` id of before describes, with its order id from the journal when
   * it is there.
   */
  resolve(trackId: string): SandboxPayment | undefined {
    const known = this.payments.get(trackId);
    if (known !== undefined) return known;
    if (trackId.startsWith('sbx')) {
      if (decodeTrackId(trackId) === undefined) return undefined;
      const orderId = this.journal?.find(trackId)?.orderId ?? '';
      return this.fromTrackId(trackId, orderId);
    }
    const entry = /^[1-9]\d{0,14}$/.test(trackId) ? this.journal?.find(trackId) : undefined;
    return entry === undefined ? undefined : this.fromEntry(entry);
  }

  /** A journal entry's payment: from its record, or from its `sbx…` id. */
  fromEntry(entry: JournalEntry): SandboxPayment | undefined {
    const r = entry.record;
    if (r === undefined) return this.fromTrackId(entry.trackId, entry.orderId);
    const offering = SANDBOX_OFFERINGS.find((o) => o.payCurrency === r.payCurrency && o.network === r.network);
    const outcome = OUTCOMES.find((o) => o === r.outcome);
    if (offering === undefined || outcome === undefined || r.lifeTime === 0 || r.settleSeconds === 0) return undefined;
    const priced = price(r.amount, r.currency, offering.payCurrency);
    if (priced === undefined) return undefined;
    const payment: SandboxPayment = {
      kind: r.staticAddress !== undefined ? 'static-address' : r.link === undefined ? 'white-label' : 'invoice',
      trackId: entry.trackId,
      amount: r.amount,
      currency: r.currency,
      payAmount: priced.payAmount,
      payCurrency: offering.payCurrency,
      network: offering.network,
      address: r.staticAddress ?? deriveSandboxAddress(offering.networkId, entry.trackId),
      rate: priced.rate,
      lifeTime: r.lifeTime,
      feePaidByPayer: 0,
      underPaidCover: '0',
      callbackUrl: '',
      description: '',
      email: '',
      orderId: entry.orderId,
      createdAt: r.createdAt,
      expiredAt: 0,
      outcome,
      settleSeconds: r.settleSeconds,
      // Read from the journal: the API it was made through is not recorded there (a link's: v1, the only one that has links).
      api: r.link === undefined && r.staticAddress === undefined ? 'legacy' : 'v1',
    };
    if (r.link !== undefined) {
      const at = (t: number): number | undefined => (t === 0 ? undefined : t);
      payment.link = { chosenAt: at(r.link.chosenAt), startedAt: at(r.link.startedAt), expiresAt: r.link.expiresAt, returnUrl: '', thanksMessage: '' };
    }
    payment.expiredAt = expiresAt(planOf(payment));
    return payment;
  }

  /** What the id carries, priced and addressed as when it was created; undefined if it carries no payment. */
  fromTrackId(trackId: string, orderId: string): SandboxPayment | undefined {
    const fields = decodeTrackId(trackId);
    if (fields === undefined) return undefined;
    const offering = SANDBOX_OFFERINGS[fields.offering];
    if (offering === undefined) return undefined;
    const priced = price(fields.amount, fields.currency, offering.payCurrency);
    if (priced === undefined) return undefined;
    const payment: SandboxPayment = {
      kind: 'white-label',
      trackId,
      amount: fields.amount,
      currency: fields.currency,
      payAmount: priced.payAmount,
      payCurrency: offering.payCurrency,
      network: offering.network,
      address: deriveSandboxAddress(offering.networkId, trackId),
      rate: priced.rate,
      lifeTime: fields.lifeTime,
      feePaidByPayer: 0,
      underPaidCover: '0',
      callbackUrl: '',
      description: '',
      email: '',
      // The outcome the id carries wins over a journal that disagrees.
      orderId: outcomeOf(orderId) === fields.outcome ? orderId : '',
      createdAt: fields.createdAt,
      expiredAt: 0,
      outcome: fields.outcome,
      settleSeconds: fields.settleSeconds,
      // Decoded from its track id: the API it was made through is not recorded there.
      api: 'legacy',
    };
    payment.expiredAt = expiresAt(planOf(payment));
    return payment;
  }

  /** Payments created here and those in the journal, each once. */
  *known(): Iterable<SandboxPayment> {
    const seen = new Set<string>();
    for (const payment of this.payments.values()) {
      seen.add(payment.trackId);
      yield payment;
    }
    for (const entry of this.journal?.newest() ?? []) {
      if (seen.has(entry.trackId)) continue;
      seen.add(entry.trackId);
      const payment = this.fromEntry(entry);
      if (payment !== undefined) yield payment;
    }
  }

  /** Payments created here or in the journal with this order id, each once. */
  withOrderId(orderId: string): SandboxPayment[] {
    const found = [...this.payments.values()].filter((p) => p.orderId === orderId);
    const seen = new Set(found.map((p) => p.trackId));
    for (const entry of this.journal?.withOrderId(orderId) ?? []) {
      if (seen.has(entry.trackId)) continue;
      seen.add(entry.trackId);
      const payment = this.fromEntry(entry);
      if (payment !== undefined) found.push(payment);
    }
    return found;
  }

  /**
   * A new track id: 9 digits, as the gateway's (a JSON integer, and an int32, keeps it exactly),
   * drawn at random and drawn again if this sandbox or the journal has it already.
   */
  newTrackId(): string {
    for (;;) {
      const id = randomTrackNumber();
      if (!this.payments.has(id) && !this.journaled(id)) return id;
    }
  }

  /** Whether the journal has a payment with this id (a journal that cannot be read has none: the append will say why). */
  journaled(trackId: string): boolean {
    try {
      return this.journal?.find(trackId) !== undefined;
    } catch {
      return false;
    }
  }
}
