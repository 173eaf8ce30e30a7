// gw payout and gw refund against a STRICT recording gateway on 127.0.0.1 that speaks the documented
// versioned payout API (docs/gateway.md §13) and answers nothing it was not asked for (404): exactly
// one POST /v1/payout per confirmed payout; none for a dry run, an unconfirmed one, bad input or a
// refused check; never a second after a failure once the request may have left (a timeout after
// sending, a 5xx, a reset, an answer of the wrong shape): each says "payout": "unknown" with the
// command that finds it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { interrupted } from '../../src/errors.js';
import { runGw as gw, type CliResult } from '../support/cli.js';
import { ScriptedPrompter } from '../support/prompter.js';
import {
  hang,
  html502,
  json,
  reset,
  startMisbehavingGateway,
  type Behaviour,
  type MisbehavingGateway,
  type RecordedRequest,
  TEST_MERCHANT_KEY,
  TEST_PAYOUT_KEY,
  TRON_ADDRESS,
} from '../support/misbehaving-gateway.js';

const GENERAL_KEY = 'gk_live_SECRET_7a6b5c4d3e2f';
const ENVELOPE = (data: unknown): Behaviour => json({ data, message: 'Operation completed successfully!', error: {}, status: 200, version: '1.0.0' });
const REFUSE = (status: number, key: string, message: string): Behaviour =>
  json(
    { data: {}, message, error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', key, message }, status, version: '1.0.0' },
    status,
  );

/** The gateway's currency list: USDT on Tron (fee 1, minimum 0.5), BTC on Bitcoin. */
const CURRENCIES = {
  USDT: {
    symbol: 'USDT',
    name: 'Tether',
    status: true,
    networks: {
      TRC20: {
        network: 'TRC20',
        name: 'Tron Network',
        keys: ['TRC20', 'Tron'],
        required_confirmations: 10,
        withdraw_fee: 1,
        withdraw_min: 0.5,
        deposit_min: 0.01,
        static_fixed_fee: 0.3,
      },
    },
  },
  BTC: {
    symbol: 'BTC',
    name: 'Bitcoin',
    status: true,
    networks: {
      Bitcoin: {
        network: 'Bitcoin',
        name: 'Bitcoin Network',
        required_confirmations: 2,
        withdraw_fee: 0.00011,
        withdraw_min: 0.000045,
        deposit_min: 9.28e-8,
        static_fixed_fee: 0,
      },
    },
  },
};

const PAYMENT_ID = '184729305';
const PAYMENT = {
  track_id: PAYMENT_ID,
  type: 'white_label',
  amount: 25,
  currency: 'USDT',
  status: 'paid',
  date: Math.floor(Date.now() / 1000) - 600,
  txs: [{ tx_hash: 'aa', amount: 25, currency: 'USDT', network: 'Tron Network', address: TRON_ADDRESS, status: 'confirmed', confirmations: 20, date: 1 }],
};

const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
/** More payments: paid in two coins (one converted on arrival); expired with nothing received. */
const MIXED_ID = '184729306';
const EMPTY_ID = '184729307';
const PAYMENTS: Record<string, unknown> = {
  [PAYMENT_ID]: PAYMENT,
  [MIXED_ID]: {
    ...PAYMENT,
    track_id: MIXED_ID,
    mixed_payment: true,
    txs: [
      { tx_hash: 'bb', amount: 20, currency: 'USDT', network: 'Tron Network', status: 'confirmed', confirmations: 20, date: 1 },
      {
        tx_hash: 'cc',
        amount: 0.00005,
        currency: 'BTC',
        network: 'Bitcoin Network',
        status: 'confirmed',
        confirmations: 3,
        auto_convert: { processed: true, amount: 4.9, currency: 'USDT' },
        date: 2,
      },
    ],
  },
  [EMPTY_ID]: { ...PAYMENT, track_id: EMPTY_ID, status: 'expired', txs: [] },
};

interface Script {
  /** What POST /v1/payout answers. */
  post: Behaviour;
  /** The payout history's records. */
  history: unknown[] | Behaviour;
  balance: string;
}

const DEFAULTS: Script = {
  post: ENVELOPE({ track_id: '258298451', status: 'processing' }),
  history: [],
  balance: '100',
};

function strictPayouts(script: Script): (req: RecordedRequest) => Behaviour {
  return (req) => {
    const url = new URL(req.path, 'http://gateway.invalid');
    const route = `${req.method} ${url.pathname}`;
    const payoutOk = req.headers.payout_api_key === TEST_PAYOUT_KEY;
    if (route === 'GET /v1/common/currencies') return ENVELOPE(CURRENCIES);
    if (route === 'GET /v1/general/account/balance') {
      if (req.headers.general_api_key !== GENERAL_KEY) return REFUSE(401, 'invalid_general_api_key', 'bad key');
      return json(`{"data":{"${url.searchParams.get('currency')}":${script.balance}},"message":"ok","error":{},"status":200,"version":"1.0.0"}`);
    }
    const payment = /^GET \/v1\/payment\/(\d+)$/.exec(route)?.[1];
    if (payment !== undefined && PAYMENTS[payment] !== undefined) {
      return req.headers.merchant_api_key === TEST_MERCHANT_KEY ? ENVELOPE(PAYMENTS[payment]) : REFUSE(401, 'invalid_merchant_api_key', 'bad key');
    }
    if (route === 'GET /v1/payout') {
      if (!payoutOk) return REFUSE(401, 'invalid_payout_api_key', 'bad key');
      if (!Array.isArray(script.history)) return script.history;
      return ENVELOPE({ list: script.history, meta: { page: 1, last_page: 1, total: script.history.length } });
    }
    if (route === 'POST /v1/payout') {
      if (!payoutOk) return REFUSE(401, 'invalid_payout_api_key', 'bad key');
      if (req.headers['content-type'] !== 'application/json') return REFUSE(400, 'content_type', 'JSON only');
      return script.post;
    }
    return REFUSE(404, 'not_found', `No such endpoint: ${route}`);
  };
}

describe('payouts against a strict recording gateway', () => {
  let server: MisbehavingGateway;
  let script: Script;
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    GATEWAY_BASE_URL: server.url,
    GATEWAY_API: 'v1',
    GATEWAY_MERCHANT_KEY: TEST_MERCHANT_KEY,
    GATEWAY_PAYOUT_KEY: TEST_PAYOUT_KEY,
    GATEWAY_GENERAL_KEY: GENERAL_KEY,
    ...extra,
  });
  const posts = (): RecordedRequest[] => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payout');
  const run = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> => gw(args, { env: env(extra) });
  const payout = (...more: string[]): string[] => ['payout', '12.5', 'USDT', TRON_ADDRESS, '--network', 'Tron Network', ...more];

  beforeAll(async () => {
    server = await startMisbehavingGateway();
  });
  beforeEach(() => {
    script = { ...DEFAULTS };
    server.reset();
    server.program((req) => strictPayouts(script)(req));
  });
  afterAll(async () => {
    await server.close();
  });

  it('--yes: exactly one POST /v1/payout, with the payout key header and the documented JSON body (amount as typed digits)', async () => {
    const r = await run(payout('--yes', '--json'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    const post = posts()[0] as RecordedRequest;
    expect(post.headers.payout_api_key).toBe(TEST_PAYOUT_KEY);
    expect(post.body).toMatch(/"amount":12\.5[,}]/);
    const body = JSON.parse(post.body) as Record<string, unknown>;
    const reference = (JSON.parse(r.stdout) as { reference: string }).reference;
    expect(body).toEqual({ address: TRON_ADDRESS, currency: 'USDT', amount: 12.5, network: 'TRC20', description: reference });
    expect(JSON.parse(r.stdout)).toMatchObject({ sent: true, trackId: '258298451', status: 'processing', fee: '1', balance: { checked: true, amount: '100' } });
    expect(r.stdout + r.stderr).not.toContain(TEST_PAYOUT_KEY);
  });

  it('with api legacy too, every request is the versioned one (the payout endpoints exist only there)', async () => {
    const r = await run(payout('--yes'), { GATEWAY_API: 'legacy' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests.map((q) => `${q.method} ${new URL(q.path, 'http://x').pathname}`)).toEqual([
      'GET /v1/common/currencies',
      'GET /v1/general/account/balance',
      'POST /v1/payout',
    ]);
  });

  it.each([
    ['n', 1, 0],
    ['yes', 0, 1],
  ])('answered %j at the prompt: exit %i, %i POST', async (answer, exit, count) => {
    const prompter = new ScriptedPrompter([{ ask: /Send this payout\?/, answer }]);
    const r = await gw(payout(), { env: env(), prompter });
    expect(r.exitCode, r.stderr).toBe(exit);
    expect(posts()).toHaveLength(count);
    expect(prompter.done).toBe(true);
  });

  it.each([
    ['n', 1, 'not confirmed: nothing was sent'],
    ['', 1, 'not confirmed: nothing was sent'],
    [undefined, 130, 'interrupted at the confirmation: the payout was not sent'],
  ])('declined at the prompt (%j; undefined: Ctrl-C) with --json: its exit code, one line, "payout": "none", no POST', async (answer, exit, line) => {
    const prompter = new ScriptedPrompter([answer === undefined ? { ask: /Send this payout\?/, interrupt: true } : { ask: /Send this payout\?/, answer }]);
    const r = await gw(payout('--json'), { env: env(), prompter });
    expect(r.exitCode, r.stderr).toBe(exit);
    expect(r.stdout).toBe('');
    const error = (JSON.parse(r.stderr.trim().split('\n').pop() ?? '') as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ message: line, exitCode: exit, payout: 'none' });
    expect(String(error.reference)).toMatch(/^gw-po-/);
    expect(posts()).toHaveLength(0);
  });

  it('the confirmation shows exactly what will be sent: amount, coin, network, the full address, memo, the published fee, the reference', async () => {
    const r = await run(payout('--yes', '--description', 'supplier 7'));
    expect(r.exitCode, r.stderr).toBe(0);
    for (const text of ['12.5 USDT', 'TRC20', TRON_ADDRESS, 'memo', '1 USDT', 'gw-po-', 'supplier 7']) expect(r.stdout).toContain(text);
    expect(posts()).toHaveLength(1);
  });

  it.each([
    ['--dry-run', payout('--dry-run'), 0],
    ['no terminal and no --yes', payout(), 64],
    ['below the published minimum', ['payout', '0.4', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes'], 65],
    ['amount + fee over the balance', ['payout', '99.5', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes'], 65],
    ['a coin the gateway does not list on that network', ['payout', '1', 'ETH', '0x52908400098527886E0F7030069857D2E4169EE7', '--yes'], 65],
  ])('%s: no POST /v1/payout, its exit code', async (_name, args, exit) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(exit);
    expect(posts()).toHaveLength(0);
    if (exit !== 0) expect(r.stderr).toContain('nothing was sent');
  });

  it.each([
    ['too many decimals (USDT on Tron has 6)', ['payout', '1.1234567', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    [
      'an address of another network (a Bitcoin address for Tron)',
      ['payout', '1', 'USDT', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', '--network', 'tron', '--yes'],
    ],
    ['a memo on a network without memos', payout('--memo', '123', '--yes')],
    ['an unknown network', ['payout', '1', 'USDT', TRON_ADDRESS, '--network', 'Arbitrum Nova', '--yes']],
    ['a negative amount', ['payout', '-1', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    ['a zero amount', ['payout', '0.00', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    ['a Bitcoin testnet address without --sandbox', ['payout', '0.001', 'BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', '--yes']],
    ['an exponent amount', ['payout', '1e-3', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    ['an amount with a space before it', ['payout', ' 12.5', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    ['an amount with a space after it', ['payout', '12.5 ', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    ['an amount in other digits', ['payout', '١٢', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes']],
    ['no terminal and no --yes (payout)', payout()],
    ['a refund --amount with a space', ['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--amount', '5 ', '--yes']],
    ['no terminal and no --yes (refund)', ['refund', PAYMENT_ID, '--to', TRON_ADDRESS]],
  ])('bad input, %s: exit 64 and no request at all', async (_name, args) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(64);
    expect(server.requests).toHaveLength(0);
    // Commander reads -1 as an option (unknown option '-1'): refused all the same.
    if (args[1] !== '-1') expect(r.stderr).toContain('nothing was sent');
    expect(r.stdout).not.toContain('will be sent');
  });

  it.each([
    ['bad input (an exponent amount)', ['payout', '1e-3', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes', '--json'], 64, 'gw-po-'],
    ['a refused check (below the minimum)', ['payout', '0.4', 'USDT', TRON_ADDRESS, '--network', 'tron', '--yes', '--json'], 65, 'gw-po-'],
    ['a read that failed (the payment unknown)', ['refund', '999', '--to', TRON_ADDRESS, '--yes', '--json'], 65, 'refund-999-'],
    ['more than can be refunded', ['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--amount', '26', '--yes', '--json'], 65, `refund-${PAYMENT_ID}-`],
  ])('every failure before sending says so in JSON, %s: "payout": "none" with the reference, no POST', async (_name, args, exit, prefix) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(exit);
    const error = (JSON.parse(r.stderr.trim().split('\n').pop() ?? '') as { error: Record<string, unknown> }).error;
    expect(error).toMatchObject({ exitCode: exit, payout: 'none' });
    expect(String(error.reference)).toMatch(new RegExp(`^${prefix}`));
    expect(posts()).toHaveLength(0);
  });

  it('without a general key the balance is "not checked", said in the confirmation, and the payout is still sent once', async () => {
    const r = await run(payout('--yes', '--json'), { GATEWAY_GENERAL_KEY: '' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ balance: { checked: false, reason: 'no general API key is configured' } });
    expect(r.stderr).toContain('not checked (no general API key is configured)');
    expect(posts()).toHaveLength(1);
  });

  it.each([
    ['a timeout after sending', hang(), 75, ['--timeout', '2']],
    ['an HTML 502', html502(), 69, []],
    ['a 500 with the envelope', REFUSE(500, 'internal', 'Internal error'), 69, []],
    ['a connection reset', reset(), 69, []],
    ['an answer of the wrong shape (no track_id)', ENVELOPE({ status: 'processing' }), 76, []],
    ['an answer that is not JSON', { kind: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":' } as Behaviour, 76, []],
  ])('%s: one POST, never retried; its exit code, "payout": "unknown" and the command that finds it', async (_name, behaviour, exit, extra) => {
    script.post = behaviour;
    const r = await run([...payout('--yes', '--json'), ...(extra as string[])]);
    expect(r.exitCode).toBe(exit);
    expect(posts()).toHaveLength(1);
    expect(r.stdout).toBe('');
    const error = (JSON.parse(r.stderr.trim().split('\n').pop() ?? '') as { error: Record<string, unknown> }).error;
    expect(error.payout).toBe('unknown');
    expect(String(error.message)).toContain('MAY HAVE BEEN MADE');
    expect(String(error.hint)).toContain(`gw payouts --reference ${String(error.reference)} --address ${TRON_ADDRESS}`);
    expect(String(error.hint)).toContain(`--reference ${String(error.reference)}`);
  });

  it('an answer that says rejected at once: one POST, the document printed, exit 12', async () => {
    script.post = ENVELOPE({ track_id: '258298452', status: 'rejected' });
    const r = await run(payout('--yes', '--json'));
    expect(r.exitCode).toBe(12);
    expect(JSON.parse(r.stdout)).toMatchObject({ sent: true, trackId: '258298452', status: 'rejected' });
    expect(posts()).toHaveLength(1);
  });

  it('Ctrl-C while the payout request is out: exit 130, "payout": "unknown", one POST', async () => {
    script.post = hang();
    const interrupt = new AbortController();
    const running = gw(payout('--yes', '--json'), { env: env(), interrupt: interrupt.signal });
    await server.waitForRequests(3);
    expect(posts()).toHaveLength(1);
    interrupt.abort(interrupted());
    const r = await running;
    expect(r.exitCode).toBe(130);
    expect(JSON.parse(r.stderr.trim().split('\n').pop() ?? '').error).toMatchObject({ payout: 'unknown', exitCode: 130 });
    expect(posts()).toHaveLength(1);
  });

  it('a definite refusal (400 with the error object): one POST, "payout": "none", exit 65', async () => {
    script.post = REFUSE(400, 'address', 'Invalid address');
    const r = await run(payout('--yes', '--json'));
    expect(r.exitCode).toBe(65);
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(r.stderr.trim().split('\n').pop() ?? '').error).toMatchObject({ payout: 'none', exitCode: 65 });
  });

  it('--reference after a failure looks first: a payout to that address with that reference exists → nothing sent, exit 0', async () => {
    script.history = [
      {
        track_id: '1',
        address: TRON_ADDRESS,
        currency: 'USDT',
        network: 'Tron Network',
        amount: 12.5,
        fee: 1,
        status: 'processing',
        tx_hash: '',
        description: 'other inv-9',
        internal: false,
        memo: '',
        date: 1,
      },
      {
        track_id: '258298451',
        address: TRON_ADDRESS,
        currency: 'USDT',
        network: 'Tron Network',
        amount: 12.5,
        fee: 1,
        status: 'confirming',
        tx_hash: '',
        description: 'inv-7',
        internal: false,
        memo: '',
        date: 1,
      },
    ];
    const r = await run(payout('--reference', 'inv-7', '--yes', '--json'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ existing: true, trackId: '258298451', sent: false });
    expect(posts()).toHaveLength(0);
  });

  it('--reference: only a rejected payout with it (or one to another address) → it is sent, once', async () => {
    script.history = [
      { track_id: '2', address: TRON_ADDRESS, currency: 'USDT', amount: 12.5, status: 'rejected', description: 'inv-7', date: 1 },
      { track_id: '3', address: 'TSomeoneElse', currency: 'USDT', amount: 12.5, status: 'confirmed', description: 'inv-7', date: 1 },
    ];
    const r = await run(payout('--reference', 'inv-7', '--yes'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
  });

  it('--reference: the look fails (the history answers 500) → nothing sent', async () => {
    script.history = REFUSE(500, 'internal', 'down');
    const r = await run(payout('--reference', 'inv-7', '--yes'));
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('nothing was sent');
    expect(posts()).toHaveLength(0);
  });

  it('refund: what arrived is refunded once (25 USDT on Tron); more than arrived, or another network’s address, sends nothing', async () => {
    const over = await run(['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--amount', '25.000001', '--yes']);
    expect(over.exitCode).toBe(65);
    expect(over.stderr).toContain('more than can be refunded');
    const wrong = await run(['refund', PAYMENT_ID, '--to', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', '--yes']);
    expect(wrong.exitCode).toBe(64);
    expect(posts()).toHaveLength(0);
    script.balance = '1000';
    const ok = await run(['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--yes', '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    const body = JSON.parse((posts()[0] as RecordedRequest).body) as Record<string, unknown>;
    expect(body).toMatchObject({ address: TRON_ADDRESS, currency: 'USDT', amount: 25, network: 'TRC20' });
    expect(String(body.description)).toMatch(new RegExp(`^refund-${PAYMENT_ID}-[0-9a-z]{4}$`));
  });

  it('refund: earlier refunds in progress or confirmed count against what arrived; rejected ones do not', async () => {
    script.balance = '1000';
    script.history = [
      { track_id: '5', address: TRON_ADDRESS, currency: 'USDT', amount: 20, status: 'confirming', description: `refund-${PAYMENT_ID}-aaaa`, date: 1 },
      { track_id: '6', address: TRON_ADDRESS, currency: 'USDT', amount: 5, status: 'rejected', description: `refund-${PAYMENT_ID}-bbbb`, date: 1 },
    ];
    const over = await run(['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--amount', '5.5', '--yes']);
    expect(over.exitCode).toBe(65);
    expect(posts()).toHaveLength(0);
    const rest = await run(['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--yes', '--json']);
    expect(rest.exitCode, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ amount: '5', refundedBefore: '20' });
    expect(posts()).toHaveLength(1);
  });

  it('refund asked on the terminal with stdout redirected: what arrived and what will be sent are on stderr with the question; "n" sends nothing', async () => {
    const prompter = new ScriptedPrompter([{ ask: /Send this refund\?/, answer: 'n' }]);
    const r = await gw(['refund', PAYMENT_ID, '--to', TRON_ADDRESS], { env: env(), prompter });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Payment ${PAYMENT_ID}: what arrived`);
    expect(r.stderr).toContain('This refund will be sent');
    expect(posts()).toHaveLength(0);
  });

  it('refund run again with --reference after an ambiguous failure: the full refund already made with it is found, nothing sent, exit 0', async () => {
    script.history = [
      { track_id: '7', address: TRON_ADDRESS, currency: 'USDT', amount: 25, status: 'processing', description: `refund-${PAYMENT_ID}-k7q3`, date: 1 },
    ];
    const again = await run(['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--amount', '25', '--reference', `refund-${PAYMENT_ID}-k7q3`, '--yes', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ existing: true, sent: false, trackId: '7' });
    expect(posts()).toHaveLength(0);
    // Another reference: the 25 already refunded counts, nothing is left.
    const other = await run(['refund', PAYMENT_ID, '--to', TRON_ADDRESS, '--reference', 'zzzz', '--yes']);
    expect(other.exitCode).toBe(65);
    expect(other.stderr).toContain('nothing is left to refund');
    expect(posts()).toHaveLength(0);
  });

  it('refund of a payment paid in two coins: one per refund, chosen with --coin; a converted one is warned about', async () => {
    script.balance = '1';
    const both = await run(['refund', MIXED_ID, '--to', TRON_ADDRESS, '--yes']);
    expect(both.exitCode).toBe(64);
    expect(both.stderr).toContain('USDT on Tron Network, BTC on Bitcoin Network');
    const btc = await run(['refund', MIXED_ID, '--to', BTC_ADDRESS, '--coin', 'BTC', '--yes', '--json']);
    expect(btc.exitCode, btc.stderr).toBe(0);
    expect(btc.stderr).toContain('was converted on arrival');
    // What arrived, per transaction (coin, network, amount, state, hash), then per coin and network.
    expect(btc.stderr).toMatch(/^USDT +Tron Network +20 +confirmed +bb$/m);
    expect(btc.stderr).toMatch(/^BTC +Bitcoin Network +0\.00005 +confirmed +cc$/m);
    expect(JSON.parse(btc.stdout)).toMatchObject({ amount: '0.00005', currency: 'BTC', network: 'Bitcoin', address: BTC_ADDRESS });
    expect(posts()).toHaveLength(1);
  });

  it('refund of a payment with nothing received: exit 65, nothing sent', async () => {
    const r = await run(['refund', EMPTY_ID, '--to', TRON_ADDRESS, '--yes']);
    expect(r.exitCode).toBe(65);
    expect(r.stderr).toContain('nothing was received');
    expect(posts()).toHaveLength(0);
  });

  it.each([
    [['payouts', '--min-amount', '5', '--max-amount', '1'], '--min-amount 5 is more than --max-amount 1'],
    [['payouts', '--since', '2026-11-02', '--until', '2026-11-01'], '--since is later than --until'],
  ])('gw payouts %j: a range that cannot hold anything is refused, exit 64, no request', async (args, line) => {
    const r = await run(args);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain(line);
    expect(server.requests).toHaveLength(0);
  });

  it('gw payouts: the documented filters and paging in the query, with the payout key; --json lists them', async () => {
    script.history = [
      {
        track_id: '9',
        address: TRON_ADDRESS,
        currency: 'USDT',
        network: 'Tron Network',
        amount: 12.5,
        fee: 1,
        status: 'Complete',
        tx_hash: 'ab',
        description: 'x inv-7',
        internal: false,
        memo: '',
        date: 1764072000,
      },
    ];
    const r = await run([
      'payouts',
      '--status',
      'confirmed',
      '--currency',
      'usdt',
      '--network',
      'TRC20',
      '--min-amount',
      '1',
      '--max-amount',
      '100',
      '--type',
      'external',
      '--page',
      '2',
      '--size',
      '5',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0] as RecordedRequest;
    expect(req.headers.payout_api_key).toBe(TEST_PAYOUT_KEY);
    expect(req.path).toBe('/v1/payout?status=confirmed&type=external&currency=USDT&network=TRC20&from_amount=1&to_amount=100&size=5&page=2');
    expect(JSON.parse(r.stdout)).toMatchObject({
      payouts: [{ trackId: '9', status: 'confirmed', gatewayStatus: 'Complete', amount: '12.5', fee: '1', txHash: 'ab' }],
      page: 1,
      pages: 1,
      total: 1,
    });
  });
});
