// The values gw's operations hand to commands, shared by more than one operation (src/operations/*).
// Every string the gateway sent is Untrusted (terminal-safe when printed), every amount a Decimal
// (exact digits). Types only, in the domain's floor: below the operations (src/operations/values.ts
// hands them on), the rules that read them (./arrival.ts) and the readers (src/operations/read.ts).
import type { PaymentState } from './payment-status.js';
import type { Decimal } from '../money/decimal.js';
import type { Untrusted } from '../output/untrusted.js';

/** A timestamp or a count as the gateway sent it: a number when it was an exact integer, else its text. */
export type Scalar = number | Untrusted;

/**
 * A decoded JSON value made fit for gw's JSON output: strings Untrusted, numbers in money fields
 * exact decimal strings, other numbers numbers when exactly representable (else their digits),
 * objects and arrays converted throughout.
 */
export type OutputValue = null | boolean | number | Untrusted | Decimal | OutputObject | OutputValue[];
export interface OutputObject {
  [key: string]: OutputValue;
}

/** One blockchain transaction of a payment (the newer API lists them; the legacy inquiry gives one txID). */
export interface PaymentTransaction {
  txID: Untrusted | null;
  amount: Decimal | null;
  currency: Untrusted | null;
  network: Untrusted | null;
  address: Untrusted | null;
  status: Untrusted | null;
  confirmations: Scalar | null;
  date: Scalar | null;
}

/**
 * A payment as the status (inquiry) and history answers describe it, before gw adds what arrived
 * (src/domain/arrival.ts; with it, it is a PaymentInfo: src/operations/payment-info.ts). `status`
 * is gw's one vocabulary (src/domain/payment-status.ts); `gatewayStatus` the text the gateway sent.
 */
export interface PaymentInfoBase extends PaymentTermsSeen {
  status: PaymentState;
  gatewayStatus: Untrusted | null;
  type: Untrusted | null;
  txID: Untrusted | null;
  email: Untrusted | null;
  orderId: Untrusted | null;
  description: Untrusted | null;
  /** When the payment was created, paid, and when it expires (Unix seconds in practice). */
  date: Scalar | null;
  payDate: Scalar | null;
  expiredAt: Scalar | null;
  txs: PaymentTransaction[];
  /**
   * Every field the gateway sent, under the interface's (camelCase) names, amounts as exact
   * decimal strings: what `--json` prints, with `status` and `gatewayStatus` set by gw.
   */
  fields: Readonly<OutputObject>;
}

/** What every canonical payment record the sandbox keeps or sends starts with: amounts as exact digit strings. */
export interface PaymentTerms {
  trackId: string;
  amount: string;
  currency: string;
  payAmount: string;
  payCurrency: string;
  network: string;
  address: string;
}

/** PaymentTerms as gw decoded them from an answer: text Untrusted, amounts Decimal; only the track id is certain. */
export interface PaymentTermsSeen {
  trackId: Untrusted;
  amount: Decimal | null;
  currency: Untrusted | null;
  payAmount: Decimal | null;
  payCurrency: Untrusted | null;
  network: Untrusted | null;
  address: Untrusted | null;
}
