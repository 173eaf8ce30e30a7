// Creating a white-label payment (docs/gateway.md §1, §8): legacy POST /merchants/request/whitelabel
// (JSON, the merchant key in field `merchant`), versioned POST /v1/payment/white-label (JSON in
// snake_case, key header `merchant_api_key`). Never re-sent once it may have reached the gateway.
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';
import type { JsonValue } from '../util/json.js';
import { requiredText, type JsonObject } from './read.js';
import { answerValue, encodeFields, fields, payloadOf, readFields, type Endpoint, type Field, type Operation } from './codec.js';
import type { PaymentTerms, PaymentTermsSeen, Scalar } from './values.js';

export interface PaymentRequest {
  /** Exactly as typed: it goes out as a JSON number literal with these digits. */
  amount: Decimal;
  currency: string;
  payCurrency: string;
  /** Minutes. */
  lifeTime?: number;
  feePaidByPayer?: 0 | 1;
  /** Percent. */
  underPaidCover?: Decimal;
  callbackUrl?: string;
  description?: string;
  orderId?: string;
  email?: string;
  /** Not in the interface document; sent only when the user names a network. */
  network?: string;
}

/**
 * The white-label payment the gateway created: every field of its answer, under its own name.
 * Only the track id is certain: a created payment whose answer lacks an amount, currency or address
 * is still a payment that exists (the pay command shows it, and refuses to present it as payable).
 */
export interface Payment extends PaymentTermsSeen {
  /** Deposit memo/tag (newer API); a payment on a memo network cannot be attributed without it. */
  memo: Untrusted | null;
  callbackUrl: Untrusted | null;
  description: Untrusted | null;
  email: Untrusted | null;
  /** 0 or 1 as the gateway sent it (a flag, not an amount: a number in JSON, as in gw status). */
  feePaidByPayer: Scalar | null;
  lifeTime: Scalar | null;
  orderId: Untrusted | null;
  underPaidCover: Decimal | null;
  rate: Decimal | null;
  expiredAt: Scalar | null;
  createdAt: Scalar | null;
  QRCode: Untrusted | null;
}

/** The payment the sandbox created, in canonical names: amounts as exact digits, times as Unix seconds. */
export interface CreatedPayment extends PaymentTerms {
  memo: string;
  callbackUrl: string;
  description: string;
  email: string;
  feePaidByPayer: number;
  lifeTime: number;
  orderId: string;
  underPaidCover: string;
  rate: string;
  QRCode: string;
  expiredAt: number;
  createdAt: number;
}

/** Answer fields the client also reads where an answer has them, beyond the documented ones (liberal). */
type ClientEndpoint = Endpoint & { readonly extras: readonly Field[] };

export const CREATE_PAYMENT = {
  name: 'creating a white-label payment',
  what: 'the payment request',
  idempotent: false,
  encodeRequest: (endpoint: Endpoint, request: PaymentRequest): Record<string, unknown> => encodePaymentRequest(endpoint, request),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Payment => decodePaymentAnswer(endpoint, body, what),
  encodeAnswer: (endpoint: Endpoint, answer: CreatedPayment): object => encodeCreatedPayment(endpoint, answer),
  endpoints: {
    legacy: {
      api: 'legacy',
      method: 'POST',
      path: '/merchants/request/whitelabel',
      key: { kind: 'merchant', field: 'merchant' },
      body: 'json',
      envelope: 'legacy',
      request: fields([
        ['amount', 'amount', 'number'],
        ['currency', 'currency', 'text'],
        ['payCurrency', 'payCurrency', 'text'],
        ['lifeTime', 'lifeTime', 'integer'],
        ['feePaidByPayer', 'feePaidByPayer', 'integer'],
        ['underPaidCover', 'underPaidCover', 'number'],
        ['callbackUrl', 'callbackUrl', 'text'],
        ['description', 'description', 'text'],
        ['orderId', 'orderId', 'text'],
        ['email', 'email', 'text'],
        ['network', 'network', 'text'],
      ]),
      answer: fields([
        ['trackId', 'trackId', 'text'],
        ['amount', 'amount', 'number'],
        ['currency', 'currency', 'text'],
        ['payAmount', 'payAmount', 'number'],
        ['payCurrency', 'payCurrency', 'text'],
        ['network', 'network', 'text'],
        ['address', 'address', 'text'],
        ['callbackUrl', 'callbackUrl', 'text'],
        ['description', 'description', 'text'],
        ['email', 'email', 'text'],
        ['feePaidByPayer', 'feePaidByPayer', 'integer'],
        ['lifeTime', 'lifeTime', 'integer'],
        ['orderId', 'orderId', 'text'],
        ['underPaidCover', 'underPaidCover', 'number'],
        ['rate', 'rate', 'number'],
        ['expiredAt', 'expiredAt', 'integer'],
        ['createdAt', 'createdAt', 'integer'],
        ['QRCode', 'QRCode', 'text'],
      ]),
      extras: fields([['memo', 'memo', 'memo']]),
    },
    v1: {
      api: 'v1',
      method: 'POST',
      path: '/v1/payment/white-label',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'json',
      envelope: 'versioned',
      request: fields([
        ['amount', 'amount', 'number'],
        ['payCurrency', 'pay_currency', 'text'],
        ['currency', 'currency', 'text'],
        ['network', 'network', 'text'],
        ['lifeTime', 'lifetime', 'integer'],
        ['feePaidByPayer', 'fee_paid_by_payer', 'integer'],
        ['underPaidCover', 'under_paid_coverage', 'number'],
        ['callbackUrl', 'callback_url', 'text'],
        ['email', 'email', 'text'],
        ['orderId', 'order_id', 'text'],
        ['description', 'description', 'text'],
      ]),
      // In the order the API documents them (docs/gateway.md §8).
      answer: fields([
        ['trackId', 'track_id', 'text'],
        ['amount', 'amount', 'number'],
        ['currency', 'currency', 'text'],
        ['payAmount', 'pay_amount', 'number'],
        ['payCurrency', 'pay_currency', 'text'],
        ['network', 'network', 'text'],
        ['address', 'address', 'text'],
        ['memo', 'memo', 'memo'],
        ['callbackUrl', 'callback_url', 'text'],
        ['description', 'description', 'text'],
        ['email', 'email', 'text'],
        ['feePaidByPayer', 'fee_paid_by_payer', 'integer'],
        ['lifeTime', 'lifetime', 'integer'],
        ['orderId', 'order_id', 'text'],
        ['underPaidCover', 'under_paid_coverage', 'number'],
        ['rate', 'rate', 'number'],
        ['QRCode', 'qr_code', 'text'],
        ['expiredAt', 'expired_at', 'integer'],
        ['createdAt', 'date', 'integer'],
      ]),
      extras: fields([['createdAt', 'created_at', 'integer']]),
    },
  },
} as const satisfies Operation<PaymentRequest, Payment, CreatedPayment> & { endpoints: Record<'v1' | 'legacy', ClientEndpoint> };

/** The request body's fields (the key aside), amounts as JSON number literals with exactly the digits given. */
export function encodePaymentRequest(endpoint: Endpoint, request: PaymentRequest): Record<string, unknown> {
  return encodeFields(endpoint.request, { ...request });
}

/** The white-label answer: every field under gw's name; only the track id is required. */
export function decodePaymentAnswer(endpoint: Endpoint & { readonly extras?: readonly Field[] }, body: JsonObject, what: string): Payment {
  const data = payloadOf(endpoint, body, what);
  const read = readFields(data, [endpoint.answer, endpoint.extras ?? []], what) as Record<string, never>;
  const trackId = endpoint.answer.find((f) => f.name === 'trackId');
  return {
    trackId: requiredText(trackId === undefined ? undefined : answerValue(data, trackId), trackId?.wire ?? 'trackId', what),
    amount: read.amount ?? null,
    currency: read.currency ?? null,
    payAmount: read.payAmount ?? null,
    payCurrency: read.payCurrency ?? null,
    network: read.network ?? null,
    address: read.address ?? null,
    memo: read.memo ?? null,
    callbackUrl: read.callbackUrl ?? null,
    description: read.description ?? null,
    email: read.email ?? null,
    feePaidByPayer: read.feePaidByPayer ?? null,
    lifeTime: read.lifeTime ?? null,
    orderId: read.orderId ?? null,
    underPaidCover: read.underPaidCover ?? null,
    rate: read.rate ?? null,
    expiredAt: read.expiredAt ?? null,
    createdAt: read.createdAt ?? null,
    QRCode: read.QRCode ?? null,
  };
}

/** The legacy white-label answer (top level). */
export function decodePayment(body: JsonObject, what: string): Payment {
  return decodePaymentAnswer(CREATE_PAYMENT.endpoints.legacy, body, what);
}

/** The versioned white-label answer (`data`). */
export function decodeV1Payment(body: JsonObject, what: string): Payment {
  return decodePaymentAnswer(CREATE_PAYMENT.endpoints.v1, body, what);
}

/** The payload of the sandbox's answer: the documented fields, in order, each in its kind. */
export function encodeCreatedPayment(endpoint: Endpoint, payment: CreatedPayment | Payment): object {
  return encodeFields(endpoint.answer, payment as unknown as Record<string, JsonValue>);
}
