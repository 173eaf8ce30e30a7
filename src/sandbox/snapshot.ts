// A stored sandbox payment as a PaymentSnapshot (events.ts): what a change carries. Used for the
// change emitted at creation; the lifecycle builds later snapshots from the same function.
import type { PaymentState } from '../domain/payment-status.js';
import type { PaymentSnapshot } from './events.js';
import type { SandboxPayment } from './gateway.js';

/** The payment as it stands in `status`, nothing received yet unless `progress` says so. */
export function snapshotOf(
  payment: SandboxPayment,
  status: PaymentState,
  progress: Partial<Pick<PaymentSnapshot, 'receivedAmount' | 'txID' | 'payDate' | 'api'>> = {},
): PaymentSnapshot {
  return {
    trackId: payment.trackId,
    status,
    amount: payment.amount,
    currency: payment.currency,
    payAmount: payment.payAmount,
    payCurrency: payment.payCurrency,
    network: payment.network,
    address: payment.address,
    receivedAmount: progress.receivedAmount ?? '0',
    txID: progress.txID ?? '',
    callbackUrl: payment.callbackUrl,
    description: payment.description,
    email: payment.email,
    orderId: payment.orderId,
    feePaidByPayer: payment.feePaidByPayer,
    underPaidCover: payment.underPaidCover,
    lifeTime: payment.lifeTime,
    createdAt: payment.createdAt,
    expiredAt: payment.expiredAt,
    payDate: progress.payDate ?? 0,
    ...(progress.api !== undefined && { api: progress.api }),
  };
}
