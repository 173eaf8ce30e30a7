// Creating an invoice, a payment link (docs/gateway.md §10): versioned POST /v1/payment/invoice
// (JSON in snake_case, key header `merchant_api_key`). The payer opens the link and chooses the
// coin there, so the answer has no address or pay amount: the track id, the page's URL, its
// expiry and its date. Only the versioned API has it (the legacy page's "creating an invoice" is
// another call gw does not make), so chooseEndpoint sends it over v1 under any `api` setting, to
// the same base URL (every path gw sends carries its own /v1 prefix). Never re-sent once it may
// have reached the gateway.
import type { Untrusted } from '../output/untrusted.js';
import type { JsonValue } from '../util/json.js';
import { answerValue, encodeFields, fields, payloadOf, readFields, type Endpoint, type Operation } from './codec.js';
import { requiredText, type JsonObject } from './read.js';
import type { Decimal } from '../money/decimal.js';
import type { Scalar } from './values.js';

export interface InvoiceRequest {
  /** Exactly as typed: it goes out as a JSON number literal with these digits. */
  amount: Decimal;
  /** The amount's currency (fiat or coin); the gateway takes USD without it. */
  currency?: string;
  /** Minutes. */
  lifeTime?: number;
  feePaidByPayer?: 0 | 1;
  /** Percent. */
  underPaidCover?: Decimal;
  /** Convert what arrives into this coin (the gateway documents USDT). */
  toCurrency?: string;
  autoWithdrawal?: boolean;
  /** The payer may finish an under-payment in another coin. */
  mixedPayment?: boolean;
  callbackUrl?: string;
  /** Where the page sends the payer after paying. */
  returnUrl?: string;
  email?: string;
  orderId?: string;
  /** A note the page shows the payer after paying. */
  thanksMessage?: string;
  description?: string;
  /** The real service's own test invoice (its `sandbox` field): nothing is charged. */
  testInvoice?: boolean;
}

/** The invoice the gateway created, as its answer says it. Only the track id is certain. */
export interface Invoice {
  trackId: Untrusted;
  paymentUrl: Untrusted | null;
  expiredAt: Scalar | null;
  createdAt: Scalar | null;
}

/** The sandbox's answer in canonical values: times as Unix seconds. */
export interface CreatedInvoice {
  trackId: string;
  paymentUrl: string;
  expiredAt: number;
  createdAt: number;
}

export const CREATE_INVOICE = {
  name: 'invoice creation',
  what: 'the invoice request',
  idempotent: false,
  encodeRequest: (endpoint: Endpoint, request: InvoiceRequest): Record<string, unknown> => encodeFields(endpoint.request, { ...request }),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Invoice => decodeInvoiceAnswer(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: CreatedInvoice): object => encodeFields(endpoint.answer, answer as unknown as Record<string, JsonValue>),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'POST',
      path: '/v1/payment/invoice',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'json',
      envelope: 'versioned',
      // In the order the API documents them (docs/gateway.md §10).
      request: fields([
        ['amount', 'amount', 'number'],
        ['currency', 'currency', 'text'],
        ['lifeTime', 'lifetime', 'integer'],
        ['feePaidByPayer', 'fee_paid_by_payer', 'integer'],
        ['underPaidCover', 'under_paid_coverage', 'number'],
        ['toCurrency', 'to_currency', 'text'],
        ['autoWithdrawal', 'auto_withdrawal', 'boolean'],
        ['mixedPayment', 'mixed_payment', 'boolean'],
        ['callbackUrl', 'callback_url', 'text'],
        ['returnUrl', 'return_url', 'text'],
        ['email', 'email', 'text'],
        ['orderId', 'order_id', 'text'],
        ['thanksMessage', 'thanks_message', 'text'],
        ['description', 'description', 'text'],
        ['testInvoice', 'sandbox', 'boolean'],
      ]),
      answer: fields([
        ['trackId', 'track_id', 'text'],
        ['paymentUrl', 'payment_url', 'text'],
        ['expiredAt', 'expired_at', 'integer'],
        ['createdAt', 'date', 'integer'],
      ]),
    },
  },
} as const satisfies Operation<InvoiceRequest, Invoice, CreatedInvoice> & { endpoints: { v1: Endpoint } };

/** The invoice answer's `data`: every field under gw's name; only the track id is required. */
export function decodeInvoiceAnswer(endpoint: Endpoint, body: JsonObject, what: string): Invoice {
  const data = payloadOf(endpoint, body, what);
  const read = readFields(data, [endpoint.answer], what) as Record<string, never>;
  const trackId = endpoint.answer.find((f) => f.name === 'trackId');
  return {
    trackId: requiredText(trackId === undefined ? undefined : answerValue(data, trackId), trackId?.wire ?? 'track_id', what),
    paymentUrl: read.paymentUrl ?? null,
    expiredAt: read.expiredAt ?? null,
    createdAt: read.createdAt ?? null,
  };
}
