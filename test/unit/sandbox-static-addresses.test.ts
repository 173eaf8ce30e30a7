// The sandbox's fixed addresses (src/sandbox/static-addresses.ts): created per network in its test
// form, listed with the documented filters and paging, revoked; payments to them simulated as
// payments of type static address; kept beside the journal, so another process (another
// SandboxGateway over the same journal) lists them, sees a revocation, and answers for their payments.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAddress } from '../../src/payment-uri/index.js';
import { SandboxGateway } from '../../src/sandbox/gateway.js';
import { JournalError, SandboxJournal } from '../../src/sandbox/journal.js';
import { decodePng } from '../support/qr-decode.js';

const T0 = 1_750_000_000_000;

function gatewayAt(now: { t: number }, journal?: SandboxJournal): SandboxGateway {
  return new SandboxGateway({
    merchantKey: 'mk',
    payoutKey: 'pk',
    now: () => now.t,
    baseUrl: () => 'http://127.0.0.1:1',
    settleSeconds: 10,
    ...(journal !== undefined && { journal }),
    schedule: () => () => undefined,
  });
}

const value = <T>(answer: { ok: true; value: T } | { ok: false; failure: unknown }): T => {
  if (!answer.ok) throw new Error(`refused: ${JSON.stringify(answer.failure)}`);
  return answer.value;
};

describe('sandbox static addresses', () => {
  it('creates one per network, in its test form and valid for it; a memo on TON; refuses what the gateway refuses', () => {
    const g = gatewayAt({ t: T0 });
    const tron = value(g.staticAddresses.create({ network: 'TRC20', orderId: 'c-1' }));
    expect([tron.network, tron.orderId, tron.memo]).toEqual(['Tron Network', 'c-1', '']);
    expect(validateAddress('tron', tron.address)).toEqual({ ok: true });
    const btc = value(g.staticAddresses.create({ network: 'Bitcoin Network' }));
    expect(btc.address).toMatch(/^tb1q/);
    const ton = value(g.staticAddresses.create({ network: 'TON' }));
    expect(ton.memo).toBe(ton.trackId);
    expect(g.staticAddresses.create({})).toEqual({ ok: false, failure: { result: 101, message: 'Validation problem: network is required', key: 'network' } });
    expect(g.staticAddresses.create({ network: 'Atlantis' })).toMatchObject({ ok: false, failure: { result: 106 } });
    expect(g.staticAddresses.create({ network: 'TRON', callbackUrl: 'ftp://x' })).toMatchObject({ ok: false, failure: { result: 107 } });
  });

  it('lists newest first, one per page unless a size is sent (as documented), with its filters', () => {
    const now = { t: T0 };
    const g = gatewayAt(now);
    const a = value(g.staticAddresses.create({ network: 'TRON', orderId: 'c-1' }));
    now.t += 1000;
    const b = value(g.staticAddresses.create({ network: 'BTC', orderId: 'c-2' }));
    const first = value(g.staticAddresses.list({}));
    expect([first.addresses.map((x) => x.address), first.page, first.pages, first.total]).toEqual([[b.address], 1, 2, 2]);
    expect(value(g.staticAddresses.list({ size: '10' })).addresses.map((x) => x.address)).toEqual([b.address, a.address]);
    expect(value(g.staticAddresses.list({ network: 'Tron Network', size: '10' })).addresses.map((x) => x.orderId)).toEqual(['c-1']);
    expect(value(g.staticAddresses.list({ orderId: 'c-2' })).addresses.map((x) => x.trackId)).toEqual([b.trackId]);
    expect(value(g.staticAddresses.list({ haveTx: 'true' })).total).toBe(0);
    expect(g.staticAddresses.deposit(a.address, { kind: 'full' }).ok).toBe(true);
    expect(value(g.staticAddresses.list({ haveTx: 'true' })).addresses.map((x) => x.address)).toEqual([a.address]);
    expect(g.staticAddresses.list({ size: '201' })).toMatchObject({ ok: false, failure: { result: 101 } });
  });

  it('a deposit is a payment of type static address to that address, with its order id, that settles as asked', () => {
    const now = { t: T0 };
    const g = gatewayAt(now);
    const a = value(g.staticAddresses.create({ network: 'TRON', orderId: 'cust-42' }));
    const made = g.staticAddresses.deposit(a.address, { kind: 'partial', amount: '40', currency: 'USD' });
    if (!made.ok) throw new Error(made.message);
    expect([made.payment.kind, made.payment.address, made.payment.orderId, made.payment.payCurrency]).toEqual(['static-address', a.address, 'cust-42', 'USDT']);
    now.t += 11_000;
    const record = value(g.paymentInfo({ trackId: made.payment.trackId }));
    expect([record.kind, record.status, record.txs.length, record.txs.every((t) => t.address === a.address)]).toEqual(['static-address', 'underpaid', 2, true]);
    const history = value(g.paymentHistory({ address: a.address }, 'v1'));
    expect(history.payments.map((p) => p.trackId)).toEqual([made.payment.trackId]);
    expect(g.staticAddresses.deposit('TNope', { kind: 'full' })).toMatchObject({ ok: false, status: 404 });
    expect(g.staticAddresses.deposit(a.address, { kind: 'full', coin: 'BTC' })).toMatchObject({ ok: false, status: 400 });
  });

  it('kept beside the journal: another process lists it, sees its revocation, and answers for its payments', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-static-'));
    const file = path.join(dir, 'sandbox-payments.jsonl');
    const now = { t: T0 };
    const one = gatewayAt(now, new SandboxJournal(file));
    const a = value(one.staticAddresses.create({ network: 'TRON', orderId: 'cust-7', email: 'payer@example.com', callbackUrl: 'http://127.0.0.1:9/cb' }));
    const made = one.staticAddresses.deposit(a.address, { kind: 'full' });
    if (!made.ok) throw new Error(made.message);
    // This process keeps the whole address (its notifications need the callback URL).
    expect(made.payment.callbackUrl).toBe('http://127.0.0.1:9/cb');

    const two = gatewayAt(now, new SandboxJournal(file));
    const listed = value(two.staticAddresses.list({ size: '10' })).addresses;
    expect(listed.map((x) => [x.address, x.orderId, x.email, x.callbackUrl])).toEqual([[a.address, 'cust-7', '', '']]);
    now.t += 11_000;
    const record = value(two.paymentInfo({ trackId: made.payment.trackId }));
    expect([record.kind, record.address, record.status, record.orderId]).toEqual(['static-address', a.address, 'paid', 'cust-7']);
    expect(value(two.paymentHistory({ address: a.address }, 'v1')).payments.map((p) => p.trackId)).toEqual([made.payment.trackId]);

    expect(two.staticAddresses.revoke({ address: a.address }).ok).toBe(true);
    expect(value(one.staticAddresses.list({ size: '10' })).total).toBe(0);
    expect(one.staticAddresses.deposit(a.address, { kind: 'full' })).toMatchObject({ ok: false, status: 409 });
    expect(one.staticAddresses.revoke({ address: a.address })).toMatchObject({ ok: false, failure: { result: 101 } });
  });

  it('its qr_code is an image the sandbox serves: the coin URI without an amount, the memo inside (TON)', async () => {
    const g = gatewayAt({ t: T0 });
    const btc = value(g.staticAddresses.create({ network: 'Bitcoin Network' }));
    expect(btc.QRCode).toBe(`http://127.0.0.1:1/qr/${btc.trackId}.png`);
    const image = await g.qrImage(`${btc.trackId}.png`);
    expect(image.status).toBe(200);
    expect(decodePng(image.body as Buffer)).toBe(`bitcoin:${btc.address}`);
    const ton = value(g.staticAddresses.create({ network: 'TON' }));
    expect(decodePng((await g.qrImage(`${ton.trackId}.png`)).body as Buffer)).toMatch(new RegExp(`^ton://transfer/.+\\?text=${ton.memo}$`));
    expect((await g.qrImage('123.png')).status).toBe(404);
  });

  it('a file of addresses that cannot be used is said (exit 78), never taken for none', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-static-'));
    mkdirSync(path.join(dir, 'sandbox-static-addresses.jsonl'));
    const g = gatewayAt({ t: T0 }, new SandboxJournal(path.join(dir, 'sandbox-payments.jsonl')));
    const error = (() => {
      try {
        g.staticAddresses.list({});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(JournalError);
    expect((error as JournalError).exitCode).toBe(78);
    expect((error as JournalError).message).toMatch(/sandbox-static-addresses\.jsonl cannot be used: it is not a regular file$/);
  });
});
