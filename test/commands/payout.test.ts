// gw payout's run function with a fake gateway that fails on any question it was not given an answer
// for, and a scripted prompter: the confirmation (y or yes sends; anything else sends nothing), the
// one-shot sender (a second payout in one invocation is refused before the gateway is asked), what
// a failure after sending says, and gw payout status's exit codes.
import { describe, expect, it } from 'vitest';
import { OneShotSender } from '../../src/cmdutil/payout-send.js';
import { type PayoutOptions, payoutRun, payoutStatusRun } from '../../src/commands/payout.js';
import { ExitCode, GwError, UsageError } from '../../src/errors.js';
import { TransportError } from '../../src/gateway/failures.js';
import { Decimal } from '../../src/money/decimal.js';
import type { CreatedPayout } from '../../src/operations/create-payout.js';
import { decodePayout } from '../../src/operations/payout-info.js';
import type { JsonObject } from '../../src/operations/read.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { Untrusted } from '../../src/output/untrusted.js';
import { ManualClock } from '../../src/util/clock.js';
import { parseLossless } from '../../src/util/json.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { ScriptedPrompter } from '../support/prompter.js';

const TRON = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';
const CURRENCIES = parseLossless(
  JSON.stringify({
    USDT: { symbol: 'USDT', status: true, networks: { TRC20: { network: 'TRC20', name: 'Tron Network', withdraw_fee: 1, withdraw_min: 0.5 } } },
  }),
) as JsonObject;
const CREATED: CreatedPayout = { trackId: Untrusted.of('258298451'), status: 'processing', gatewayStatus: Untrusted.of('processing') };

function setup(performed: Record<string, unknown>, io: { prompter?: ScriptedPrompter; json?: boolean } = {}) {
  const t = IOStreams.test(io.prompter === undefined ? {} : { prompter: io.prompter });
  if (io.json === true) t.io.setJson(true);
  const gateway = new FakeGateway({
    performed: {
      'supported currencies': CURRENCIES,
      balances: [{ currency: Untrusted.of('USDT'), amount: Decimal.fromLiteral('100') as Decimal }],
      ...performed,
    } as never,
  });
  const sender = new OneShotSender();
  const opts = (flags: PayoutOptions['flags'] = {}, amount = '12.5'): PayoutOptions => ({
    io: t.io,
    gateway: async () => gateway,
    sender,
    clock: new ManualClock(Date.UTC(2026, 10, 25, 14, 2, 5)),
    amount,
    currency: 'USDT',
    address: TRON,
    flags: { network: 'Tron Network', ...flags },
    sandbox: false,
  });
  const posts = (): number => gateway.calls.filter((c) => c.method === 'perform' && c.args[0] === 'payout creation').length;
  return { t, gateway, sender, opts, posts };
}

describe('gw payout: the confirmation', () => {
  it('on an 80-column terminal: the full address on one line, long values wrapped under their column, no line wider than 79', async () => {
    const prompter = new ScriptedPrompter([{ ask: /Send this payout\?/, answer: 'n' }]);
    const t = IOStreams.test({ prompter, stdoutTTY: true, width: 80 });
    const gateway = new FakeGateway({
      performed: { 'supported currencies': CURRENCIES, balances: [{ currency: Untrusted.of('USDT'), amount: Decimal.fromLiteral('100') as Decimal }] } as never,
    });
    const description = 'supplier invoice 2026-11 batch 7 for the blue widgets and the red ones';
    const run = payoutRun({
      io: t.io,
      gateway: async () => gateway,
      sender: new OneShotSender(),
      clock: new ManualClock(Date.UTC(2026, 10, 25, 14, 2, 5)),
      amount: '12.5',
      currency: 'USDT',
      address: TRON,
      flags: { network: 'Tron Network', description },
      sandbox: false,
    });
    await expect(run).rejects.toMatchObject({ exitCode: ExitCode.REFUSED });
    const lines = t.stdout().split('\n');
    expect(lines).toContain(`  to           ${TRON}`);
    expect(lines.filter((l) => l.length > 79)).toEqual([]);
    expect(lines.find((l) => l.startsWith('  fee '))).toMatch(/^ {2}fee {10}1 USDT \(the gateway's published withdraw fee;/);
    // The continuation lines start under the values' column.
    const fee = lines.findIndex((l) => l.startsWith('  fee '));
    expect(lines[fee + 1]).toMatch(/^ {15}\S/);
    expect(lines.filter((l) => /^ {15}\S/.test(l)).join(' ')).toContain('gw-po-');
  });

  it.each(['y', 'yes', 'Y', ' YES '])('%j sends exactly one payout', async (answer) => {
    const prompter = new ScriptedPrompter([{ ask: /Send this payout\?/, answer }]);
    const { opts, posts, t } = setup({ 'payout creation': CREATED }, { prompter });
    await payoutRun(opts());
    expect(posts()).toBe(1);
    expect(t.stdout()).toContain('Payout 258298451 sent: processing');
  });

  it.each(['n', 'no', '', 'yeah', 'y es', 'ok', 'sure'])('%j sends nothing: exit 1, "nothing was sent"', async (answer) => {
    const prompter = new ScriptedPrompter([{ ask: /Send this payout\?/, answer }]);
    const { opts, posts } = setup({}, { prompter });
    const error = await payoutRun(opts()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GwError);
    expect((error as GwError).exitCode).toBe(ExitCode.REFUSED);
    expect((error as GwError).message).toContain('nothing was sent');
    expect(posts()).toBe(0);
  });

  it('a person may take their time: the command deadline is lifted while the question is open (never with --yes)', async () => {
    const prompter = new ScriptedPrompter([{ ask: /Send this payout\?/, answer: 'y' }]);
    const { opts } = setup({ 'payout creation': CREATED }, { prompter });
    let lifted = 0;
    await payoutRun({ ...opts(), releaseDeadline: () => void lifted++ });
    expect(lifted).toBe(1);
    const quiet = setup({ 'payout creation': CREATED });
    await payoutRun({ ...quiet.opts({ yes: true }), releaseDeadline: () => void lifted++ });
    expect(lifted).toBe(1);
  });

  it('what the question shows: amount, coin, network as sent, the full address, memo, the published fee, the reference', async () => {
    const prompter = new ScriptedPrompter([{ ask: /Send this payout\?/, answer: 'n' }]);
    const { opts, t } = setup({}, { prompter });
    await payoutRun(opts({ description: 'supplier 7' })).catch(() => undefined);
    // stdout is not the terminal here (`gw payout … > file`): what is confirmed is shown where the question is.
    expect(t.stdout()).toBe('');
    const shown = t.stderr();
    expect(shown).toContain('12.5 USDT');
    expect(shown).toContain('TRC20');
    expect(shown).toContain(TRON);
    expect(shown).toMatch(/memo\s+—/);
    expect(shown).toContain("1 USDT (the gateway's published withdraw fee");
    expect(shown).toContain('gw-po-20261125-');
    expect(shown).toMatch(/description\s+supplier 7 gw-po-/);
  });

  it('without a terminal and without --yes: a usage error, nothing asked of the gateway but the checks, nothing sent', async () => {
    const { opts, posts } = setup({});
    const error = await payoutRun(opts()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(posts()).toBe(0);
  });

  it('--dry-run: checks and shows, asks nothing, sends nothing; --json gives the plan', async () => {
    const { opts, posts, t } = setup({}, { json: true });
    await payoutRun(opts({ dryRun: true }));
    expect(posts()).toBe(0);
    expect(JSON.parse(t.stdout())).toMatchObject({ dryRun: true, sent: false, amount: '12.5', fee: '1', network: 'TRC20', address: TRON });
  });

  it('an amount with more decimals than the coin has on the network: refused before the gateway is asked anything', async () => {
    const { opts, gateway } = setup({});
    await expect(payoutRun(opts({ yes: true }, '1.1234567'))).rejects.toThrow(/has 6 decimals/);
    expect(gateway.calls).toHaveLength(0);
  });
});

describe('gw payout: never twice', () => {
  it('the one-shot sender refuses a second payout in one invocation before asking the gateway', async () => {
    const { gateway, sender } = setup({ 'payout creation': CREATED });
    const request = { address: TRON, currency: 'USDT', amount: Decimal.fromLiteral('1') as Decimal, network: 'TRC20' };
    await sender.send(gateway, request);
    await expect(sender.send(gateway, request)).rejects.toThrow(/a second payout in one invocation/);
    expect(gateway.calls.filter((c) => c.args[0] === 'payout creation')).toHaveLength(1);
  });

  it('a timeout after the request may have left: "payout" unknown in the JSON fields, the command that finds it, sent once', async () => {
    const timeout = new TransportError(ExitCode.TEMPFAIL, 'the gateway did not answer within 10 s', 'maybe-sent');
    const { opts, posts } = setup({ 'payout creation': timeout, 'the payout history': { payouts: [], page: 1, pages: 1, total: 0 } });
    const error = (await payoutRun(opts({ yes: true, reference: 'inv-7' })).catch((e: unknown) => e)) as GwError;
    expect(error.exitCode).toBe(ExitCode.TEMPFAIL);
    expect(error.jsonFields()).toMatchObject({ payout: 'unknown', reference: 'inv-7' });
    expect(error.message).toContain('MAY HAVE BEEN MADE — it was not sent again');
    expect(error.hint).toContain(`gw payouts --reference inv-7 --address ${TRON}`);
    expect(error.hint).toContain("gw payout 12.5 USDT TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe --network 'Tron Network' --reference inv-7");
    expect(posts()).toBe(1);
  });

  it('the command that runs it again keeps the description and callback URL (the same payout, found by its reference)', async () => {
    const timeout = new TransportError(ExitCode.TEMPFAIL, 'the gateway did not answer within 10 s', 'maybe-sent');
    const { opts } = setup({ 'payout creation': timeout });
    const error = (await payoutRun(opts({ yes: true, description: "supplier's 7", callbackUrl: 'https://shop.example/cb' })).catch(
      (e: unknown) => e,
    )) as GwError;
    expect(error.jsonFields()).toMatchObject({ payout: 'unknown' });
    expect(error.hint).toMatch(/--description 'supplier'\\''s 7' --callback-url https:\/\/shop\.example\/cb --reference gw-po-/);
  });

  it('a failure before the request left (connection refused): "payout" none, nothing was sent', async () => {
    const refused = new TransportError(ExitCode.UNAVAILABLE, 'the connection to the gateway was refused', 'not-sent');
    const { opts } = setup({ 'payout creation': refused });
    const error = (await payoutRun(opts({ yes: true })).catch((e: unknown) => e)) as GwError;
    expect(error.jsonFields()).toMatchObject({ payout: 'none' });
    expect(error.message).toContain('nothing was sent');
  });
});

describe('gw payout status: exit codes', () => {
  const payoutWith = (status: string) =>
    decodePayout(parseLossless(JSON.stringify({ track_id: '9', status, amount: 1, currency: 'USDT', description: 'x' })) as JsonObject, 'test');
  const run = (statuses: string[], wait = false) => {
    const t = IOStreams.test();
    let i = 0;
    const gateway = new FakeGateway({ performed: { 'payout information': () => payoutWith(statuses[Math.min(i++, statuses.length - 1)] as string) } });
    const clock = new ManualClock(0);
    return {
      gateway,
      clock,
      done: payoutStatusRun({
        io: t.io,
        gateway: async () => gateway,
        clock,
        signal: new AbortController().signal,
        releaseDeadline: () => undefined,
        trackId: '9',
        wait,
      }),
    };
  };
  it.each([
    ['confirmed', 0],
    ['Complete', 0],
    ['processing', 8],
    ['pending', 8],
    ['confirming', 8],
    ['canceled', 12],
    ['rejected', 12],
    ['something new', 8],
  ])('%s → exit %i', async (status, exit) => {
    const error = await run([status]).done.catch((e: unknown) => e);
    expect(error === undefined ? 0 : (error as GwError).exitCode).toBe(exit);
  });

  it('an answer about another payout (track id 8 when 9 was asked): exit 76, never "confirmed"', async () => {
    const t = IOStreams.test();
    const other = decodePayout(parseLossless(JSON.stringify({ track_id: '8', status: 'confirmed', amount: 1, currency: 'USDT' })) as JsonObject, 'test');
    const gateway = new FakeGateway({ performed: { 'payout information': other } });
    const options = {
      io: t.io,
      gateway: async () => gateway,
      clock: new ManualClock(0),
      signal: new AbortController().signal,
      releaseDeadline: () => undefined,
      trackId: '9',
    };
    const error = (await payoutStatusRun({ ...options, wait: false }).catch((e: unknown) => e)) as GwError;
    expect([error.exitCode, error.message]).toEqual([ExitCode.PROTOCOL, 'the gateway answered about payout 8 when asked about 9: its state is unknown']);
    expect(t.stdout()).toBe('');
  });

  it('--wait follows it until it ends, looking every 3 s', async () => {
    const { done, clock, gateway } = run(['processing', 'pending', 'confirming', 'confirmed'], true);
    await done;
    expect(gateway.calls).toHaveLength(4);
    expect(clock.sleeps).toEqual([3000, 3000, 3000]);
  });
});
