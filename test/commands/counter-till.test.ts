// gw counter in process: the till driven by scripted keystrokes (delivered when the till reaches
// a phase), against the embedded sandbox (its order-id endings choose each outcome) or a fake
// gateway (an ambiguous creation failure). A ManualClock drives the sandbox and the waits.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counterRun, type CounterOptions, tillDefaults } from '../../src/commands/counter.js';
import type { TillPhase } from '../../src/cmdutil/till-session.js';
import { createFactory } from '../../src/cmdutil/factory.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { ExitCode, GwError } from '../../src/errors.js';
import type { GatewayClient, Payment, PaymentInfo } from '../../src/gateway/gateway.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { LEAVE_ALT_SCREEN, parseKeys, type KeySource } from '../../src/output/keys.js';
import { ManualClock } from '../../src/util/clock.js';
import { emptyDir, runGw } from '../support/cli.js';
import { FakeGateway, paymentInfoOf, tronPayment } from '../support/fake-gateway.js';
import { VirtualTerminal } from '../support/terminal.js';

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);

/** Keys typed when the till reaches a phase: each step once, in order. */
class ScriptedKeys {
  readonly phases: TillPhase[] = [];
  #onKey: ((key: ReturnType<typeof parseKeys>[number]) => void) | undefined;
  #next = 0;

  constructor(private readonly steps: ReadonlyArray<readonly [TillPhase, string | (() => string)]>) {}

  readonly source: KeySource = (onKey) => {
    this.#onKey = onKey;
    return () => {
      this.#onKey = undefined;
    };
  };

  observe = (phase: TillPhase): void => {
    this.phases.push(phase);
    const step = this.steps[this.#next];
    if (step === undefined || step[0] !== phase) return;
    this.#next++;
    const keys = typeof step[1] === 'function' ? step[1]() : step[1];
    for (const key of parseKeys(keys)) this.#onKey?.(key);
  };

  get done(): boolean {
    return this.#next === this.steps.length;
  }
}

interface Run {
  exit: number;
  /** The normal screen after the day: what is written after leaving the alternate screen. */
  summary: string;
  stdout: string;
  keys: ScriptedKeys;
  clock: ManualClock;
}

async function run(
  steps: ReadonlyArray<readonly [TillPhase, string | (() => string)]>,
  options: {
    orderIds?: string[];
    gateway?: GatewayClient;
    env?: Record<string, string>;
    flags?: CounterOptions['flags'];
    /** The API spoken (to the sandbox, which serves both). */
    api?: 'legacy' | 'v1';
    /** The process's interrupt (Ctrl-C from outside the terminal, SIGTERM). */
    interrupt?: AbortSignal;
    /** Resizes the terminal: called with a function that does it and tells the till. */
    onIo?: (io: IOStreams, resize: () => void) => void;
  } = {},
): Promise<Run> {
  const home = emptyDir('gw-counter-');
  const t = IOStreams.test({ stdoutTTY: true, stderrTTY: true, stdinTTY: true, width: 80, height: 24, color: false, env: { HOME: home } });
  const clock = new ManualClock(T0);
  const f = createFactory({ io: t.io, env: { HOME: home }, cwd: home, home, interrupt: options.interrupt ?? new AbortController().signal, clock });
  f.applyGlobals({ sandbox: options.gateway === undefined, ...(options.api !== undefined && { api: options.api }) });
  const keys = new ScriptedKeys(steps);
  const resized: Array<() => void> = [];
  options.onIo?.(t.io, () => {
    for (const listener of resized) listener();
  });
  const ids = [...(options.orderIds ?? [])];
  let generated = 0;
  let exit = 0;
  try {
    await counterRun({
      io: t.io,
      clock,
      gateway: options.gateway === undefined ? () => f.gateway() : async () => options.gateway as GatewayClient,
      config: options.gateway === undefined ? () => f.config() : async () => resolveConfig({ flags: {}, env: options.env ?? {}, layers: [] }),
      flags: options.flags ?? {},
      signal: f.signal,
      releaseDeadline: () => f.releaseDeadline(),
      newOrderId: () => ids.shift() ?? `gw-20261125-090000-${String(++generated).padStart(4, '0')}`,
      keys: keys.source,
      resize: (listener) => {
        resized.push(listener);
        return () => resized.splice(resized.indexOf(listener), 1);
      },
      observe: keys.observe,
    });
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    exit = error.exitCode;
  } finally {
    await f.close();
  }
  const stdout = t.stdout();
  const at = stdout.lastIndexOf(LEAVE_ALT_SCREEN);
  return { exit, summary: at < 0 ? '' : stdout.slice(at + LEAVE_ALT_SCREEN.length), stdout, keys, clock };
}

const ENTER = '\r';
const ESC = '\u001b';
const CTRL_C = '\u0003';

describe('gw counter: a morning at the till (sandbox)', () => {
  it.each(['legacy', 'v1'] as const)(
    'api %s: four customers — paid, underpaid (-partial), expired, one not waited for — then q: exit 0 and the summary in exact numbers',
    async (api) => {
      const r = await run(
        [
          ['prompt', `25${ENTER}`],
          ['final', ENTER],
          ['prompt', `10${ENTER}`],
          ['final', ENTER],
          ['prompt', `5${ENTER}`],
          ['final', ENTER],
          ['prompt', `7,5${ENTER}`],
          ['showing', ESC],
          ['prompt', 'q'],
        ],
        { orderIds: ['sale-1', 'sale-2-partial', 'sale-3-expire', 'sale-4'], api },
      );
      expect(r.keys.done).toBe(true);
      expect(r.exit).toBe(0);
      // Each sale went prompt → creating → showing, three of them to a final state.
      expect(r.keys.phases.filter((p) => p === 'creating')).toHaveLength(4);
      expect(r.keys.phases.filter((p) => p === 'final')).toHaveLength(3);
      const s = r.summary;
      expect(s).toContain('4 sales');
      expect(s).toMatch(/^paid +1 +25 USDT$/m);
      expect(s).toMatch(/^underpaid +1 +10 USDT$/m);
      expect(s).toMatch(/^expired +1 +5 USDT$/m);
      expect(s).toMatch(/^(waiting|new) +1 +7\.5 USDT$/m);
      expect(s).toContain('Asked:   47.5 USDT (4)');
      // 25 paid in full, and 50 % + 40 % of 10 for the -partial sale: 34 USDT arrived.
      expect(s).toContain('Arrived: 34 USDT');
      expect(s).toMatch(/Still open \(1\):/);
      expect(s).toMatch(/gw status \d{9} --wait --sandbox/);
      // The day's screens were on the alternate screen; the summary is on the normal one.
      expect(r.stdout.startsWith('\u001b[?1049h')).toBe(true);
    },
  );

  it('the final state stays until the hold time when nobody presses Enter, counting down', async () => {
    const r = await run(
      [
        ['prompt', `3${ENTER}`],
        ['final', ''],
        ['prompt', 'q'],
      ],
      { orderIds: ['hold-1'] },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('the prompt comes back in 10 s');
    expect(r.stdout).toContain('the prompt comes back in 1 s');
    expect(r.summary).toMatch(/^paid +1 +3 USDT$/m);
  });

  it('a digit during the hold starts the next customer at once', async () => {
    const r = await run(
      [
        ['prompt', `3${ENTER}`],
        ['final', '4'],
        ['prompt', `2${ENTER}`],
        ['final', ENTER],
        ['prompt', 'q'],
      ],
      { orderIds: ['next-1', 'next-2'] },
    );
    expect(r.exit).toBe(0);
    expect(r.summary).toMatch(/^paid +2 +45 USDT$/m);
  });

  it('stopped from outside (SIGTERM, SIGINT) while a payment is shown: the summary, then 143 or 130', async () => {
    const stop = new AbortController();
    const r = await run(
      [
        ['prompt', `8${ENTER}`],
        [
          'showing',
          () => {
            stop.abort(new GwError(ExitCode.TERMINATED, 'terminated'));
            return '';
          },
        ],
      ],
      { orderIds: ['term-1'], interrupt: stop.signal },
    );
    expect(r.exit).toBe(143);
    expect(r.summary).toContain('1 sale');
    expect(r.summary).toMatch(/Still open \(1\)/);
  });

  it('c changes the coin for one sale only; o gives the sale an order id; r lists the last payments', async () => {
    const r = await run([
      ['prompt', `c${'btc'}${ENTER}${ENTER}o${'table-7-partial'}${ENTER}2${ENTER}`],
      ['final', ENTER],
      ['prompt', `r`],
      ['recent', 'x'],
      ['prompt', 'q'],
    ]);
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('paid in BTC (this sale only)');
    expect(r.stdout).toMatch(/Order ID +table-7-partial/);
    expect(r.stdout).toMatch(/Pay exactly 0\.\d+ BTC/);
    // After the sale the day's coin is back.
    const screens = r.stdout.split('\u001b[H\u001b[2J');
    expect(screens.at(-1)).toContain('paid in USDT');
    expect(r.stdout).toMatch(/Time +Track ID +Amount +Coin +State/);
    expect(r.summary).toMatch(/^underpaid +1 +2 USDT$/m);
  });

  it('Ctrl-C while a payment is shown goes back to the prompt; Ctrl-C at the prompt ends the day (exit 0)', async () => {
    const r = await run(
      [
        ['prompt', `4${ENTER}`],
        ['showing', CTRL_C],
        ['prompt', CTRL_C],
      ],
      { orderIds: ['ctrl-1'] },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toMatch(/Payment \d{9} is still \w+: it is listed at the end of the day/);
    // The command that follows it on a line of its own, whole.
    expect(r.stdout).toMatch(/(\n|\u001b\[2K) {2}gw status \d{9} --wait --sandbox\n/);
    expect(r.summary).toMatch(/Still open \(1\)/);
  });

  it('a payment left open (Esc) and paid before the day ends: the summary looks it up again and says paid, not still open', async () => {
    const S = Math.floor(T0 / 1000);
    let paid = false;
    const infoNow = (): PaymentInfo =>
      paymentInfoOf({
        status: paid ? 'Paid' : 'Waiting',
        amount: '25',
        currency: 'USDT',
        payAmount: '25',
        payCurrency: 'USDT',
        network: 'Tron Network',
        address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
        orderId: 'left-1',
        date: S,
        expiredAt: S + 3600,
        ...(paid && { txID: 'ab12', payDate: S + 60 }),
      });
    const gateway = new FakeGateway({ payment: tronPayment(T0), info: () => infoNow() });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['showing', ESC],
        [
          'prompt',
          () => {
            paid = true;
            return 'q';
          },
        ],
      ],
      { gateway, orderIds: ['left-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toMatch(/Payment \d+ is still \w+: it is listed at the end of the day/);
    expect(r.summary).toMatch(/^paid +1 +25 USDT$/m);
    expect(r.summary).not.toContain('Still open');
  });

  it('a payment whose look-up the gateway refuses (the sandbox restarted, a key revoked): back to the prompt, the day goes on, the sale listed open', async () => {
    const refused = new GwError(ExitCode.DATA, 'the gateway refused: Invalid trackId (result 116)');
    const gateway = new FakeGateway({ payment: tronPayment(T0), info: refused });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['showing', ''],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['gone-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toMatch(/Payment \d+ could not be followed: the gateway refused: Invalid trackId/);
    expect(r.summary).toContain('1 sale');
    expect(r.summary).toMatch(/Still open \(1\)/);
    expect(r.summary).toMatch(/gw status \d+ --wait/);
  });

  it('a resize while a payment is shown redraws it for the new size, on a cleared screen', async () => {
    let resize = (): void => undefined;
    let io: IOStreams | undefined;
    const r = await run(
      [
        ['prompt', `6${ENTER}`],
        [
          'showing',
          () => {
            io?.setSize(100, 30);
            resize();
            return ESC;
          },
        ],
        ['prompt', 'q'],
      ],
      {
        orderIds: ['resize-1'],
        onIo: (i, fire) => {
          io = i;
          resize = fire;
        },
      },
    );
    expect(r.exit).toBe(0);
    const shown = r.stdout.indexOf('Pay exactly 6 USDT');
    const after = r.stdout.slice(shown);
    const cleared = after.indexOf('\u001b[H\u001b[2J');
    expect(cleared).toBeGreaterThan(0);
    // Drawn again after the clear, at the new width: the side text starts further right than 80 columns allow.
    const next = after.indexOf('\u001b[H\u001b[2J', cleared + 1);
    const redrawn = new VirtualTerminal(100, 30).write(after.slice(cleared, next)).text();
    expect(redrawn).toContain('Pay exactly 6 USDT');
  });

  it('a window too small for the QR: the notice names a larger window, never --qr-out (gw counter has none); the key line whole', async () => {
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['showing', ESC],
        ['prompt', 'q'],
      ],
      { orderIds: ['small-1'], flags: { payCurrency: 'USDC' }, onIo: (io) => io.setSize(80, 22) },
    );
    expect(r.exit).toBe(0);
    const shown = r.stdout.indexOf('Pay exactly');
    expect(shown).toBeGreaterThan(0);
    const next = r.stdout.indexOf('\u001b[H\u001b[2J', shown);
    const screen = new VirtualTerminal(80, 22).write(r.stdout.slice(r.stdout.lastIndexOf('\u001b[H\u001b[2J', shown), next < 0 ? undefined : next)).text();
    const words = screen.replace(/\s+/g, ' ');
    expect(words).toContain('No QR code here');
    expect(words).toContain('Enlarge the window.');
    expect(words).not.toContain('--qr-out');
    expect(words).toContain('Esc or Ctrl-C: back to the prompt (the payment stays open)');
  });

  it('a bad amount stays at the prompt with one line, and nothing is created', async () => {
    // The prompt takes only what can become an amount; zero is refused at Enter.
    const r = await run([
      ['prompt', `0.0${ENTER}`],
      ['prompt', 'q'],
    ]);
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('the amount must be a plain positive decimal');
    expect(r.keys.phases).not.toContain('creating');
    expect(r.summary).toContain('No sales.');
  });

  it('after a refused amount the field starts again: "0.0", Enter, then "1.2.3" charges 1.23 (never "0.0123")', async () => {
    const r = await run(
      [
        ['prompt', `0.0${ENTER}`],
        ['prompt', `1.2.3${ENTER}`],
        ['showing', ESC],
        ['prompt', 'q'],
      ],
      { orderIds: ['refused-then-1'] },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('the amount must be a plain positive decimal');
    expect(r.keys.phases.filter((p) => p === 'creating')).toHaveLength(1);
    expect(r.summary).toContain('1 sale');
    expect(r.summary).toContain('1.23');
  });

  it('fits 80×24: the prompt on a virtual terminal shows the currency, coin and keys without wrapping', async () => {
    const r = await run([['prompt', 'q']], { flags: { currency: 'EUR', payCurrency: 'USDT', network: 'Tron Network' } });
    const prompt = r.stdout.slice(0, r.stdout.indexOf(LEAVE_ALT_SCREEN));
    const term = new VirtualTerminal(80, 24).write(prompt);
    const text = term.text();
    expect(text).toContain('Charge in EUR, paid in USDT on Tron Network');
    expect(text).toContain('q end the day');
    expect(term.scrollback).toHaveLength(0);
  });
});

describe('gw counter --receipts', () => {
  it('one receipt per payment that ends, named by date and track id, in the folder; none for one not waited for', async () => {
    const dir = emptyDir('gw-receipts-');
    const r = await run(
      [
        ['prompt', `12${ENTER}`],
        ['final', ENTER],
        ['prompt', `3${ENTER}`],
        ['showing', ESC],
        ['prompt', 'q'],
      ],
      { orderIds: ['rcpt-1', 'rcpt-2'], flags: { receipts: dir, receiptWidth: '32' } },
    );
    expect(r.exit).toBe(0);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}-\d{6}-\d{9}\.txt$/);
    const receipt = readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(receipt).toContain('rcpt-1');
    expect(receipt).toMatch(/12 USDT/);
    for (const line of receipt.split('\n')) expect(line.length).toBeLessThanOrEqual(32);
    // Said at the next prompt (wrapped to the width).
    expect(r.stdout).toContain('Receipt:');
    expect(r.stdout).toContain(files[0]);
  });

  it('a folder that is not there: exit 73 before the screen changes, nothing created', async () => {
    const r = await run([], { flags: { receipts: path.join(emptyDir('gw-receipts-'), 'missing') } });
    expect(r.exit).toBe(73);
    expect(r.stdout).toBe('');
  });
});

describe('gw counter: a creation that may have reached the gateway is looked up, never sent twice', () => {
  const S = Math.floor(T0 / 1000);
  const info = (status: string, extra: Record<string, unknown> = {}): PaymentInfo =>
    paymentInfoOf({
      status,
      amount: '25',
      currency: 'USDT',
      payAmount: '25',
      payCurrency: 'USDT',
      network: 'Tron Network',
      address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
      orderId: 'amb-1',
      date: S,
      expiredAt: S + 3600,
      ...extra,
    });
  const reset = new GwError(ExitCode.UNAVAILABLE, 'the connection was reset after the request was sent');

  it('found by its order id: shown and followed to PAID; exactly one create', async () => {
    const gateway = new FakeGateway({
      payment: reset,
      page: { payments: [info('Waiting')], page: 1, pages: 1, total: 1 },
      info: info('Paid', { txID: 'ab12', payDate: S + 9 }),
    });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['final', ENTER],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['amb-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(gateway.calls.filter((c) => c.method === 'createPayment')).toHaveLength(1);
    expect(r.keys.phases).toContain('lookup');
    expect(r.stdout).toContain('It may have been created. Looking for order amb-1');
    expect(r.stdout).toContain('Found by its order id: created');
    expect(r.summary).toMatch(/^paid +1 +25 USDT$/m);
    expect(r.summary).toContain('1 sale');
  });

  it('the gateway lost while a payment is shown: said on screen, the payment kept, checks go on until PAID', async () => {
    const down = new GwError(ExitCode.UNAVAILABLE, 'could not reach the gateway (ECONNREFUSED)');
    const answers: Array<PaymentInfo | GwError> = [info('Waiting'), down, down, down, info('Paid', { txID: 'ab12', payDate: S + 9 })];
    const gateway = new FakeGateway({
      payment: tronPayment(T0, { orderId: 'amb-1' }),
      info: async () => {
        const next = answers.shift() ?? info('Paid', { txID: 'ab12', payDate: S + 9 });
        if (next instanceof GwError) throw next;
        return next;
      },
    });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['final', ENTER],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['amb-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('⚠ Gateway lost · payment kept');
    expect(gateway.calls.filter((c) => c.method === 'createPayment')).toHaveLength(1);
    // Checked through the failures with the wait's backoff (2 s, 4 s, 8 s after them), until PAID.
    expect(gateway.calls.filter((c) => c.method === 'paymentInfo')).toHaveLength(5);
    expect(r.clock.now() - T0).toBeGreaterThanOrEqual(14_000);
    expect(r.summary).toMatch(/^paid +1 +25 USDT$/m);
  });

  it('the look-up itself fails while the gateway is away: it is retried, then finds the payment', async () => {
    let lookups = 0;
    const gateway = new FakeGateway({
      payment: reset,
      page: () => {
        if (++lookups < 3) throw new GwError(ExitCode.UNAVAILABLE, 'could not reach the gateway');
        return { payments: [info('Waiting')], page: 1, pages: 1, total: 1 };
      },
      info: info('Paid', { txID: 'ab12', payDate: S + 9 }),
    });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['final', ENTER],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['amb-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(lookups).toBe(3);
    expect(r.stdout).toContain('Looking again (the last look-up failed: could not reach the gateway)');
    expect(gateway.calls.filter((c) => c.method === 'createPayment')).toHaveLength(1);
    expect(r.summary).toMatch(/^paid +1 +25 USDT$/m);
  });

  it('not found: back at the prompt, Enter creates the sale again under the same order id', async () => {
    let creates = 0;
    const gateway = new FakeGateway({
      payment: () => {
        if (++creates === 1) throw reset;
        return tronPayment(T0, { orderId: 'amb-1' });
      },
      page: { payments: [], page: 1, pages: 1, total: 0 },
      info: info('Paid', { txID: 'ab12', payDate: S + 9 }),
    });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['prompt', ENTER],
        ['final', ENTER],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['amb-1', 'never-used'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    const created = gateway.calls.filter((c) => c.method === 'createPayment').map((c) => (c.args[0] as { orderId: string }).orderId);
    expect(created).toEqual(['amb-1', 'amb-1']);
    // The look-up came between the two.
    expect(gateway.calls.map((c) => c.method).slice(0, 3)).toEqual(['createPayment', 'payments', 'createPayment']);
    expect(r.stdout).toContain('The gateway has no payment for order amb-1: it was not created.');
    expect(r.summary).toMatch(/^paid +1 +25 USDT$/m);
    expect(r.summary).toContain('1 sale');
  });

  it('Esc while looking: the sale is listed as not confirmed with the command that finds it; nothing created again', async () => {
    const gateway = new FakeGateway({ payment: reset, page: new GwError(ExitCode.UNAVAILABLE, 'could not reach the gateway') });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['lookup', ESC],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['amb-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(gateway.calls.filter((c) => c.method === 'createPayment')).toHaveLength(1);
    expect(r.summary).toMatch(/^not confirmed +1 +25 USDT$/m);
    expect(r.summary).toContain('gw payments --order-id amb-1');
  });

  it('stopped from outside while the creation is under way: the summary lists the sale as not confirmed, with the command that finds it', async () => {
    const stop = new AbortController();
    const gateway = new FakeGateway({
      payment: () => {
        stop.abort(new GwError(ExitCode.INTERRUPTED, 'interrupted'));
        throw new GwError(ExitCode.INTERRUPTED, 'interrupted');
      },
    });
    const r = await run([['prompt', `25${ENTER}`]], { gateway, orderIds: ['amb-9'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' }, interrupt: stop.signal });
    expect(r.exit).toBe(130);
    expect(r.summary).toMatch(/^not confirmed +1 +25 USDT$/m);
    expect(r.summary).toContain('gw payments --order-id amb-9');
  });

  it('a creation that takes a while: the creating screen turns a spinner (a sign of life), gone once the payment shows', async () => {
    // The gateway answers after 600 ms of real time: the spinner shows from 200 ms, in real time too.
    const slow = () => new Promise<Payment>((resolve) => setTimeout(() => resolve(tronPayment(T0)), 600));
    const gateway = new FakeGateway({
      payment: slow,
      info: paymentInfoOf({ status: 'Paid', amount: '25', currency: 'USDT', payAmount: '25', payCurrency: 'USDT', txID: 'ab12' }),
    });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['final', ENTER],
        ['prompt', 'q'],
      ],
      { gateway, orderIds: ['slow-1'], env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    const creating = r.stdout.slice(r.stdout.indexOf('Creating the payment'), r.stdout.indexOf('Pay exactly'));
    const frames = new Set(creating.match(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Creating the payment/g) ?? []);
    expect(frames.size).toBeGreaterThan(1);
    // Nothing of it is left on the screen that follows.
    const screen = new VirtualTerminal(80, 24).write(r.stdout.slice(0, r.stdout.lastIndexOf('Pay exactly')));
    expect(screen.text()).not.toContain('Creating the payment');
  });

  it('a refusal created nothing: the sale stays at the prompt with the reason', async () => {
    const gateway = new FakeGateway({ payment: new GwError(ExitCode.DATA, 'the gateway refused it: invalid currency', { result: 101 }) });
    const r = await run(
      [
        ['prompt', `25${ENTER}`],
        ['prompt', 'q'],
      ],
      { gateway, env: { GATEWAY_COUNTER_CURRENCY: 'USDT' } },
    );
    expect(r.exit).toBe(0);
    expect(r.stdout).toContain('Not created: the gateway refused it: invalid currency');
    expect(gateway.calls.map((c) => c.method)).toEqual(['createPayment']);
    expect(r.summary).toContain('No sales.');
  });
});

describe('gw counter: refusals before the screen changes', () => {
  it('without a terminal: exit 64, one line, nothing drawn', async () => {
    const r = await runGw(['counter', '--sandbox']);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(/^gw: gw counter needs a terminal: stdin is not one\nhint: /);
    expect(r.stdout).toBe('');
  });

  it('--json and --verbose: exit 64, one line', async () => {
    for (const flag of ['--json', '--verbose']) {
      const r = await runGw(['counter', '--sandbox', flag], { stdoutTTY: true, stdinTTY: true, stderrTTY: true });
      expect(r.exitCode).toBe(64);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(flag === '--json' ? /no --json output/ : /--verbose request lines would break it/);
    }
  });

  it('TERM=dumb: exit 64 before anything is drawn', async () => {
    const t = IOStreams.test({ stdoutTTY: true, stdinTTY: true, env: { TERM: 'dumb' } });
    const gateway = new FakeGateway({});
    const error = await counterRun({
      io: t.io,
      clock: new ManualClock(T0),
      gateway: async () => gateway,
      config: async () => resolveConfig({ flags: {}, env: {}, layers: [] }),
      flags: { currency: 'USDT' },
      signal: new AbortController().signal,
      releaseDeadline: () => undefined,
      newOrderId: () => 'x',
    }).catch((e: unknown) => e);
    expect((error as GwError).exitCode).toBe(64);
    expect((error as GwError).message).toContain('TERM=dumb');
    expect(t.stdout()).toBe('');
  });

  it('no currency outside the sandbox: exit 64 naming the flag and the setting', async () => {
    const gateway = new FakeGateway({});
    const r = await run([], { gateway });
    expect(r.exit).toBe(64);
    expect(gateway.calls).toHaveLength(0);
    expect(r.stdout).toBe('');
  });

  it('a fiat pay currency is refused', async () => {
    const r = await run([], { gateway: new FakeGateway({}), flags: { currency: 'EUR', payCurrency: 'usd' } });
    expect(r.exit).toBe(64);
  });
});

describe("tillDefaults: the day's currency, coin and network", () => {
  const config = (env: Record<string, string>) => resolveConfig({ flags: {}, env, layers: [] });
  const SET = { GATEWAY_COUNTER_CURRENCY: 'eur', GATEWAY_COUNTER_PAY_CURRENCY: 'usdt', GATEWAY_COUNTER_NETWORK: 'Tron Network' };
  it.each([
    ['the settings', {}, SET, { currency: 'EUR', payCurrency: 'USDT', network: 'Tron Network' }],
    ['flags before settings', { currency: 'usd', network: 'BNB Smart Chain' }, SET, { currency: 'USD', payCurrency: 'USDT', network: 'BNB Smart Chain' }],
    ['another coin by flag: the configured network is not sent with it', { payCurrency: 'btc' }, SET, { currency: 'EUR', payCurrency: 'BTC' }],
    ['the pay currency defaults to the currency', { currency: 'ltc' }, {}, { currency: 'LTC', payCurrency: 'LTC' }],
  ] as const)('%s', (_what, flags, env, expected) => {
    expect(tillDefaults(flags, config(env), false)).toEqual(expected);
  });

  it('the sandbox needs nothing: USDT', () => {
    expect(tillDefaults({}, config({}), true)).toEqual({ currency: 'USDT', payCurrency: 'USDT' });
  });

  it.each([
    ['no currency anywhere', {}, {}, /needs the currency amounts are typed in/],
    ['a fiat currency without a coin', { currency: 'EUR' }, {}, /EUR is not a coin a customer can send/],
    ['a bad symbol', { currency: 'E U R' }, {}, /--currency must be a currency symbol/],
  ] as const)('%s: exit 64', (_what, flags, env, message) => {
    expect(() => tillDefaults(flags, config(env), false)).toThrow(message);
  });
});
