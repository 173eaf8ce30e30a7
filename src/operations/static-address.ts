// Creating a static (fixed) address: one deposit address on a network that takes any number of
// payments, each reported to its callback URL (docs/gateway.md §11). Versioned API only: POST
// /v1/payment/static-address (JSON in snake_case, key header `merchant_api_key`), sent over the
// versioned API whatever `api` says (chooseEndpoint). Never re-sent once it may have reached the
// gateway (a second address would be made). The list and revocation are static-address-list.ts
// and static-address-revoke.ts; what they share is here.
import type { Untrusted } from '../output/untrusted.js';
import { outputObject, requiredText, type JsonObject } from './read.js';
import { answerValue, encodeFields, fields, payloadOf, readFields, type Endpoint, type Field, type Operation } from './codec.js';
import type { OutputObject, Scalar } from './values.js';

export interface StaticAddressRequest {
  /** The network the address is on: what the gateway requires (`TRON`, `Bitcoin Network`…). */
  network: string;
  /** Convert what arrives into this currency (the gateway documents USDT). */
  toCurrency?: string;
  /** Forward what arrives to the merchant's withdrawal address (sent 1 or 0, as documented). */
  autoWithdrawal?: boolean;
  callbackUrl?: string;
  email?: string;
  orderId?: string;
  description?: string;
}

/**
 * A static address as the gateway describes it (its creation's answer, or a row of the list):
 * every field under its own name, only the address certain (the documented example of the
 * creation's answer echoes the request instead of the schema's fields). The network is the
 * gateway's text (a display name such as `Tron Network`, or the key sent).
 */
export interface StaticAddress {
  trackId: Untrusted | null;
  address: Untrusted;
  network: Untrusted | null;
  /** The memo or destination tag a payer must send with the payment (memo networks only). */
  memo: Untrusted | null;
  QRCode: Untrusted | null;
  callbackUrl: Untrusted | null;
  email: Untrusted | null;
  orderId: Untrusted | null;
  description: Untrusted | null;
  /** When it was created (Unix seconds in practice). */
  date: Scalar | null;
  /** Every field the gateway sent, under gw's names: what --json prints. */
  fields: Readonly<OutputObject>;
}

/** A static address as the sandbox answers for it, in canonical names (times as Unix seconds). */
export interface StaticAddressRecord {
  trackId: string;
  network: string;
  address: string;
  memo: string;
  QRCode: string;
  callbackUrl: string;
  email: string;
  orderId: string;
  description: string;
  date: number;
}

/**
 * The fields of a static address as the versioned API names them: the creation answer's schema
 * (track_id, network, address, qr_code, date), the memo the official clients expect, and the
 * request's fields the documented example echoes (the list's rows have these too).
 */
export const STATIC_ADDRESS_FIELDS = fields([
  ['trackId', 'track_id', 'text'],
  ['network', 'network', 'text'],
  ['address', 'address', 'text'],
  ['memo', 'memo', 'memo'],
  ['QRCode', 'qr_code', 'text'],
  ['callbackUrl', 'callback_url', 'text'],
  ['email', 'email', 'text'],
  ['orderId', 'order_id', 'text'],
  ['description', 'description', 'text'],
  ['date', 'date', 'integer'],
]);

/** gw's names of the versioned fields, for --json (a field no table lists keeps its camelCase spelling). */
const NAMES = new Map<string, string>([
  ...STATIC_ADDRESS_FIELDS.map((f): [string, string] => [f.wire, f.name]),
  ['to_currency', 'toCurrency'],
  ['auto_withdrawal', 'autoWithdrawal'],
]);

const camel = (name: string): string => name.replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());

/** One static address from an answer object (the creation's `data`, or a list row). */
export function decodeStaticAddress(object: JsonObject, table: readonly Field[], what: string): StaticAddress {
  const read = readFields(object, [table], what);
  const textOf = (name: string): Untrusted | null => (read[name] ?? null) as Untrusted | null;
  const required = (name: string): Untrusted => {
    const f = table.find((r) => r.name === name) as Field;
    return requiredText(answerValue(object, f), f.wire, what);
  };
  const trackId = textOf('trackId');
  const out = outputObject(object);
  const fieldsOut: OutputObject = Object.create(null) as OutputObject;
  for (const [key, value] of Object.entries(out)) fieldsOut[NAMES.get(key) ?? camel(key)] = value;
  return {
    trackId: trackId === null || trackId.isBlank ? null : trackId,
    address: required('address'),
    network: textOf('network'),
    memo: textOf('memo'),
    QRCode: textOf('QRCode'),
    callbackUrl: textOf('callbackUrl'),
    email: textOf('email'),
    orderId: textOf('orderId'),
    description: textOf('description'),
    date: (read.date ?? null) as Scalar | null,
    fields: fieldsOut,
  };
}

type CreateEndpoint = Endpoint & { readonly api: 'v1' };

export const CREATE_STATIC_ADDRESS = {
  name: 'creating a static address',
  what: 'the static address request',
  idempotent: false,
  encodeRequest: (endpoint: Endpoint, request: StaticAddressRequest): Record<string, unknown> =>
    encodeFields(endpoint.request, {
      ...request,
      autoWithdrawal: request.autoWithdrawal === undefined ? undefined : request.autoWithdrawal ? 1 : 0,
    }),
  decodeAnswer: (endpoint: Endpoint, body: JsonObject, what: string): StaticAddress =>
    decodeStaticAddress(payloadOf(endpoint, body, what), endpoint.answer, what),
  encodeAnswer: (endpoint: Endpoint, answer: StaticAddressRecord): object => encodeFields(endpoint.answer, { ...answer }),
  endpoints: {
    v1: {
      api: 'v1',
      method: 'POST',
      path: '/v1/payment/static-address',
      key: { kind: 'merchant', header: 'merchant_api_key' },
      body: 'json',
      envelope: 'versioned',
      // docs.oxapay.com/api-reference/payment/generate-static-address, in its order.
      request: fields([
        ['network', 'network', 'text'],
        ['toCurrency', 'to_currency', 'text'],
        ['autoWithdrawal', 'auto_withdrawal', 'integer'],
        ['callbackUrl', 'callback_url', 'text'],
        ['email', 'email', 'text'],
        ['orderId', 'order_id', 'text'],
        ['description', 'description', 'text'],
      ]),
      answer: STATIC_ADDRESS_FIELDS,
    },
  },
} as const satisfies Operation<StaticAddressRequest, StaticAddress, StaticAddressRecord> & { endpoints: Record<'v1', CreateEndpoint> };
