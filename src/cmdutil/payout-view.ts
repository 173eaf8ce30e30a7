// What a payout looks like to a person and in JSON: `gw payout status`, `gw payouts`, the refunds
// of `gw status --refunds` show payouts the same way.
import type { Payout } from '../operations/payout-info.js';
import type { IOStreams } from '../output/iostreams.js';
import { renderDetails } from '../output/table.js';
import { localDateTime, parseTimestamp } from '../output/time.js';

/** A payout as JSON (amounts as exact decimal strings, text exact). */
export function payoutJson(p: Payout): Record<string, unknown> {
  return {
    trackId: p.trackId,
    status: p.status,
    gatewayStatus: p.gatewayStatus,
    amount: p.amount,
    currency: p.currency,
    network: p.network,
    address: p.address,
    memo: p.memo,
    fee: p.fee,
    txHash: p.txHash,
    description: p.description,
    internal: p.internal,
    date: p.date,
  };
}

export function printPayout(io: IOStreams, p: Payout): void {
  const date = parseTimestamp(p.date);
  const status = p.status === 'unknown' ? `unknown (the gateway says "${p.gatewayStatus?.line(40) ?? ''}")` : p.status;
  io.out(
    renderDetails([
      { label: 'payout', value: String(p.trackId) },
      { label: 'status', value: io.chalk.bold(status) },
      { label: 'amount', value: `${p.amount ?? '?'} ${p.currency ?? ''}` },
      { label: 'fee', value: p.fee === null ? '—' : `${p.fee} ${p.currency ?? ''}` },
      { label: 'network', value: String(p.network ?? '—') },
      { label: 'to', value: String(p.address ?? '—') },
      ...(p.memo === null ? [] : [{ label: 'memo', value: String(p.memo) }]),
      { label: 'tx', value: p.txHash === null || p.txHash.isBlank ? 'not broadcast yet' : String(p.txHash) },
      { label: 'description', value: String(p.description ?? '—') },
      ...(date === undefined ? [] : [{ label: 'created', value: localDateTime(date) }]),
    ]),
  );
}
