// Payout information: one payout's record (docs/gateway.md §13). Versioned GET
// /v1/payout/{track_id}, key header `payout_api_key`; no legacy endpoint is used. The record's
// fields (docs.oxapay.com/api-reference/payout/payout-information) are the payout history's rows
// too (./payout-history.ts): both read and write them through the table here.
import { normalizePayoutStatus, type PayoutState } from '../domain/payout-status.js';
import { ExitCode, type GwError } from '../errors.js';
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';
import { isJsonNumber, isJsonObject } from '../util/json.js';
import { encodeFields, fields, payloadOf, readFields, type Endpoint, type Operation } from './codec.js';
import { readScalar, requiredText, shapeError, type JsonObject } from './read.js';
import type { Scalar } from './values.js';

/** A payout as gw reads it: text Untrusted, amounts Decimal; only the track id is certain. */
export interface Payout {
  trackId: Untrusted;
  /** gw's one vocabulary (src/domain/payout-status.ts); `gatewayStatus` the text the gateway sent. */
  status: PayoutState;
  gatewayStatus: Untrusted | null;
  address: Untrusted | null;
  currency: Untrusted | null;
  network: Untrusted | null;
  amount: Decimal | null;
  fee: Decimal | null;
  txHash: Untrusted | null;
  description: Untrusted | null;
  /** A transfer between accounts of the gateway; null when the answer does not say. */
  internal: boolean | null;
  memo: Untrusted | null;
  /** Unix seconds in practice. */
  date: Scalar | null;
}

/** A payout as the sandbox keeps and answers it: amounts as exact digits, the status in the API's word. */
export interface PayoutRecord {
  trackId: string;
  address: string;
  currency: string;
  network: string;
  amount: string;
  fee: string;
  status: string;
  txHash: string;
  description: string;
  internal: boolean;
  memo: string;
  date: number;
}

export interface PayoutInfoRequest {
  trackId: string;
}

/** The payout record (D:po-info, D:po-hist), in the docs' order. */
export const V1_PAYOUT_FIELDS = fields([
  ['trackId', 'track_id', 'text'],
  ['address', 'address', 'text'],
  ['currency', 'currency', 'text'],
  ['network', 'network', 'text'],
  ['amount', 'amount', 'number'],
  ['fee', 'fee', 'number'],
  ['status', 'status', 'text'],
  ['txHash', 'tx_hash', 'text'],
  ['description', 'description', 'text'],
  ['internal', 'internal', 'boolean'],
  ['memo', 'memo', 'memo'],
  ['date', 'date', 'integer'],
]);

/** One payout record of an answer (information `data`, or a history row). */
export function decodePayout(object: JsonObject, what: string): Payout {
  // `internal` is a flag, read below (readFields reads text, amounts and integers).
  const read = readFields(object, [V1_PAYOUT_FIELDS.filter((f) => f.kind !== 'boolean')], what);
  const trackId = requiredText(object.track_id ?? object.trackId, 'track_id', what);
  const text = (name: string): Untrusted | null => (read[name] ?? null) as Untrusted | null;
  const gatewayStatus = text('status');
  const internal = object.internal;
  const flag = isJsonNumber(internal) ? internal.value : internal;
  return {
    trackId,
    status: gatewayStatus === null ? 'unknown' : normalizePayoutStatus(gatewayStatus.raw()),
    gatewayStatus,
    address: text('address'),
    currency: text('currency'),
    network: text('network'),
    amount: (read.amount ?? null) as Decimal | null,
    fee: (read.fee ?? null) as Decimal | null,
    txHash: text('txHash'),
    description: text('description'),
    internal: typeof flag === 'boolean' ? flag : flag === '1' || flag === 'true' ? true : flag === '0' || flag === 'false' ? false : null,
    memo: text('memo'),
    date: readScalar(object.date),
  };
}

/** The sandbox's record as the API writes it. */
export function encodePayout(record: PayoutRecord): Record<string, unknown> {
  return encodeFields(V1_PAYOUT_FIELDS, { ...record });
}

export const PAYOUT_INFO = {
  name: 'payout information',
  what: 'the payout status request',
  idempotent: true,
  encodeRequest: (endpoint: Endpoint, request: PayoutInfoRequest): Record<string, unknown> => encodeFields(endpoint.request, { ...request }),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): Payout => {
    const data = payloadOf(endpoint, body, what);
    if (!isJsonObject(data)) throw shapeError(what, 'no data object');
    return decodePayout(data, what);
  },
  encodeAnswer: (_endpoint: Endpoint, answer: PayoutRecord): object => encodePayout(answer),
  // An enveloped 404 is an unknown track id: the request's data is wrong (exit 65).
  refine: (_endpoint: Endpoint, error: GwError): GwError =>
    error.exitCode === ExitCode.REFUSED && error.status === 404
      ? error.with({ exitCode: ExitCode.DATA, hint: 'no payout of this account has that track id: check it (gw payouts lists them)' })
      : error,
  endpoints: {
    v1: {
      api: 'v1',
      method: 'GET',
      path: '/v1/payout/:track_id',
      key: { kind: 'payout', header: 'payout_api_key' },
      body: 'none',
      envelope: 'versioned',
      request: fields([['trackId', 'track_id', 'text']]),
      answer: V1_PAYOUT_FIELDS,
    },
  },
} as const satisfies Operation<PayoutInfoRequest, Payout, PayoutRecord> & { endpoints: { v1: Endpoint } };
