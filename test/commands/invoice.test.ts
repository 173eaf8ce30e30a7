// gw invoice's run function with a fake gateway (which fails on any call it was not given an answer
// for) and a ManualClock: what it prints, what it asks, and --wait followed as pay --wait is; and
// an invoice's payment information decoded and shown before a coin is chosen.
import { describe, expect, it } from 'vitest';
import { buildInvoiceRequest, invoiceRun, type InvoiceOptions } from '../../src/commands/invoice.js';
import { ExitCode, GwError } from '../../src/errors.js';
import type { PaymentInfo } from '../../src/gateway/gateway.js';
import { decodeInvoiceAnswer, CREATE_INVOICE } from '../../src/operations/create-invoice.js';
import type { JsonObject } from '../../src/operations/read.js';
import { IOStreams, type TestIOOptions } from '../../src/output/iostreams.js';
import { parseLossless } from '../../src/util/json.js';
import { ManualClock } from '../../src/util/clock.js';
import { statusText } from '../../src/views/status-view.js';
import { PLAIN } from '../../src/output/palette.js';
import { FakeGateway, type FakeAnswers } from '../support/fake-gateway.js';
import { gwFailure } from '../support/rejection.js';
import { T_DATE, v1InfoOf, v1Tx } from '../support/v1-payment-info.js';
import { decodeScreen, decodeTerminalQr } from '../support/qr-decode.js';
import { VirtualTerminal } from '../support/terminal.js';

const T0 = T_DATE * 1000;
const LINK = 'https://pay.example/13355581/184729305';

const invoice = () =>
  decodeInvoiceAnswer(
    CREATE_INVOICE.endpoints.v1,
    parseLossless(JSON.stringify({ data: { track_id: '184729305', payment_url: LINK, expired_at: T_DATE + 3600, date: T_DATE }, status: 200 })) as JsonObject,
    'the test',
  );

/** An invoice's information: `new` has no coin, address or transaction. */
const infoOf = (status: string, txs: string[] = []): PaymentInfo =>
  v1InfoOf({ type: 'invoice', status, amount: '25', currency: 'USDT', track_id: '184729305', order_id: 'ORD-7' }, txs);

function setup(answers: FakeAnswers, io: TestIOOptions = {}, extra: Partial<InvoiceOptions> = {}) {
  const t = IOStreams.test(io);
  // The wait asks for the invoice's information over the versioned API: perform('payment information').
  const { info, performed, ...rest } = answers;
  const gateway = new FakeGateway({
    ...rest,
    performed: { 'invoice creation': invoice(), ...(info !== undefined && { 'payment information': info }), ...performed },
  });
  const opts: InvoiceOptions = {
    io: t.io,
    gateway: async () => gateway,
    clock: new ManualClock(T0),
    request: buildInvoiceRequest('25.10', 'USD', { orderId: 'ORD-7' }),
    qr: 'never',
    orderIdGenerated: false,
    wait: false,
    waitTimeoutMs: undefined,
    signal: new AbortController().signal,
    releaseDeadline: () => undefined,
    ...extra,
  };
  return { t, gateway, opts };
}

describe('gw invoice', () => {
  it('asks for the invoice once and prints the link, its track id and expiry', async () => {
    const { t, gateway, opts } = setup({});
    await invoiceRun(opts);
    expect(gateway.calls.map((c) => c.method)).toEqual(['perform']);
    expect(gateway.calls[0]?.args[0]).toBe('invoice creation');
    const out = t.stdout();
    expect(out).toMatch(new RegExp(`^Payment link +${LINK}$`, 'm'));
    expect(out).toMatch(/^Track ID +184729305$/m);
    expect(out).toMatch(/^Amount +25\.10 USD$/m);
    expect(out).toMatch(/^Expires +60 min left/m);
    expect(t.stderr()).toMatch(/Follow it until it is paid: gw status 184729305 --wait/);
  });

  it('--json: one document, the amount with its digits', async () => {
    const { t, opts } = setup({}, { json: true });
    await invoiceRun(opts);
    expect(JSON.parse(t.stdout())).toEqual({
      trackId: '184729305',
      paymentUrl: LINK,
      expiredAt: T_DATE + 3600,
      createdAt: T_DATE,
      amount: '25.10',
      currency: 'USD',
      orderId: 'ORD-7',
    });
  });

  it('a failure that may have reached the gateway: the invoice may exist, and how to find it', async () => {
    const { opts } = setup({ performed: { 'invoice creation': new GwError(ExitCode.TEMPFAIL, 'the gateway did not answer within 30 s') } });
    const failure = await gwFailure(invoiceRun(opts));
    expect(failure.exitCode).toBe(ExitCode.TEMPFAIL);
    expect(failure.message).toMatch(/the invoice MAY HAVE BEEN CREATED — it was not sent again$/);
    expect(failure.hint).toBe('look for order id "ORD-7" before trying again: gw payments --order-id ORD-7');
  });

  it('--wait: followed through new, waiting, confirming to paid; exit 0, what arrived from its transactions', async () => {
    const answers = [
      infoOf('new'),
      infoOf('waiting'),
      infoOf('paying', [v1Tx('ab12', '25', 'USDT', { status: 'confirming' })]),
      infoOf('paid', [v1Tx('ab12', '25', 'USDT')]),
    ];
    let i = 0;
    const { t, gateway, opts } = setup({ info: async () => answers[Math.min(i++, answers.length - 1)] as PaymentInfo }, { json: true }, { wait: true });
    await invoiceRun(opts);
    const polls = gateway.calls.filter((c) => c.args[0] === 'payment information');
    expect(polls).toHaveLength(4);
    expect(polls[0]?.args[1]).toEqual({ trackId: '184729305' });
    const doc = JSON.parse(t.stdout()) as Record<string, unknown>;
    expect(doc).toMatchObject({ trackId: '184729305', paymentUrl: LINK, status: 'paid', type: 'invoice', received: { USDT: '25' } });
    // One document: nothing before the end of the wait.
    expect(t.stdout().startsWith('{')).toBe(true);
  });

  it('--wait ending underpaid: exit 10, what arrived in the words of pay --wait', async () => {
    const { opts } = setup({ info: infoOf('underpaid', [v1Tx('ab12', '20', 'USDT')]) }, {}, { wait: true });
    const failure = await gwFailure(invoiceRun(opts));
    expect(failure.exitCode).toBe(ExitCode.UNDERPAID);
    expect(failure.message).toMatch(/payment 184729305 is UNDERPAID: 20 USDT received/);
  });

  it('on an 80x24 terminal the QR, the link under it and the notices after it stay on the screen: it scans there', async () => {
    const { t, opts } = setup({}, { stdoutTTY: true, width: 80, height: 24, color: true }, { qr: 'auto' });
    await invoiceRun(opts);
    const screen = new VirtualTerminal(80, 24).write(`${t.stdout()}${t.stderr()}$ `);
    for (const theme of ['dark', 'light'] as const) expect(decodeScreen(screen.ansi(), theme)).toBe(LINK);
    expect(screen.text()).toMatch(new RegExp(`^Payment link +${LINK}$`, 'm'));
    expect(screen.text()).toMatch(/^Follow it until it is paid: gw status 184729305 --wait$/m);
  });

  it.each([
    ['escape sequences inside it', `https://pay.example/1/\u001b]52;c;aGk=\u0007\u001b[2J${'A'.repeat(40)}`],
    ['a space inside it', 'https://pay.example/1/a b'],
    ['not http(s)', 'javascript:alert(1)'],
  ])('a link with %s is no link: exit 76, never shown or drawn as one, nothing that drives the terminal', async (_what, url) => {
    const answer = decodeInvoiceAnswer(
      CREATE_INVOICE.endpoints.v1,
      parseLossless(JSON.stringify({ data: { track_id: '184729305', payment_url: url, expired_at: T_DATE + 3600, date: T_DATE }, status: 200 })) as JsonObject,
      'the test',
    );
    const { t, opts } = setup({ performed: { 'invoice creation': answer } }, { stdoutTTY: true, width: 120, height: 40, color: true }, { qr: 'auto' });
    const error = await gwFailure(invoiceRun(opts));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toMatch(/invoice 184729305 was created, but the gateway gave no link a browser can open/);
    const out = t.stdout();
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^Payment link +none a browser can open/m);
    expect(out).not.toContain('pay.example');
    expect(out).not.toContain('javascript:');
    expect(out).not.toMatch(/\u001b\]|\u0007|\u001b\[2J/);
    expect(decodeTerminalQr(out, 'light')).toBeNull();
  });

  it('--wait whose following fails after the invoice was created: the failure names the invoice as created, its exit code kept', async () => {
    const refused = new GwError(ExitCode.NOPERM, 'the gateway refused: key not valid (status 401)');
    const { t, opts } = setup({ info: async () => Promise.reject(refused) }, { json: true }, { wait: true });
    const error = await gwFailure(invoiceRun(opts));
    expect(error.exitCode).toBe(ExitCode.NOPERM);
    expect(error.message).toBe('invoice 184729305 was created, but following it failed: the gateway refused: key not valid (status 401)');
    expect([error.trackId, error.payment, error.hint]).toEqual(['184729305', 'created', 'follow it again with gw status 184729305 --wait']);
    expect(t.stderr()).toContain(`payment link ${LINK}`);
  });

  it('an invoice before a coin is chosen: decoded without a coin or address, shown without inventing them', () => {
    const info = infoOf('new');
    expect([info.status, info.payCurrency, info.address, info.payAmount, info.type?.raw()]).toEqual(['new', null, null, null, 'invoice']);
    expect(info.arrival.received?.size).toBe(0);
    const text = statusText(info, T0, PLAIN, false);
    expect(text).toMatch(/NEW/i);
    expect(text).not.toMatch(/^Address/m);
    expect(text).not.toMatch(/null|undefined/);
  });
});
