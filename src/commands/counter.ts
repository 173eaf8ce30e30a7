// gw counter: a till for the whole day on the terminal's alternate screen. The amount prompt, each
// payment on the counter screen until its final state, the next customer; q or Ctrl-C at the
// prompt ends the day with its summary on the normal screen. The till itself is
// src/cmdutil/till-session.ts (its pure parts till.ts; its screens src/views/till-view.ts); this
// module reads the options, settles the day's currency, coin and network (flags, else the
// counterCurrency, counterPayCurrency and counterNetwork settings), and owns the terminal.
import { Command } from 'commander';
import { parseSymbol, parseText } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { randomOrderId } from '../cmdutil/order-id.js';
import { buildPaymentRequest } from '../cmdutil/payment-request.js';
import type { PreparedReceipt, ReceiptRequest } from '../cmdutil/receipts.js';
import { summarize, type TillDefaults } from '../cmdutil/till.js';
import type { TillOptions } from '../cmdutil/till-session.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { isFiat } from '../domain/payment-rules.js';
import { UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import type { KeySource } from '../output/keys.js';
import type { Clock } from '../util/clock.js';
import { summaryText } from '../views/till-view.js';

export interface CounterFlags {
  currency?: string;
  payCurrency?: string;
  network?: string;
  receipts?: string;
  receiptWidth?: string;
  receiptUnicode?: boolean;
  lifeTime?: string;
  callbackUrl?: string;
}

export interface CounterOptions {
  io: IOStreams;
  clock: Clock;
  gateway: () => Promise<GatewayClient>;
  config: () => Promise<ResolvedConfig>;
  flags: CounterFlags;
  /** SIGTERM, or SIGINT from outside the terminal: the day ends with its summary. */
  signal: AbortSignal;
  /** The till runs until the day ends: the command's deadline is lifted. */
  releaseDeadline: () => void;
  newOrderId: () => string;
  /** The terminal's keys (tests give theirs); default: IOStreams.readKeys. */
  keys?: KeySource;
  /** Resizes of the terminal (tests give theirs); default: IOStreams.onResize. */
  resize?: TillOptions['onResize'];
  observe?: TillOptions['observe'];
  policy?: TillOptions['policy'];
}

export function newCmdCounter(f: Factory, runF: (opts: CounterOptions) => Promise<void> = counterRun): Command {
  const command = new Command('counter')
    .option('--currency <sym>', 'currency amounts are typed in, fiat or a coin (default: config counterCurrency)')
    .option('--pay-currency <sym>', 'coin customers pay in (default: config counterPayCurrency, else --currency)')
    .option('--network <name>', 'network for that coin, e.g. "Tron Network" (default: config counterNetwork)')
    .option('--receipts <dir>', 'write a receipt for each payment that ends into this folder (one file per payment, never overwritten)')
    .option('--receipt-width <columns>', 'receipt width: 32 (58 mm paper), 42 or 48 (80 mm) (default: config receiptWidth, else 42)')
    .option('--receipt-unicode', 'keep non-ASCII characters on receipts (default: ASCII only)')
    .option('--life-time <minutes>', 'minutes until each payment expires (gateway default when omitted)')
    .option('--callback-url <url>', 'URL the gateway notifies on status changes of each payment')
    .action((flags: CounterFlags) => {
      if (f.globals.json === true)
        throw new UsageError('gw counter is a screen for people and has no --json output', 'for a script: gw pay … --json, gw payments --json');
      if (f.globals.verbose === true)
        throw new UsageError(
          'gw counter draws the whole screen: --verbose request lines would break it',
          'to see the requests of one payment: gw pay … --wait --verbose',
        );
      if (flags.receipts === undefined && (flags.receiptWidth !== undefined || flags.receiptUnicode === true))
        throw new UsageError('--receipt-width and --receipt-unicode go with --receipts <dir>');
      return runF({
        io: f.io,
        clock: f.clock,
        gateway: () => f.gateway(),
        config: () => f.config(),
        flags,
        signal: f.signal,
        releaseDeadline: () => f.releaseDeadline(),
        // No secret: only different from other orders of the same second (as gw pay's).
        newOrderId: () => randomOrderId(f.clock.now()),
      });
    });
  return withHelp(command, {
    examples: [
      'gw counter --sandbox',
      'gw counter --currency EUR --pay-currency USDT --network "Tron Network"',
      'gw counter --receipts ~/receipts --receipt-width 32',
    ],
    notes: `At the prompt: type the amount and Enter to charge; c changes the coin for one sale; o gives the sale an order id; r shows the last payments; Esc clears; q or Ctrl-C ends the day (exit 0) and prints its summary. While a payment is shown: Esc or Ctrl-C goes back to the prompt (the payment stays open). A final state stays until Enter or counterHoldSeconds (default 10).
Needs a terminal (stdin and stdout): otherwise exit 64.`,
  });
}

/** The day's currency, coin and network: flags, else the settings; the sandbox needs none. */
export function tillDefaults(flags: CounterFlags, config: ResolvedConfig, sandbox: boolean): TillDefaults {
  const currency = flags.currency !== undefined ? parseSymbol(flags.currency, '--currency') : (config.counterCurrency?.value ?? (sandbox ? 'USDT' : undefined));
  if (currency === undefined) {
    throw new UsageError(
      'gw counter needs the currency amounts are typed in',
      'give --currency USD (or a coin), or set it once: gw config set counterCurrency USD',
    );
  }
  const fromConfig = flags.payCurrency === undefined ? config.counterPayCurrency?.value : undefined;
  const payCurrency = flags.payCurrency !== undefined ? parseSymbol(flags.payCurrency, '--pay-currency') : (fromConfig ?? currency);
  if (isFiat(payCurrency)) {
    throw new UsageError(
      `${payCurrency} is not a coin a customer can send: name one`,
      `give --pay-currency USDT, or set it once: gw config set counterPayCurrency USDT`,
    );
  }
  // The configured network goes with the configured coin only.
  const configuredCoin = config.counterPayCurrency?.value ?? config.counterCurrency?.value;
  const network =
    flags.network !== undefined ? parseText(flags.network, '--network', 60) : payCurrency === configuredCoin ? config.counterNetwork?.value : undefined;
  // The same checks as every sale's request (a coin's decimals, the lifetime, the callback URL).
  return { currency, payCurrency, ...(network !== undefined && { network }) };
}

/** How long the end of the day waits for the open payments' states (refreshOpenSales). */
const REFRESH_MS = 5000;

export async function counterRun(opts: CounterOptions): Promise<void> {
  const { io, flags } = opts;
  if (!io.stdinIsTTY || !io.stdoutIsTTY) {
    throw new UsageError(
      `gw counter needs a terminal: ${io.stdinIsTTY ? 'stdout' : 'stdin'} is not one`,
      'run it in a terminal window; from a script, take one payment with gw pay … --wait',
    );
  }
  if (!io.canRedraw())
    throw new UsageError('gw counter needs a terminal that can redraw its screen (TERM=dumb cannot)', 'set TERM to your terminal, e.g. TERM=xterm-256color');
  const config = await opts.config();
  const defaults = tillDefaults(flags, config, io.sandbox);
  const extra = {
    ...(flags.lifeTime !== undefined && { lifeTime: flags.lifeTime }),
    ...(flags.callbackUrl !== undefined && { callbackUrl: flags.callbackUrl }),
  };
  // Everything a sale's request is checked for, once, before the screen changes.
  buildPaymentRequest('1', defaults.currency, {
    ...extra,
    payCurrency: defaults.payCurrency,
    ...(defaults.network !== undefined && { network: defaults.network }),
  });
  let receipts: PreparedReceipt | undefined;
  if (flags.receipts !== undefined) {
    const { parseReceiptWidth, prepareReceipt } = await import('../cmdutil/receipts.js');
    if (flags.receipts.trim() === '') throw new UsageError('--receipts must name a folder');
    const request: ReceiptRequest = {
      target: { kind: 'dir', path: flags.receipts, flag: '--receipts' },
      width: flags.receiptWidth === undefined ? undefined : parseReceiptWidth(flags.receiptWidth),
      unicode: flags.receiptUnicode === true,
      config: opts.config,
    };
    receipts = await prepareReceipt(request);
  }
  const gateway = await opts.gateway();
  const { refreshOpenSales, runTill } = await import('../cmdutil/till-session.js');
  opts.releaseDeadline();

  io.enterAltScreen();
  let result: Awaited<ReturnType<typeof runTill>>;
  try {
    result = await runTill({
      io,
      clock: opts.clock,
      gateway,
      keys: opts.keys ?? ((onKey) => io.readKeys(onKey)),
      onResize: opts.resize ?? ((listener) => io.onResize(listener)),
      defaults,
      holdMs: config.counterHoldSeconds.value * 1000,
      newOrderId: opts.newOrderId,
      request: extra,
      ...(receipts !== undefined && { receipts }),
      signal: opts.signal,
      ...(opts.observe !== undefined && { observe: opts.observe }),
      ...(opts.policy !== undefined && { policy: opts.policy }),
    });
  } finally {
    io.leaveAltScreen();
  }
  // The payments the merchant stopped showing may have been paid since: the summary says how they stand now.
  if (result.stopped === undefined) await refreshOpenSales(result.ledger, gateway, REFRESH_MS, opts.signal);
  io.out(summaryText(summarize(result.ledger, io.sandbox), io.chalk, io.sandbox));
  if (result.stopped !== undefined) throw result.stopped.with({ message: `${result.stopped.message}: the day ended (its summary is above)` });
}
