// The gateway operations gw's commands use, one module each, by name (for tests and callers that
// name one), and the names of every versioned field in one view. Nothing needs a new operation
// listed here: clients send any operation module (GatewayClient.perform), the sandbox serves those
// in its SANDBOX_BEHAVIOURS, and the sample tests find an operation by its fixtures' file name.
import { ACCEPTED_CURRENCIES } from './accepted-currencies.js';
import { BALANCE } from './balance.js';
import type { Api, Endpoint, Field } from './codec.js';
import { CREATE_INVOICE } from './create-invoice.js';
import { CREATE_PAYMENT } from './create-payment.js';
import { CREATE_PAYOUT } from './create-payout.js';
import { PAYMENT_HISTORY } from './payment-history.js';
import { PAYMENT_STATS } from './payment-stats.js';
import { camelCase, PAYMENT_INFO, V1_PAYMENT_EXTRAS, V1_TX_FIELDS } from './payment-info.js';
import { PAYOUT_HISTORY } from './payout-history.js';
import { PAYOUT_INFO } from './payout-info.js';
import { RATE } from './rate.js';
import { CREATE_STATIC_ADDRESS } from './static-address.js';
import { STATIC_ADDRESS_LIST } from './static-address-list.js';
import { REVOKE_STATIC_ADDRESS } from './static-address-revoke.js';

export { camelCase } from './payment-info.js';

/** What the registry needs of an operation module. */
export interface OperationModule {
  /** "payment information": for messages. */
  readonly name: string;
  /** "the payment status request": how failures name it. */
  readonly what: string;
  /** Safe to send again (every operation but a payment's creation). */
  readonly idempotent: boolean;
  readonly endpoints: Readonly<Partial<Record<Api, Endpoint>>>;
}

/** gw's operations by name. */
export const OPERATIONS = {
  acceptedCurrencies: ACCEPTED_CURRENCIES,
  createPayment: CREATE_PAYMENT,
  createInvoice: CREATE_INVOICE,
  paymentInfo: PAYMENT_INFO,
  paymentHistory: PAYMENT_HISTORY,
  paymentStats: PAYMENT_STATS,
  balance: BALANCE,
  rate: RATE,
  createPayout: CREATE_PAYOUT,
  payoutInfo: PAYOUT_INFO,
  payoutHistory: PAYOUT_HISTORY,
  createStaticAddress: CREATE_STATIC_ADDRESS,
  staticAddressList: STATIC_ADDRESS_LIST,
  revokeStaticAddress: REVOKE_STATIC_ADDRESS,
} as const satisfies Record<string, OperationModule>;

export type OperationName = keyof typeof OPERATIONS;

/** Every endpoint of every operation. */
export function allEndpoints(): Array<{ operation: OperationName; endpoint: Endpoint }> {
  return (Object.keys(OPERATIONS) as OperationName[]).flatMap((operation) =>
    Object.values(OPERATIONS[operation].endpoints as Partial<Record<Api, Endpoint>>).map((endpoint) => ({ operation, endpoint: endpoint as Endpoint })),
  );
}

// ---------------------------------------------------------------------------------------------
// The versioned names, all operations together

/** Every versioned field name and gw's name for it, each once (the first table that has it wins). */
export const V1_FIELDS: ReadonlyArray<{ v1: string; name: string }> = (() => {
  const tables: Array<readonly Field[]> = [
    PAYMENT_INFO.endpoints.v1.answer,
    V1_PAYMENT_EXTRAS,
    V1_TX_FIELDS,
    CREATE_PAYMENT.endpoints.v1.request,
    RATE.endpoints.v1.request,
    PAYMENT_HISTORY.endpoints.v1.request,
    CREATE_INVOICE.endpoints.v1.request,
  ];
  const byWire = new Map<string, string>();
  const names = new Set<string>();
  for (const table of tables)
    for (const f of table) {
      if (byWire.has(f.wire) || names.has(f.name)) continue;
      byWire.set(f.wire, f.name);
      names.add(f.name);
    }
  return [...byWire].map(([v1, name]) => ({ v1, name }));
})();

const TO_V1 = new Map(V1_FIELDS.map((r) => [r.name, r.v1]));
const FROM_V1 = new Map(V1_FIELDS.map((r) => [r.v1, r.name]));

/** The versioned API's name of a field gw names `name`. */
export function v1Name(name: string): string {
  return TO_V1.get(name) ?? name;
}

/** Which answer a field is read from: the white-label answer, or anything else. */
export type AnswerKind = 'white-label' | 'payment';

/** gw's name of a field the versioned API sent (a field no table lists: its camelCase spelling). */
export function interfaceName(v1: string, kind: AnswerKind = 'payment'): string {
  if (kind === 'white-label') {
    const f = CREATE_PAYMENT.endpoints.v1.answer.find((r) => r.wire === v1);
    if (f !== undefined) return f.name;
  }
  return FROM_V1.get(v1) ?? camelCase(v1);
}
