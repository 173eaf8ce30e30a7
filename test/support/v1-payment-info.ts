// Payment information as the versioned API answers it (GET /v1/payment/{track_id}, `data`), decoded
// by gw's own decoder, for tests of what arrived (src/domain/arrival.ts). The samples follow the
// gateway's published "Payment Information" example (docs.oxapay.com): snake_case, amounts as JSON
// numbers, a `txs` list with tx_hash, amount, currency, network, address, status, confirmations,
// auto_convert, auto_withdrawal and date.
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { parseLossless } from '../../src/util/json.js';
import type { JsonObject } from '../../src/operations/read.js';
import { decodeV1PaymentInfo } from '../../src/operations/payment-info.js';

export const T_DATE = 1_764_072_000; // 2025-11-25 12:00 UTC

/** One transaction as `txs[]` lists it; amounts are number literals (strings here keep their digits). */
export function v1Tx(hash: string, amount: string, currency: string, extra: Record<string, unknown> = {}): string {
  const fields = {
    tx_hash: hash,
    amount: '@',
    currency,
    network: currency === 'BTC' ? 'Bitcoin Network' : currency === 'ETH' ? 'Ethereum Network' : 'Tron Network',
    address: currency === 'BTC' ? 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' : 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
    status: 'confirmed',
    confirmations: 3,
    auto_convert: { processed: false, amount: 0, currency },
    auto_withdrawal: { processed: false },
    date: T_DATE + 600,
    ...extra,
  };
  return JSON.stringify(fields).replace('"@"', amount);
}

/** The `data` of a payment-information answer, with `txs` given as JSON texts (v1Tx). */
export function v1InfoJson(fields: Record<string, unknown>, txs: string[] | undefined): string {
  const data = {
    track_id: '184729305',
    type: 'white_label',
    amount: '@amount',
    currency: 'BTC',
    status: 'paid',
    mixed_payment: false,
    fee_paid_by_payer: 0,
    under_paid_coverage: 0,
    lifetime: 60,
    callback_url: 'https://shop.example/oxapay/callback',
    return_url: '',
    email: 'customer@example.com',
    order_id: 'ORD-12345',
    description: 'Order #12345',
    thanks_message: '',
    expired_at: T_DATE + 3600,
    date: T_DATE,
    ...fields,
  };
  const amount = typeof fields.amount === 'string' ? fields.amount : '0.0005';
  let text = JSON.stringify({ ...data, amount: '@amount' }).replace('"@amount"', amount);
  if (txs !== undefined) text = text.replace(/}$/, `,"txs":[${txs.join(',')}]}`);
  return text;
}

export function v1InfoOf(fields: Record<string, unknown>, txs: string[] | undefined): PaymentInfo {
  return decodeV1PaymentInfo(parseLossless(v1InfoJson(fields, txs)) as JsonObject, 'the test');
}

/** The three situations of issue 21, as the versioned API reports them. */
export const V1_SAMPLES = {
  /** Expired, yet its one transaction carries the full 0.0005 BTC (it came after the expiry). */
  lateFull: () => v1InfoOf({ status: 'expired' }, [v1Tx('9f2c1e0b7a4d', '0.0005', 'BTC')]),
  /** Underpaid: 0.0004 of 0.0005 BTC arrived. */
  underpaid: () => v1InfoOf({ status: 'underpaid' }, [v1Tx('5be7a90c3d21', '0.0004', 'BTC')]),
  /** A mixed payment of 25 USD in two coins, ended underpaid: BTC then USDT, the second still confirming. */
  mixed: () =>
    v1InfoOf({ status: 'underpaid', currency: 'USD', amount: '25', mixed_payment: true }, [
      v1Tx('aa11bb22cc33', '0.0002', 'BTC'),
      v1Tx('dd44ee55ff66', '10.5', 'USDT', { status: 'confirming', confirmations: 0 }),
    ]),
  /** Expired with nothing received: an empty list. */
  expiredEmpty: () => v1InfoOf({ status: 'expired' }, []),
};
