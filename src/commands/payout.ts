// gw payout <amount> <currency> <address>: send a payout, the most dangerous thing gw does (money
// leaves and cannot come back; the gateway has no idempotency key). Everything is checked before
// anything is sent, the user sees exactly what will be sent and confirms it, and at most ONE
// request is sent per invocation; see src/cmdutil/payout-send.ts for the rules, and
// docs/decisions.md "Payouts: never twice".
//
// gw payout status <trackId> [--wait]: one payout's state; confirmed exit 0, canceled or rejected
// exit 12, still in progress exit 8 (without --wait; --wait follows it until it ends, exit 124 when
// --wait-timeout passes).
import { Command } from 'commander';
import { parseHttpUrl, parseSymbol, parseText, parseTrackId } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { generatePayoutReference, mathRandom, parseReference } from '../cmdutil/payout-reference.js';
import { draftPayout, failedBeforeSending, OneShotSender, type PayoutCommandFlags, requireConfirmable, sendDraft } from '../cmdutil/payout-send.js';
import { type WaitChoice, type WaitContext, type WaitFlags, waitChoice, waitContext } from '../cmdutil/wait-flags.js';
import { payoutJson, printPayout } from '../cmdutil/payout-view.js';
import { isFinalPayout, type PayoutState } from '../domain/payout-status.js';
import { ExitCode, GwError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { PAYOUT_INFO, type Payout } from '../operations/payout-info.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import type { Clock } from '../util/clock.js';

export interface PayoutFlags extends PayoutCommandFlags {
  network?: string;
}

export interface PayoutOptions {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  /** Made once per invocation: at most one payout request. */
  sender: OneShotSender;
  clock: Clock;
  amount: string;
  currency: string;
  address: string;
  flags: PayoutFlags;
  sandbox: boolean;
  /** Lifts the command's deadline while the confirmation is asked. */
  releaseDeadline?: () => void;
}

export interface PayoutStatusOptions extends WaitContext, Omit<WaitChoice, 'waitTimeoutMs'> {
  trackId: string;
  waitTimeoutMs?: number | undefined;
  /** Between two looks while waiting. */
  intervalMs?: number;
}

/** Between two looks at a payout while waiting. */
export const PAYOUT_POLL_MS = 3_000;

export function newCmdPayout(f: Factory, runF: (opts: PayoutOptions) => Promise<void> = payoutRun, statusF = payoutStatusRun): Command {
  const status = withHelp(
    new Command('status')
      .description("show a payout's state; with --wait, follow it until it is confirmed, canceled or rejected")
      .argument('<trackId>', "the payout's track id (gw payout and gw payouts show it)")
      .option('--wait', 'follow it until it ends (exit 0 confirmed, 12 canceled or rejected)')
      .option('--wait-timeout <duration>', 'stop waiting after this long, e.g. 10m (implies --wait; exit 124)')
      .action((trackId: string, flags: WaitFlags) => statusF({ ...waitContext(f), trackId: parseTrackId(trackId), ...waitChoice(flags) })),
    {
      examples: ['gw payout status 258298451', 'gw payout status 258298451 --wait'],
      json: '{"trackId": "258298451", "status": "confirmed", "gatewayStatus": "confirmed", "amount": "12.5", "currency": "USDT", "fee": "1", "txHash": "…", …}',
      notes: 'Exit codes: 0 confirmed; 8 still processing, pending or confirming (without --wait); 12 canceled or rejected; 124 --wait-timeout passed.',
    },
  );
  return withHelp(
    new Command('payout')
      .argument('<amount>', 'exact amount to send, a plain decimal such as 12.5')
      .argument('<currency>', 'coin to send, e.g. USDT')
      .argument('<address>', "recipient's address (checked for the network)")
      .option('--network <name>', 'network to send on, e.g. "Tron Network" (needed for a coin on several networks)')
      .option('--memo <text>', 'memo/comment, only for networks that carry one (TON)')
      .option('--description <text>', 'your note; gw adds the reference as its last word')
      .option('--callback-url <url>', 'URL the gateway notifies of the payout status')
      .option(
        '--reference <ref>',
        'your reference for this payout: with it, gw first looks for a payout already made with it (and sends nothing if there is one)',
      )
      .option('--yes', 'send without asking (needed when not on a terminal)')
      .option('--dry-run', 'check everything and show what would be sent; send nothing')
      .action((amount: string, currency: string, address: string, flags: PayoutFlags) => {
        parsePayoutFlags(flags);
        return runF({
          io: f.io,
          gateway: () => f.gateway(),
          sender: new OneShotSender(),
          clock: f.clock,
          amount,
          currency: parseSymbol(currency, '<currency>'),
          address,
          flags,
          sandbox: f.globals.sandbox === true,
          releaseDeadline: () => f.releaseDeadline(),
        });
      })
      .addCommand(status),
    {
      examples: [
        'gw payout 12.5 USDT TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe --network "Tron Network"',
        'gw payout 0.001 BTC bc1q… --dry-run',
        'gw payout 12.5 USDT T… --network tron --reference inv-1042 --yes --json',
      ],
      json: '{"sent": true, "trackId": "258298451", "status": "processing", "amount": "12.5", "currency": "USDT", "network": "Tron Network", "address": "T…", "memo": null, "fee": "1", "balance": {"checked": true, "amount": "1520.75"}, "reference": "gw-po-…", "description": "gw-po-…"}',
      notes:
        'Exit codes: 0 sent (or --dry-run, or a payout with --reference already exists); 1 not confirmed (n, Enter); 130 Ctrl-C; 64 bad input, a test-network address without --sandbox, or no terminal without --yes; 65 below the minimum, over the balance, not in the gateway list; 69/75/76 the request failed: see "payout" in the JSON error ("unknown": it MAY HAVE BEEN MADE, find it before anything else).',
    },
  );
}

function parsePayoutFlags(flags: PayoutFlags): void {
  if (flags.network !== undefined) flags.network = parseText(flags.network, '--network', 60);
  if (flags.memo !== undefined) flags.memo = parseText(flags.memo, '--memo', 120);
  if (flags.description !== undefined) flags.description = parseText(flags.description, '--description', 200);
  if (flags.callbackUrl !== undefined) parseHttpUrl(flags.callbackUrl, '--callback-url', { credentials: 'allowed' });
  if (flags.reference !== undefined) flags.reference = parseReference(flags.reference);
}

export async function payoutRun(opts: PayoutOptions): Promise<void> {
  const reference = opts.flags.reference ?? generatePayoutReference(opts.clock.now(), mathRandom);
  try {
    await sendPayout(opts, reference);
  } catch (error) {
    throw failedBeforeSending(error, opts.sender, reference);
  }
}

async function sendPayout(opts: PayoutOptions, reference: string): Promise<void> {
  const { flags } = opts;
  const draft = draftPayout(opts, reference, {
    amount: opts.amount,
    currency: opts.currency,
    address: opts.address,
    ...(flags.network !== undefined && { network: flags.network }),
  });
  requireConfirmable(opts.io, { yes: flags.yes === true, dryRun: flags.dryRun === true, noun: 'payout' });
  const retryHead = [
    'gw payout',
    draft.amount.toString(),
    draft.currency,
    shellQuote(draft.address),
    '--network',
    shellQuote(draft.networkText),
    ...(draft.memo === undefined ? [] : ['--memo', shellQuote(draft.memo)]),
  ];
  await sendDraft(opts, await opts.gateway(), draft, { noun: 'payout', retryHead });
}

// ---------------------------------------------------------------------------------------------
// gw payout status

/** The exit a payout's state means: confirmed 0; canceled/rejected 12; anything else still open (8). */
export function payoutStateFailure(state: PayoutState, trackId: string): GwError | undefined {
  if (state === 'confirmed') return undefined;
  if (state === 'canceled' || state === 'rejected') return new GwError(ExitCode.FAILED, `payout ${trackId} was ${state}: nothing was sent`);
  return new GwError(ExitCode.STILL_OPEN, `payout ${trackId} is ${state === 'unknown' ? 'in a state gw does not know' : state}: not final yet`, {
    hint: `follow it: gw payout status ${trackId} --wait`,
  });
}

/** The payout asked about, or a protocol failure: an answer about another payout says nothing of this one. */
async function lookUp(gateway: GatewayClient, trackId: string): Promise<Payout> {
  const payout = await gateway.perform(PAYOUT_INFO, { trackId });
  const answered = payout.trackId.raw().trim();
  if (answered !== trackId) {
    throw new GwError(ExitCode.PROTOCOL, `the gateway answered about payout ${payout.trackId.line(30)} when asked about ${trackId}: its state is unknown`);
  }
  return payout;
}

export async function payoutStatusRun(opts: PayoutStatusOptions): Promise<void> {
  const { io, clock } = opts;
  const gateway = await opts.gateway();
  let payout = await lookUp(gateway, opts.trackId);
  if (opts.wait) {
    opts.releaseDeadline();
    const started = clock.now();
    let last: PayoutState | undefined;
    while (!isFinalPayout(payout.status)) {
      if (payout.status !== last && !io.json) io.notice(`payout ${opts.trackId}: ${payout.status}`);
      last = payout.status;
      if (opts.waitTimeoutMs !== undefined && clock.now() - started >= opts.waitTimeoutMs) {
        if (io.json) io.printJson(payoutJson(payout));
        throw new GwError(ExitCode.WAIT_ENDED, `payout ${opts.trackId} is still ${payout.status} after the --wait-timeout`);
      }
      await clock.sleep(opts.intervalMs ?? PAYOUT_POLL_MS, opts.signal);
      payout = await lookUp(gateway, opts.trackId);
    }
  }
  if (io.json) io.printJson(payoutJson(payout));
  else printPayout(io, payout);
  const failure = payoutStateFailure(payout.status, opts.trackId);
  if (failure !== undefined) throw failure;
}
