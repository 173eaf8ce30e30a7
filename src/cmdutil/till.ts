// gw counter's pure parts: the amount prompt (what each key does there) and the session's ledger
// (every sale of the day and how it ended) with its summary. No I/O: till-session.ts runs the
// till (keys, the gateway, the screen), src/views/till-view.ts draws what these hold.
//
// The till's states: prompt → creating → showing → final → prompt. A creation that failed after
// the request may have reached the gateway goes to `lookup` (the sale's order id is looked up
// before anything else is created for it) and from there to showing (found) or back to the
// prompt, where Enter creates the same sale again under the same order id (not found).
import { fundsArrived } from '../domain/arrival.js';
import { isFinal } from '../domain/payment-status.js';
import { addAmount } from '../domain/takings.js';
import type { PaymentInfo, PaymentRequest } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import type { Key } from '../output/keys.js';
import { shellQuote } from '../output/sanitize.js';
import { parseTimestamp } from '../output/time.js';
import { maxAssetDecimals } from '../payment-uri/decimals.js';
import { normalizeSymbol } from '../payment-uri/networks.js';
import { asciiUpperCase } from '../util/ascii.js';
import { resumeCommand } from './wait.js';
import type { PromptField, PromptState, Sale, SaleState, TillDefaults, TillSummary } from '../views/till-state.js';

export {
  saleCoin,
  type OpenSale,
  type PromptField,
  type PromptState,
  type Sale,
  type SaleState,
  type TillDefaults,
  type TillSummary,
} from '../views/till-state.js';

export type PromptAction = 'none' | 'create' | 'end-day';

/** The longest amount typed; the order id's limit is the gateway field's (parseOrderId). */
const MAX_AMOUNT = 24;
const MAX_FIELD = 60;

export const EMPTY_PROMPT: PromptState = { amount: '' };

/** What the amount can hold: the currency it is typed in, and its decimal places when gw knows them. */
export interface AmountLimit {
  currency: string;
  decimals?: number | undefined;
}

/**
 * The amount limit of the day's currency: a coin's most decimal places on any network the registry
 * lists it on (the request's own check is exact per network); unknown for fiat.
 */
export function amountLimit(defaults: Pick<TillDefaults, 'currency'>): AmountLimit {
  return { currency: defaults.currency, decimals: maxAssetDecimals(defaults.currency) };
}

/**
 * The amount after typing a digit or a point, when it can still become a valid amount: digits,
 * one point ("." first gives "0."), no leading zero before a digit, at most the currency's
 * decimals. Otherwise the amount is unchanged: undefined, or a message saying why.
 */
function amountKey(amount: string, ch: string, limit: AmountLimit | undefined): string | undefined | { text: string; tone: 'error' } {
  let next: string;
  if (ch === '.') {
    if (amount.includes('.') || limit?.decimals === 0) return undefined;
    next = amount === '' ? '0.' : `${amount}.`;
  } else {
    // A leading zero is replaced by the digit typed after it ("05" is 5).
    if (amount === '0') return ch;
    const point = amount.indexOf('.');
    const decimals = limit?.decimals;
    if (limit !== undefined && decimals !== undefined && point >= 0 && amount.length - point - 1 >= decimals) {
      return { text: `${limit.currency} amounts have at most ${decimals} decimal places.`, tone: 'error' };
    }
    next = amount + ch;
  }
  return next.length > MAX_AMOUNT ? undefined : next;
}

/** What a key does at the prompt: the next prompt, and whether to create the sale or end the day. */
export function promptKey(state: PromptState, key: Key, limit?: AmountLimit): { state: PromptState; action: PromptAction } {
  const stay = (next: PromptState): { state: PromptState; action: PromptAction } => ({ state: next, action: 'none' });
  const { message: _message, ...quiet } = state;
  if (state.recent === true) {
    // Any key goes back to the prompt (never ends the day by accident).
    const { recent: _recent, ...back } = quiet;
    return stay(back);
  }
  if (state.field !== undefined) return fieldKey(quiet, state.field, key);
  switch (key.name) {
    case 'ctrl-c':
    case 'ctrl-d':
      return { state: quiet, action: 'end-day' };
    case 'enter':
      if (state.retry !== undefined || state.amount !== '') return { state: quiet, action: 'create' };
      return stay({ ...quiet, message: { text: 'Type the amount first, then Enter.', tone: 'error' } });
    case 'backspace':
      return stay({ ...quiet, amount: state.amount.slice(0, -1) });
    case 'escape': {
      // Clears the sale: amount, coin and order id for this sale, a retry offered.
      return stay({ amount: '' });
    }
    case 'char': {
      const ch = key.ch;
      if (/^[0-9]$/.test(ch) || ch === '.' || ch === ',') {
        if (state.retry !== undefined) return stay({ ...quiet, message: { text: 'Enter creates the sale again; Esc drops it first.', tone: 'error' } });
        const typed = amountKey(state.amount, ch === ',' ? '.' : ch, limit);
        if (typeof typed !== 'string') return stay(typed === undefined ? quiet : { ...quiet, message: typed });
        return stay({ ...quiet, amount: typed });
      }
      const lower = ch.toLowerCase();
      if (lower === 'q') return { state: quiet, action: 'end-day' };
      if (lower === 'r') return stay({ ...quiet, recent: true });
      if (state.retry !== undefined) return stay(quiet);
      if (lower === 'c') return stay({ ...quiet, field: { kind: 'coin', text: '' } });
      if (lower === 'o') return stay({ ...quiet, field: { kind: 'order', text: state.orderId ?? '' } });
      return stay(quiet);
    }
    default:
      return stay(quiet);
  }
}

/**
 * The prompt after a sale refused before anything was sent: the message shows why; a refused
 * amount is cleared (what is typed next starts a new amount, never appended to the refused one).
 */
export function refusedPrompt(prompt: PromptState, text: string): PromptState {
  const amount = Decimal.parseAmount(prompt.amount);
  // The amount's own refusals: not an amount, or "<amount> <coin> has more decimal places…".
  const amountRefused = prompt.retry === undefined && (amount === undefined || text.startsWith(`${amount} `));
  return { ...prompt, ...(amountRefused && { amount: '' }), message: { text, tone: 'error' } };
}

/** Editing a field: text, Backspace, Enter confirms, Escape leaves it unchanged. */
function fieldKey(state: PromptState, field: PromptField, key: Key): { state: PromptState; action: PromptAction } {
  const { field: _field, ...rest } = state;
  const stay = (next: PromptState) => ({ state: next, action: 'none' as const });
  switch (key.name) {
    case 'escape':
    case 'ctrl-c':
      return stay(rest);
    case 'backspace':
      return stay({ ...rest, field: { ...field, text: field.text.slice(0, -1) } });
    case 'char': {
      if (field.text.length >= MAX_FIELD) return stay(state);
      // A coin is letters, digits and dots; a network or order id any visible text.
      if (field.kind === 'coin' && !/^[A-Za-z0-9.]$/.test(key.ch)) return stay(state);
      return stay({ ...rest, field: { ...field, text: field.text + key.ch } });
    }
    case 'enter': {
      const text = field.text.trim();
      if (field.kind === 'order') {
        const { orderId: _o, ...without } = rest;
        return stay(text === '' ? without : { ...rest, orderId: text });
      }
      if (field.kind === 'coin') {
        // No coin: back to the day's coin.
        if (text === '') {
          const { coin: _c, ...without } = rest;
          return stay(without);
        }
        return stay({ ...rest, field: { kind: 'network', text: '', coin: asciiUpperCase(text) } });
      }
      const coin = field.coin ?? '';
      return stay({ ...rest, coin: { payCurrency: coin, ...(text !== '' && { network: text }) } });
    }
    default:
      return stay(state);
  }
}

/**
 * What a look-up by order id found for a sale whose creation was not confirmed: nothing (it was
 * not created), the newest payment of the order (whatever its state: it is this sale's), or one
 * for other terms (another amount or currency under that order id: not this sale).
 */
export function orderPayment(
  payments: readonly PaymentInfo[],
  request: Pick<PaymentRequest, 'amount' | 'currency'>,
): { kind: 'none' } | { kind: 'found' | 'other-terms'; info: PaymentInfo } {
  const createdAt = (info: PaymentInfo): number => parseTimestamp(info.date)?.getTime() ?? 0;
  const newest = [...payments].sort((a, b) => createdAt(b) - createdAt(a))[0];
  if (newest === undefined) return { kind: 'none' };
  const sameAmount = newest.amount === null || newest.amount.equals(request.amount);
  const sameCurrency = newest.currency === null || normalizeSymbol(newest.currency.raw()) === request.currency;
  return { kind: sameAmount && sameCurrency ? 'found' : 'other-terms', info: newest };
}

// ---------------------------------------------------------------------------------------------
// The session's ledger

export class TillLedger {
  readonly #sales: Sale[] = [];

  /** Every sale, oldest first. */
  get sales(): readonly Sale[] {
    return this.#sales;
  }

  /**
   * A new sale; or, for a sale whose creation was not confirmed (a retry under its order id), that
   * same row again: one sale is never two rows. An order id typed again for another sale is another row.
   */
  ring(sale: Sale): Sale {
    const existing = this.#latest(sale.orderId);
    if (existing !== undefined && existing.state === 'not-confirmed' && existing.trackId === undefined) {
      Object.assign(existing, { ...sale, at: existing.at });
      return existing;
    }
    this.#sales.push(sale);
    return sale;
  }

  /** Updates the latest sale of this order id. */
  update(orderId: string, patch: Partial<Omit<Sale, 'orderId'>>): void {
    const sale = this.#latest(orderId);
    if (sale !== undefined) Object.assign(sale, patch);
  }

  #latest(orderId: string): Sale | undefined {
    for (let i = this.#sales.length - 1; i >= 0; i--) if (this.#sales[i]?.orderId === orderId) return this.#sales[i];
    return undefined;
  }

  /** The last `n` sales, newest first. */
  recent(n: number): Sale[] {
    return this.#sales.slice(-n).reverse();
  }
}

const STATE_ORDER: readonly SaleState[] = [
  'paid',
  'underpaid',
  'late',
  'expired',
  'failed',
  'refunding',
  'refunded',
  'confirming',
  'waiting',
  'new',
  'unknown',
  'not-confirmed',
];

/** Whether a sale still needs following: not in a final state (refunding goes on). */
export function isOpen(sale: Sale): boolean {
  return sale.state === 'not-confirmed' || !isFinal(sale.state);
}

/** The command that finds or follows an open sale. */
export function followCommand(sale: Sale, sandbox: boolean): string {
  if (sale.trackId !== undefined) return resumeCommand(sale.trackId, sandbox);
  return `gw payments --order-id ${shellQuote(sale.orderId)}${sandbox ? ' --sandbox' : ''}`;
}

/** The day in numbers: exact Decimal sums, nothing converted. */
export function summarize(ledger: TillLedger, sandbox: boolean): TillSummary {
  const sales = ledger.sales;
  const asked = new Map<string, { count: number; total: Decimal }>();
  const arrived = new Map<string, Decimal>();
  const unconfirmed = new Map<string, Decimal>();
  const byState = new Map<SaleState, { count: number; asked: Map<string, Decimal> }>();
  let arrivalUnreported = 0;
  for (const sale of sales) {
    const row = asked.get(sale.currency) ?? { count: 0, total: Decimal.fromLiteral('0') as Decimal };
    asked.set(sale.currency, { count: row.count + 1, total: row.total.plus(sale.amount) });
    const state = byState.get(sale.state) ?? { count: 0, asked: new Map<string, Decimal>() };
    state.count++;
    addAmount(state.asked, sale.currency, sale.amount);
    byState.set(sale.state, state);
    const arrival = sale.info?.arrival;
    if (arrival === undefined) continue;
    if (arrival.received === null) {
      if (fundsArrived(arrival) || sale.state === 'paid' || sale.state === 'underpaid') arrivalUnreported++;
      continue;
    }
    for (const [coin, amount] of arrival.received) addAmount(arrived, coin, amount);
    for (const [coin, amount] of arrival.unconfirmed) addAmount(unconfirmed, coin, amount);
  }
  const ordered = [...byState].sort(([a], [b]) => STATE_ORDER.indexOf(a) - STATE_ORDER.indexOf(b));
  return {
    count: sales.length,
    byState: ordered.map(([state, row]) => ({ state, ...row })),
    asked,
    arrived,
    unconfirmed,
    arrivalUnreported,
    open: sales.filter(isOpen).map((sale) => ({ sale, command: followCommand(sale, sandbox) })),
    receiptsNotWritten: sales.flatMap((sale) => (sale.receiptProblem === undefined ? [] : [sale.receiptProblem])),
  };
}
