// What gw pay and gw counter make of a payment the gateway created: whether it can be shown to a
// payer, its payment URI, and what it says the payer owes (for what arrived to be compared with).
import { coinKey, type Expected } from '../domain/arrival.js';
import type { Payment } from '../gateway/gateway.js';
import type { PaymentUri } from '../payment-uri/index.js';

/** Why a created payment cannot be shown to a payer as payable, if it cannot. */
export function unpayableReason(payment: Payment): string | undefined {
  if (payment.payAmount === null) return 'the gateway gave no amount to pay';
  if (!payment.payAmount.isPositive) return `the gateway priced it at ${payment.payAmount}`;
  if (payment.payCurrency === null || payment.payCurrency.isBlank) return 'the gateway gave no currency to pay in';
  if (payment.address === null || payment.address.isBlank) return 'the gateway gave no address';
  return undefined;
}

/** The payment URI (and QR content) for the payment; a GwError when its network or address cannot make one. */
export async function paymentUriOf(payment: Payment): Promise<PaymentUri> {
  const { buildPaymentUri } = await import('../payment-uri/index.js');
  return buildPaymentUri({
    network: payment.network?.raw() ?? '',
    payCurrency: payment.payCurrency?.raw() ?? '',
    address: payment.address?.raw() ?? '',
    payAmount: payment.payAmount?.toString() ?? '',
    memo: payment.memo?.raw() ?? null,
  });
}

/** What the creation answer says the payer owes, in the coin to pay. */
export function expectedOfPayment(payment: Payment): Expected | null {
  const coin = coinKey(payment.payCurrency?.raw());
  return payment.payAmount === null || coin === null ? null : { amount: payment.payAmount, coin };
}
