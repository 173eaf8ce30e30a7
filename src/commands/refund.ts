// gw refund <trackId> --to <address>: return what arrived for a payment, as a payout (the gateway
// has no refund call: docs/gateway.md §13). It looks the payment up over the versioned API (its
// transactions say what arrived: coin, network, amount; src/domain/arrival.ts), shows them, and
// prepares a payout of what arrived and is confirmed (or --amount, up to it) in that coin, on that
// network, to --to. It refuses: nothing received; more than arrived minus the payment's earlier
// refunds in progress or confirmed (found by their reference refund-<trackId>-…: src/cmdutil/refunds.ts);
// an address of another network. A payment paid in two coins is refunded one coin per refund
// (--coin). It warns when the payment was converted on arrival. Then the same rules as gw payout:
// shown, confirmed, sent at most once (src/cmdutil/payout-send.ts).
import { Command } from 'commander';
import { parseHttpUrl, parseSymbol, parseText, parseTrackId } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { generateRefundReference, mathRandom, parseReference, referenceOf, refundPrefix } from '../cmdutil/payout-reference.js';
import { parsePayoutAmount } from '../cmdutil/payout-checks.js';
import { draftPayout, failedBeforeSending, OneShotSender, type PayoutCommandFlags, requireConfirmable, sendDraft } from '../cmdutil/payout-send.js';
import { refundedByCoin, refundsOf, refundsSince } from '../cmdutil/refunds.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, PaymentInfo } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import { PAYMENT_INFO } from '../operations/payment-info.js';
import type { Payout } from '../operations/payout-info.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import { renderTable } from '../output/table.js';
import { matchNetwork } from '../payment-uri/networks.js';
import type { Clock } from '../util/clock.js';
import { type ArrivedTx, subtract } from '../domain/arrival.js';

export interface RefundFlags extends PayoutCommandFlags {
  to: string;
  amount?: string;
  coin?: string;
  network?: string;
}

export interface RefundOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  sender: OneShotSender;
  clock: Clock;
  trackId: string;
  flags: RefundFlags;
  sandbox: boolean;
  /** Lifts the command's deadline while the confirmation is asked. */
  releaseDeadline?: () => void;
}

/** The payment's information over the versioned API only: it lists the transactions. */
const V1_PAYMENT_INFO = { ...PAYMENT_INFO, endpoints: { v1: PAYMENT_INFO.endpoints.v1 } };

/** What arrived in one coin on one network: counted transactions summed (confirmed, and not yet). */
interface Arrived {
  coin: string;
  network: string;
  confirmed: Decimal;
  unconfirmed: Decimal;
  converted: boolean;
}

/** Whether the gateway says transaction `raw` (gw's JSON of it) was converted on arrival (`autoConvert.processed`). */
function converted(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const convert = (raw as Record<string, unknown>).autoConvert;
  return typeof convert === 'object' && convert !== null && (convert as Record<string, unknown>).processed === true;
}

function arrivedGroups(info: PaymentInfo): Arrived[] {
  const groups = new Map<string, Arrived>();
  const rawTxs = Array.isArray(info.fields.txs) ? info.fields.txs : [];
  (info.arrival.transactions ?? []).forEach((tx, i) => {
    if (tx.count === 'not-counted' || tx.amount === null || tx.coin === null) return;
    const network = tx.network?.raw().trim() ?? '';
    const key = `${tx.coin}\u0000${matchNetwork(network, tx.coin) ?? network}`;
    const group = groups.get(key) ?? { coin: tx.coin, network, confirmed: Decimal.ZERO, unconfirmed: Decimal.ZERO, converted: false };
    groups.set(key, group);
    if (tx.count === 'confirmed') group.confirmed = group.confirmed.plus(tx.amount);
    else group.unconfirmed = group.unconfirmed.plus(tx.amount);
    if (converted(rawTxs[i])) group.converted = true;
  });
  return [...groups.values()];
}

function chooseGroup(groups: Arrived[], flags: RefundFlags, trackId: string): Arrived {
  let candidates = groups;
  if (flags.coin !== undefined) candidates = candidates.filter((g) => g.coin === flags.coin);
  if (flags.network !== undefined) {
    const id = matchNetwork(flags.network, flags.coin ?? candidates[0]?.coin ?? '');
    candidates = candidates.filter((g) => matchNetwork(g.network, g.coin) === id);
  }
  const listed = groups.map((g) => `${g.coin} on ${g.network || 'an unnamed network'}`).join(', ');
  if (candidates.length === 0)
    throw new UsageError(
      `nothing arrived for payment ${trackId} in ${flags.coin ?? ''}${flags.network === undefined ? '' : ` on ${flags.network}`}: it arrived in ${listed}; nothing was sent`,
    );
  if (candidates.length > 1) {
    throw new UsageError(
      `payment ${trackId} was paid in more than one coin or network (${listed}): refund one per refund, chosen with --coin (and --network); nothing was sent`,
    );
  }
  return candidates[0] as Arrived;
}

export function newCmdRefund(f: Factory, runF: (opts: RefundOptions) => Promise<void> = refundRun): Command {
  return withHelp(
    new Command('refund')
      .argument('<trackId>', 'the payment to refund')
      .requiredOption('--to <address>', "the payer's address, on the network the payment arrived on")
      .option('--amount <n>', 'refund this much (default: everything that arrived and is confirmed, less earlier refunds)')
      .option('--coin <sym>', 'for a payment paid in two coins: the coin to refund (one per refund)')
      .option('--network <name>', 'for a coin that arrived on two networks: which one')
      .option('--memo <text>', 'memo/comment, only for networks that carry one (TON)')
      .option('--description <text>', 'your note; gw adds the refund reference as its last word')
      .option('--callback-url <url>', 'URL the gateway notifies of the payout status')
      .option('--reference <ref>', 'the refund reference (refund-<trackId>-…, or its last part): gw first looks for a refund already made with it')
      .option('--yes', 'send without asking (needed when not on a terminal)')
      .option('--dry-run', 'check everything and show what would be sent; send nothing')
      .action((trackId: string, flags: RefundFlags) => {
        const id = parseTrackId(trackId);
        if (flags.coin !== undefined) flags.coin = parseSymbol(flags.coin, '--coin');
        if (flags.network !== undefined) flags.network = parseText(flags.network, '--network', 60);
        if (flags.memo !== undefined) flags.memo = parseText(flags.memo, '--memo', 120);
        if (flags.description !== undefined) flags.description = parseText(flags.description, '--description', 200);
        if (flags.callbackUrl !== undefined) parseHttpUrl(flags.callbackUrl, '--callback-url', { credentials: 'allowed' });
        if (flags.reference !== undefined) {
          const given = parseReference(flags.reference);
          flags.reference = given.startsWith(refundPrefix(id)) ? given : parseReference(`${refundPrefix(id)}${given}`);
        }
        if (flags.amount !== undefined) {
          if (parsePayoutAmount(flags.amount) === undefined)
            throw new UsageError(`--amount must be a positive plain decimal such as 12.5 (got ${JSON.stringify(flags.amount.slice(0, 40))}): nothing was sent`);
        }
        return runF({
          io: f.io,
          gateway: () => f.gateway(),
          sender: new OneShotSender(),
          clock: f.clock,
          trackId: id,
          flags,
          sandbox: f.globals.sandbox === true,
          releaseDeadline: () => f.releaseDeadline(),
        });
      }),
    {
      examples: [
        'gw refund 184729305 --to TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
        'gw refund 184729305 --to T… --amount 5 --dry-run',
        'gw refund 184729305 --to bc1q… --coin BTC --yes --json',
      ],
      json: '{"sent": true, "payment": "184729305", "arrived": "25", "refundedBefore": "0", "trackId": "258298451", "status": "processing", "amount": "25", "currency": "USDT", "network": "Tron Network", "address": "T…", "fee": "1", "reference": "refund-184729305-k7q3", …}',
      notes:
        'Exit codes as gw payout: 0 sent (or --dry-run, or a refund with --reference already exists); 1 not confirmed (n, Enter); 130 Ctrl-C; 64 bad input, an address of another network, no terminal without --yes; 65 nothing received, more than can be refunded, below the minimum or over the balance; 69/75/76 the request failed: see "payout" in the JSON error.',
    },
  );
}

const TX_STATE: Readonly<Record<ArrivedTx['count'], string>> = { confirmed: 'confirmed', confirming: 'not confirmed yet', 'not-counted': 'not counted' };

function showArrived(io: IOStreams, trackId: string, info: PaymentInfo, groups: Arrived[], refunds: readonly Payout[], asking: boolean): void {
  // Each transaction (coin, network, amount), then what each coin and network adds up to.
  const txRows = (info.arrival.transactions ?? []).map((tx) => [
    tx.coin ?? '?',
    tx.network === null || tx.network.isBlank ? '—' : tx.network.line(40),
    tx.amount?.toString() ?? '?',
    TX_STATE[tx.count],
    tx.hash === null || tx.hash.isBlank ? '—' : tx.hash.line(16),
  ]);
  const rows = groups.map((g) => [g.coin, g.network || '—', g.confirmed.toString(), g.unconfirmed.isZero ? '' : g.unconfirmed.toString()]);
  const text = `Payment ${trackId}: what arrived\n${renderTable(['Coin', 'Network', 'Amount', 'State', 'Transaction'], txRows)}In all:\n${renderTable(['Coin', 'Network', 'Confirmed', 'Not confirmed yet'], rows)}${
    refunds.length === 0 ? '' : `Earlier refunds: ${refunds.map((r) => `${r.trackId} ${r.amount ?? '?'} ${r.currency ?? ''} (${r.status})`).join(', ')}\n`
  }`;
  // Where the confirmation goes (src/cmdutil/payout-send.ts): stderr with --json, or when gw will ask and stdout is not the terminal.
  if (io.json || (asking && !io.stdoutIsTTY)) io.err(text);
  else io.out(text);
}

export async function refundRun(opts: RefundOptions): Promise<void> {
  const reference = opts.flags.reference ?? generateRefundReference(opts.trackId, mathRandom);
  try {
    await sendRefund(opts, reference);
  } catch (error) {
    throw failedBeforeSending(error, opts.sender, reference);
  }
}

async function sendRefund(opts: RefundOptions, reference: string): Promise<void> {
  const { io, flags, trackId } = opts;
  requireConfirmable(io, { yes: flags.yes === true, dryRun: flags.dryRun === true, noun: 'refund' });
  const gateway = await opts.gateway();
  const info = await gateway.perform(V1_PAYMENT_INFO, { trackId });
  const groups = arrivedGroups(info);
  if (groups.length === 0) {
    throw new GwError(ExitCode.DATA, `nothing was received for payment ${trackId} (${info.status}): there is nothing to refund; nothing was sent`);
  }
  const group = chooseGroup(groups, flags, trackId);
  let refunds: Payout[];
  try {
    refunds = await refundsOf(gateway, trackId, refundsSince(info.date, opts.clock.now()));
  } catch (error) {
    if (error instanceof GwError)
      throw error.with({ message: `the earlier refunds of payment ${trackId} could not be read (${error.message}): nothing was sent` });
    throw error;
  }
  showArrived(io, trackId, info, groups, refunds, flags.yes !== true && flags.dryRun !== true);
  // Run again with --reference after an ambiguous failure: a refund already made with it, to this
  // address, is what the look before sending finds and reports (nothing sent, exit 0), so it is not
  // counted against what is left; otherwise a full refund, once made, would read as "nothing left".
  const counted =
    flags.reference === undefined
      ? refunds
      : refunds.filter((r) => !(referenceOf(r.description?.raw()) === flags.reference && r.address?.raw().trim() === flags.to.trim()));
  const refunded = refundedByCoin(counted).get(group.coin) ?? Decimal.ZERO;
  const available = subtract(group.confirmed, refunded);
  if (!available.isPositive) {
    const pending = group.unconfirmed.isZero ? '' : ` (${group.unconfirmed} ${group.coin} is not confirmed yet: refund it once it is)`;
    throw new GwError(
      ExitCode.DATA,
      `nothing is left to refund for payment ${trackId} in ${group.coin}: ${group.confirmed} arrived confirmed, ${refunded} refunded or being refunded${pending}; nothing was sent`,
    );
  }
  const amount = flags.amount === undefined ? available : (parsePayoutAmount(flags.amount) as Decimal);
  if (amount.compare(available) > 0) {
    throw new GwError(
      ExitCode.DATA,
      `--amount ${amount} ${group.coin} is more than can be refunded for payment ${trackId}: ${group.confirmed} arrived confirmed, ${refunded} refunded or being refunded, ${available} left; nothing was sent`,
    );
  }
  if (!group.unconfirmed.isZero) io.warn(`${group.unconfirmed} ${group.coin} of payment ${trackId} is not confirmed yet: it is not counted`);
  if (group.converted) {
    io.warn(
      `payment ${trackId} was converted on arrival: the balance holds the coin it was converted to, not ${group.coin}; a refund in ${group.coin} is paid from the ${group.coin} balance`,
    );
  }
  if (group.network === '')
    throw new GwError(ExitCode.DATA, `the gateway does not say which network payment ${trackId} arrived on: gw cannot refund it safely; nothing was sent`);
  const draft = draftPayout(opts, reference, { amount: amount.toString(), currency: group.coin, address: flags.to, network: group.network });
  const retryHead = [
    'gw refund',
    shellQuote(trackId),
    '--to',
    shellQuote(draft.address),
    '--amount',
    draft.amount.toString(),
    '--coin',
    group.coin,
    ...(flags.memo === undefined ? [] : ['--memo', shellQuote(flags.memo)]),
  ];
  await sendDraft(opts, gateway, draft, {
    noun: 'refund',
    retryHead,
    extraJson: { payment: trackId, arrived: group.confirmed, refundedBefore: refunded },
  });
}
