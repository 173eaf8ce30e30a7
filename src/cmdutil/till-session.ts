// gw counter's till, run: keys in, payments created and followed, screens drawn, until the day
// ends. The prompt's keys and the ledger are till.ts (pure); the screens are
// src/views/till-view.ts around the counter screen that gw pay shows (src/views/pay-view.ts).
//
// A sale: the amount and Enter build the same payment request as gw pay (order id generated once
// per sale, or the one given), create it, show it on the counter screen and follow it with the
// same wait (src/cmdutil/follow.ts, wait.ts: backoff, rate limits, a lost gateway kept polling)
// until its final state, which stays until Enter or the hold time; then the next prompt.
// A creation that failed after the request may have reached the gateway (ambiguousFailure) is
// never sent again blindly: the order id is looked up first (retrying while the gateway is away);
// a payment found is shown and followed, none found goes back to the prompt where Enter creates
// the sale again under the same order id. The customer is never charged twice.
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient, Payment, PaymentInfo, PaymentRequest } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import type { Key, KeySource } from '../output/keys.js';
import { CLEAR_LINE } from '../output/screen.js';
import { FRAME_MS, SHOW_AFTER_MS, SPINNER_FRAMES } from '../output/spinner.js';
import { parseTimestamp } from '../output/time.js';
import type { PaymentUri } from '../payment-uri/index.js';
import type { Clock } from '../util/clock.js';
import { busyScreen, holdLine, promptScreen, recentScreen } from '../views/till-view.js';
import { type PayView, printPayment, showEnding } from '../views/pay-view.js';
import { expectedOfPayment, paymentUriOf, unpayableReason } from './created-payment.js';
import { paymentFromInfo, paymentsOfOrder } from './existing-payment.js';
import { followPayment } from './follow.js';
import { ambiguousFailure, buildPaymentRequest, type PaymentRequestFlags } from './payment-request.js';
import type { PreparedReceipt } from './receipts.js';
import {
  amountLimit,
  EMPTY_PROMPT,
  followCommand,
  isOpen,
  orderPayment,
  promptKey,
  type PromptState,
  refusedPrompt,
  type Sale,
  saleCoin,
  type TillDefaults,
  TillLedger,
} from './till.js';
import { EventQueue, type TillEvent } from './till-events.js';
import { failureKind, type WaitEnding, WAIT_POLICY, type WaitPolicy, type WaitProgress } from './wait.js';

/** Where the till is, for a test (or a log) to follow. */
export type TillPhase = 'prompt' | 'recent' | 'creating' | 'lookup' | 'showing' | 'final';

export interface TillOptions {
  io: IOStreams;
  clock: Clock;
  gateway: GatewayClient;
  /** The terminal's keys. */
  keys: KeySource;
  /** Calls the listener when the terminal is resized; returns the function that stops it. */
  onResize?: (listener: () => void) => () => void;
  defaults: TillDefaults;
  /** How long a final state stays before the next prompt (ms). */
  holdMs: number;
  /** A new order id for a sale that has none. */
  newOrderId: () => string;
  /** What every payment request carries besides the sale's terms (gw counter's flags). */
  request?: Omit<PaymentRequestFlags, 'payCurrency' | 'network' | 'orderId'>;
  /** Receipts: where they go, and how they are laid out (prepareReceipt: checked before the day starts). */
  receipts?: PreparedReceipt;
  /** The command's signal (SIGTERM, SIGINT from outside the terminal): the day ends at once. */
  signal: AbortSignal;
  policy?: Partial<WaitPolicy>;
  /** Told of each phase entered, with the sale it concerns. */
  observe?: (phase: TillPhase, sale?: Sale) => void;
}

export interface TillResult {
  ledger: TillLedger;
  /** Set when the day ended by a signal rather than by q or Ctrl-C at the prompt. */
  stopped?: GwError;
}

const cancelKey = (event: TillEvent): boolean =>
  event.name === 'escape' || event.name === 'ctrl-c' || (event.name === 'char' && (event.ch === 'x' || event.ch === 'X'));

export const SHOWING_KEYS = 'Esc or Ctrl-C: back to the prompt (the payment stays open)';
/** The counter screen's way out when no QR fits, besides a larger window or the locale's fix: none (gw counter has no --qr-out). */
export const TILL_QR_WAY_OUT = null;

export async function runTill(options: TillOptions): Promise<TillResult> {
  return new Till(options).run();
}

/** The most open sales looked up again when the day ends. */
const REFRESH_MAX = 20;

/**
 * When the day ends: each sale still open with a track id (the merchant stopped showing it) looked
 * up once, so the summary says how it stands now (a customer who paid after the screen was left is
 * not listed as still open). Within `withinMs` in all, and never past `signal`; a look-up that
 * fails or comes later leaves the sale as it was, still open with its command.
 */
export async function refreshOpenSales(ledger: TillLedger, gateway: GatewayClient, withinMs: number, signal: AbortSignal): Promise<void> {
  const open = ledger.sales.filter((sale) => isOpen(sale) && sale.trackId !== undefined).slice(-REFRESH_MAX);
  if (open.length === 0 || signal.aborted) return;
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopListening = new AbortController();
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, withinMs);
    signal.addEventListener('abort', () => resolve(), { once: true, signal: stopListening.signal });
  });
  const lookups = Promise.allSettled(
    open.map(async (sale) => {
      const info = await gateway.paymentInfo(sale.trackId as string);
      if (!done) Object.assign(sale, { info, state: info.status });
    }),
  );
  try {
    await Promise.race([lookups, late]);
  } finally {
    done = true;
    clearTimeout(timer);
    stopListening.abort();
  }
}

class Till {
  readonly #o: TillOptions;
  readonly #ledger = new TillLedger();
  readonly #queue = new EventQueue();
  readonly #policy: WaitPolicy;
  /** What a resize redraws. */
  #redraw: () => void = () => undefined;

  constructor(options: TillOptions) {
    this.#o = options;
    this.#policy = { ...WAIT_POLICY, ...options.policy };
  }

  get #io(): IOStreams {
    return this.#o.io;
  }

  async run(): Promise<TillResult> {
    const stopKeys = this.#o.keys((key) => this.#queue.push(key));
    const stopResize = this.#o.onResize?.(() => this.#queue.push({ name: 'resize' }));
    try {
      let prompt: PromptState = EMPTY_PROMPT;
      for (;;) {
        this.#drawPrompt(prompt);
        const event = await this.#queue.next(this.#o.signal);
        if (event.name === 'resize') {
          this.#io.clearScreen();
          continue;
        }
        const { state, action } = promptKey(prompt, event, amountLimit(this.#o.defaults));
        prompt = state;
        if (action === 'end-day') return { ledger: this.#ledger };
        if (action === 'create') {
          prompt = await this.#sale(prompt);
          this.#io.clearScreen();
        }
      }
    } catch (error) {
      // Whatever ends the day, its summary is printed: a failure no sale could handle ends it with
      // that failure (and its exit code) after the summary, never without one.
      if (!this.#o.signal.aborted) {
        if (error instanceof GwError) return { ledger: this.#ledger, stopped: error };
        throw error;
      }
      const reason = this.#o.signal.reason;
      return { ledger: this.#ledger, stopped: reason instanceof GwError ? reason : new GwError(ExitCode.INTERRUPTED, 'interrupted') };
    } finally {
      stopKeys();
      stopResize?.();
    }
  }

  #observe(phase: TillPhase, sale?: Sale): void {
    this.#o.observe?.(phase, sale);
  }

  #screenInput() {
    return { width: this.#io.width(), height: this.#io.height(), chalk: this.#io.chalk, sandbox: this.#io.sandbox };
  }

  /** A new phase: a cleared screen, then `draw` (again on every resize). */
  #phase(draw: () => void): void {
    this.#redraw = draw;
    this.#io.clearScreen();
    draw();
  }

  #drawPrompt(prompt: PromptState): void {
    if (prompt.recent === true) {
      this.#observe('recent');
      this.#io.drawScreen(recentScreen({ ...this.#screenInput(), sales: this.#ledger.recent(this.#io.height()) }), { clear: true });
      return;
    }
    this.#observe('prompt');
    const sales = this.#ledger.sales;
    this.#io.drawScreen(promptScreen({ ...this.#screenInput(), prompt, defaults: this.#o.defaults, sales: sales.length, open: sales.filter(isOpen).length }), {
      clear: true,
    });
  }

  /**
   * The busy screen while `work` runs (creating, looking up), its line `live` turning with a
   * spinner once the wait is noticeable: a sign of life up to the deadline. In real time, as the
   * person at the till sees it (whatever the till's clock), and gone with the screen when it ends.
   */
  async #busyWhile<T>(
    what: string,
    lines: readonly string[],
    live: number,
    work: () => Promise<T>,
    keys?: ReadonlyArray<readonly [string, string]>,
  ): Promise<T> {
    let frame = -1;
    const draw = (clear: boolean): void => {
      const shown = frame < 0 ? lines : lines.map((line, i) => (i === live ? `${SPINNER_FRAMES[frame % SPINNER_FRAMES.length]} ${line}` : line));
      this.#io.drawScreen(busyScreen({ ...this.#screenInput(), what, lines: shown, ...(keys && { keys }) }), { clear });
    };
    this.#phase(() => draw(true));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = (): void => {
      frame++;
      draw(false);
      timer = setTimeout(tick, FRAME_MS);
      timer.unref?.();
    };
    timer = setTimeout(tick, SHOW_AFTER_MS);
    timer.unref?.();
    try {
      return await work();
    } finally {
      clearTimeout(timer);
      // No frame left standing still (a look-up waits before it is tried again).
      if (frame >= 0 && !this.#o.signal.aborted) {
        frame = -1;
        draw(false);
      }
    }
  }

  /** The next key within `ms`, or undefined; resizes redraw the phase on the way. */
  async #keyWithin(ms: number): Promise<Key | undefined> {
    const until = this.#o.clock.now() + ms;
    for (;;) {
      const event = await this.#queue.nextWithin(until - this.#o.clock.now(), this.#o.clock, this.#o.signal);
      if (event === undefined || event.name !== 'resize') return event;
      this.#io.clearScreen();
      this.#redraw();
    }
  }

  /** A sale whose creation was not confirmed: it may exist. */
  #unconfirmed(request: PaymentRequest): Sale {
    return {
      orderId: request.orderId ?? '',
      amount: request.amount,
      currency: request.currency,
      payCurrency: request.payCurrency,
      network: request.network,
      at: this.#o.clock.now(),
      state: 'not-confirmed',
    };
  }

  /** One sale, from Enter at the prompt to the next prompt. */
  async #sale(prompt: PromptState): Promise<PromptState> {
    const o = this.#o;
    const retry = prompt.retry;
    const amountText = retry?.amount ?? prompt.amount;
    const coin = saleCoin(prompt, o.defaults);
    const orderId = retry?.orderId ?? prompt.orderId ?? o.newOrderId();
    const generated = retry?.generated ?? prompt.orderId === undefined;
    let request: PaymentRequest;
    try {
      request = buildPaymentRequest(amountText, o.defaults.currency, {
        ...o.request,
        payCurrency: coin.payCurrency,
        ...(coin.network !== undefined && { network: coin.network }),
        orderId,
      });
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return refusedPrompt(prompt, error.message.replace(/^<amount>/, 'the amount').replace(/^--order-id/, 'the order id'));
    }
    if (o.receipts !== undefined) {
      try {
        const { checkReceiptTarget } = await import('./receipts.js');
        await checkReceiptTarget(o.receipts.target);
      } catch (error) {
        if (!(error instanceof GwError)) throw error;
        return { ...prompt, message: { text: error.message, tone: 'error' } };
      }
    }
    const terms = `${request.amount} ${request.currency} in ${request.payCurrency}${request.network === undefined ? '' : ` on ${request.network}`}`;
    this.#observe('creating');
    let payment: Payment;
    try {
      payment = await this.#busyWhile('creating the payment', [`Creating the payment of ${terms}…`, `Order id: ${orderId}`], 0, () =>
        o.gateway.createPayment(request),
      );
    } catch (error) {
      if (!(error instanceof GwError)) throw error;
      const judged = ambiguousFailure(error, request, this.#io.sandbox);
      if (o.signal.aborted) {
        // Stopped mid-request: the sale may exist, and the summary lists it with the command that finds it.
        if (judged.payment === 'unknown') this.#ledger.ring(this.#unconfirmed(request));
        throw error;
      }
      if (judged.payment === 'unknown') return this.#lookup(prompt, request, error, generated);
      // Refused: nothing was created; the sale stays at the prompt to be corrected.
      return { ...prompt, message: { text: `Not created: ${error.message}${error.hint === undefined ? '' : ` (${error.hint})`}`, tone: 'error' } };
    }
    const sale = this.#ledger.ring({
      orderId,
      trackId: payment.trackId.raw(),
      amount: request.amount,
      currency: request.currency,
      payCurrency: request.payCurrency,
      network: request.network,
      at: o.clock.now(),
      state: 'new',
    });
    return this.#show(sale, payment, { generated });
  }

  /**
   * After an ambiguous failure: the order's payments, looked up until the gateway answers (Esc
   * gives up). One found is shown and followed; none found goes back to the prompt, where Enter
   * creates the sale again under the same order id.
   */
  async #lookup(prompt: PromptState, request: PaymentRequest, failure: GwError, generated: boolean): Promise<PromptState> {
    const o = this.#o;
    const orderId = request.orderId ?? '';
    const sale = this.#ledger.ring(this.#unconfirmed(request));
    const giveUp = (): PromptState => ({
      amount: '',
      message: {
        text: `Order ${orderId} may have been created: it is listed as not confirmed at the end of the day. Look for it before charging this customer again:`,
        tone: 'error',
        command: followCommand(sale, this.#io.sandbox),
      },
    });
    const said = [
      `The gateway did not confirm the payment of ${request.amount} ${request.currency}: ${failure.message}.`,
      `It may have been created. Looking for order ${orderId} before anything else is created for this sale: the customer is never charged twice.`,
      '',
    ];
    const keys = [['Esc', 'give up looking (the sale is listed as not confirmed)']] as const;
    let delay = this.#policy.retryMs;
    let problem: string | undefined;
    for (;;) {
      this.#observe('lookup', sale);
      const looking = [...said, problem === undefined ? 'Looking…' : `Looking again (the last look-up failed: ${problem})…`];
      try {
        const found = await this.#busyWhile('looking for the payment', looking, looking.length - 1, () => paymentsOfOrder(o.gateway, orderId), keys);
        if (found.incomplete !== undefined) throw new GwError(ExitCode.PROTOCOL, `the gateway's list of payments was incomplete: ${found.incomplete}`);
        const match = orderPayment(found.payments, request);
        if (match.kind === 'none') {
          return {
            amount: '',
            retry: { orderId, amount: prompt.retry?.amount ?? prompt.amount, generated, ...(saleOverride(prompt) && { coin: saleOverride(prompt) }) },
            message: { text: `The gateway has no payment for order ${orderId}: it was not created.`, tone: 'info' },
          };
        }
        const newest = match.info;
        if (match.kind === 'other-terms') {
          return {
            amount: '',
            message: {
              text: `Order ${orderId} already has payment ${newest.trackId.line(100)} for ${newest.amount ?? '?'} ${newest.currency?.line(20) ?? ''}, not ${request.amount} ${request.currency}: nothing more was created. Use another order id.`,
              tone: 'error',
            },
          };
        }
        this.#ledger.update(orderId, { trackId: newest.trackId.raw(), state: newest.status, info: newest });
        const note = `Found by its order id: created before; nothing new was created.`;
        return this.#show(sale, paymentFromInfo(newest), { generated, initial: newest, note });
      } catch (error) {
        if (!(error instanceof GwError) || o.signal.aborted) throw error;
        if (failureKind(error) === 'fatal') return giveUp();
        problem = error.message;
      }
      const key = await this.#keyWithin(delay);
      if (key !== undefined && (key.name === 'escape' || key.name === 'ctrl-c')) return giveUp();
      delay = Math.min(delay * 2, this.#policy.maxRetryMs);
    }
  }

  /** The payment on the counter screen, followed to its end (or until the merchant stops showing it). */
  async #show(sale: Sale, payment: Payment, how: { generated: boolean; initial?: PaymentInfo; note?: string }): Promise<PromptState> {
    const o = this.#o;
    const io = this.#io;
    const trackId = payment.trackId.raw();
    const follow = followCommand(sale, io.sandbox);
    const notPayable = (why: string): PromptState => ({
      amount: '',
      message: { text: `Payment ${trackId} was created, but ${why}: do not take payment for it. Check it:`, tone: 'error', command: follow },
    });
    const unpayable = unpayableReason(payment);
    if (unpayable !== undefined && how.initial === undefined) return notPayable(unpayable);
    let uri: PaymentUri;
    try {
      uri = await paymentUriOf(payment);
    } catch (error) {
      if (!(error instanceof GwError)) throw error;
      return notPayable(error.message);
    }
    const view: PayView = {
      io,
      clock: o.clock,
      qr: 'auto',
      qrOut: undefined,
      qrWayOut: TILL_QR_WAY_OUT,
      orderIdGenerated: how.generated,
      clear: true,
      redraw: true,
    };
    const notes = [...(how.note === undefined ? [] : [how.note]), SHOWING_KEYS];
    this.#observe('showing', sale);
    const draw = await printPayment(view, payment, uri, notes, how.initial !== undefined, true);
    if (draw === undefined) throw new GwError(ExitCode.SOFTWARE, 'the counter screen cannot be drawn on this terminal');
    let line = '… Checking the payment';
    this.#redraw = () => draw(line);

    const stop = new AbortController();
    const signal = AbortSignal.any([o.signal, stop.signal]);
    const watcher = (async () => {
      for (;;) {
        const event = await this.#queue.next(signal);
        if (event.name === 'resize') {
          io.clearScreen();
          draw(line);
        } else if (cancelKey(event)) {
          stop.abort(new GwError(ExitCode.INTERRUPTED, 'stopped showing'));
          return;
        }
      }
    })().catch(() => undefined);
    const expiresAt = parseTimestamp(payment.expiredAt)?.getTime();
    const created = parseTimestamp(payment.createdAt)?.getTime();
    let ending: WaitEnding;
    try {
      ending = await followPayment({
        io,
        clock: o.clock,
        signal,
        gateway: o.gateway,
        trackId,
        ...(how.initial !== undefined && { initial: how.initial }),
        ...(expiresAt !== undefined && { expiresAt }),
        ...(created !== undefined && { createdAt: created }),
        ...(o.policy !== undefined && { policy: o.policy }),
        expected: expectedOfPayment(payment),
        screen: (statusLine, progress) => {
          line = liveWords(statusLine, progress);
          draw(line);
        },
      });
    } catch (error) {
      // One payment that cannot be followed (the gateway refuses its look-up: a key revoked, a
      // gateway that lost it) ends neither the day nor the sale: back to the prompt, the sale
      // listed as it last stood, with the command that checks it.
      if (!(error instanceof GwError) || o.signal.aborted) throw error;
      return {
        amount: '',
        message: {
          text: `Payment ${trackId} could not be followed: ${error.message}. It stays listed as ${sale.state} at the end of the day. Check it:`,
          tone: 'error',
          command: follow,
        },
      };
    } finally {
      stop.abort();
      await watcher;
    }
    if (o.signal.aborted) throw o.signal.reason;
    const info = ending.info;
    if (info !== undefined) this.#ledger.update(sale.orderId, { info, state: info.status });
    if (ending.kind === 'interrupted') {
      return {
        amount: '',
        message: {
          text: `Payment ${trackId} is still ${info?.status ?? 'open'}: it is listed at the end of the day. Follow it:`,
          tone: 'info',
          command: follow,
        },
      };
    }
    let receipt: string | undefined;
    if (ending.kind === 'final' && o.receipts !== undefined) receipt = await this.#receipt(sale, ending.info);
    // The final state, until Enter or the hold time.
    this.#observe('final', sale);
    const showFinal = (): void => {
      showEnding(view, payment, uri, ending, draw, how.initial !== undefined);
    };
    showFinal();
    this.#redraw = () => {
      io.clearScreen();
      showFinal();
    };
    // A digit typed during the hold starts the next customer's amount.
    const amount = await this.#hold();
    const state = sale.state;
    const last = `Last sale: ${trackId}, ${request(sale)}, ${state}.`;
    if (receipt !== undefined) return { amount, message: { text: `${last} ${receipt}`, tone: sale.receiptProblem === undefined ? 'info' : 'error' } };
    return { amount, message: isOpen(sale) ? { text: `${last} Follow it:`, tone: 'info', command: follow } : { text: last, tone: 'info' } };
  }

  /** Writes the sale's receipt; the words for the prompt. */
  async #receipt(sale: Sale, info: PaymentInfo): Promise<string> {
    const receipts = this.#o.receipts;
    if (receipts === undefined) return '';
    const { writeReceipt } = await import('./receipts.js');
    try {
      const file = await writeReceipt(receipts.target, info, { ...receipts.options, now: this.#o.clock.now(), sandbox: this.#io.sandbox });
      this.#ledger.update(sale.orderId, { receipt: file });
      return `Receipt: ${file}`;
    } catch (error) {
      if (!(error instanceof GwError)) throw error;
      this.#ledger.update(sale.orderId, { receiptProblem: error.message });
      return `Receipt NOT written: ${error.message}`;
    }
  }

  /**
   * The final state stays until Enter (or Esc, Ctrl-C) or the hold time; the line under it counts
   * down. A digit ends it too and is the start of the next amount (returned).
   */
  async #hold(): Promise<string> {
    const until = this.#o.clock.now() + this.#o.holdMs;
    for (;;) {
      const left = until - this.#o.clock.now();
      if (left <= 0) return '';
      this.#io.out(`${CLEAR_LINE}${holdLine(Math.ceil(left / 1000), this.#io.chalk)}`);
      const key = await this.#keyWithin(Math.min(1000, left));
      if (key === undefined) continue;
      if (key.name === 'enter' || key.name === 'escape' || key.name === 'ctrl-c') return '';
      if (key.name === 'char' && /^[0-9]$/.test(key.ch)) return key.ch;
    }
  }
}

/** The sale's amount in words: "25 USD in USDT". */
function request(sale: Sale): string {
  return `${sale.amount} ${sale.currency} in ${sale.payCurrency}`;
}

function saleOverride(prompt: PromptState): PromptState['coin'] {
  return prompt.retry?.coin ?? prompt.coin;
}

/** The state line on the counter screen; a lost gateway said plainly (the payment is kept, checks go on). */
export function liveWords(statusLine: string, progress: WaitProgress): string {
  if (progress.problem === undefined) return statusLine;
  return `⚠ Gateway lost · payment kept · checking again: ${progress.problem}`;
}
