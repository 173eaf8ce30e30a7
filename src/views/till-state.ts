// What gw counter's till holds, as values: the defaults of the day, the amount prompt, the sales
// and the day's summary, and the coin of the sale at the prompt. src/cmdutil/till.ts changes them
// (keys, the ledger, the summary) and re-exports them; till-view.ts draws them. Here, below both,
// so that drawing the till needs nothing of the commands' helpers.
import type { PaymentState } from '../domain/payment-status.js';
import type { PaymentInfo } from '../gateway/gateway.js';
import type { Decimal } from '../money/decimal.js';

/** What every sale is charged in unless changed for one sale. */
export interface TillDefaults {
  /** The currency amounts are typed in (fiat or a coin). */
  currency: string;
  /** The coin the customer pays in. */
  payCurrency: string;
  /** Its network, when one is chosen (else the gateway's). */
  network?: string | undefined;
}

/** A field edited at the prompt: the coin (then its network) or the order id of this sale. */
export interface PromptField {
  kind: 'coin' | 'network' | 'order';
  text: string;
  /** While editing the network: the coin chosen just before. */
  coin?: string;
}

/** The amount prompt. */
export interface PromptState {
  /** The amount as typed. */
  amount: string;
  /** The coin (and network) for this sale only. */
  coin?: { payCurrency: string; network?: string | undefined };
  /** The order id for this sale (else one is generated). */
  orderId?: string;
  field?: PromptField;
  /** The last payments of the session are shown instead of the prompt. */
  recent?: boolean;
  /** For the merchant: why Enter did nothing, what happened to the last sale; a command to run on a line of its own. */
  message?: { text: string; tone: 'error' | 'info'; command?: string };
  /** A sale whose creation was not confirmed and not found: Enter creates it again under its order id. */
  retry?: { orderId: string; amount: string; generated: boolean; coin?: PromptState['coin'] };
}

/** The coin and network of the sale at the prompt: this sale's, else the day's. */
export function saleCoin(state: PromptState, defaults: TillDefaults): { payCurrency: string; network?: string | undefined } {
  const coin = state.retry?.coin ?? state.coin;
  if (coin !== undefined) return coin;
  return { payCurrency: defaults.payCurrency, ...(defaults.network !== undefined && { network: defaults.network }) };
}

/**
 * How a sale stands: a payment state from the gateway (final or still open), or `not-confirmed`
 * when its creation was not confirmed and it could not be found (it may exist).
 */
export type SaleState = PaymentState | 'not-confirmed';

export interface Sale {
  orderId: string;
  /** Set once the payment is known to exist. */
  trackId?: string;
  amount: Decimal;
  currency: string;
  payCurrency: string;
  network?: string | undefined;
  /** When the sale was rung up (ms). */
  at: number;
  state: SaleState;
  /** The gateway's last answer about it. */
  info?: PaymentInfo;
  /** The receipt written for it. */
  receipt?: string;
  /** Why its receipt could not be written (one line). */
  receiptProblem?: string;
}

/** A sale that is not in a final state, and the command that follows it. */
export interface OpenSale {
  sale: Sale;
  command: string;
}

export interface TillSummary {
  count: number;
  /** Per state (in a fixed order), the sales and the amounts asked per currency. */
  byState: Array<{ state: SaleState; count: number; asked: Map<string, Decimal> }>;
  /** Per currency, the sales and the amounts asked. */
  asked: Map<string, { count: number; total: Decimal }>;
  /** Per coin, what arrived (the payments' transactions, exact sums: src/domain/arrival.ts). */
  arrived: Map<string, Decimal>;
  /** Of `arrived`, what was not confirmed yet, per coin. */
  unconfirmed: Map<string, Decimal>;
  /** Sales whose arrival the gateway did not report (the legacy inquiry), though something may have. */
  arrivalUnreported: number;
  open: OpenSale[];
  /** One line per receipt that could not be written. */
  receiptsNotWritten: string[];
}
