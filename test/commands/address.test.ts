// gw address new / list / revoke, run functions against a fake gateway that answers only what the
// test gives it (anything else asked throws): what is sent, what is shown, which exit code.
import { describe, expect, it } from 'vitest';
import { addressListRun, addressNewRun, addressRevokeRun, buildAddressFilter, buildAddressRequest } from '../../src/commands/address.js';
import { ExitCode, GwError, UsageError } from '../../src/errors.js';
import { CREATE_STATIC_ADDRESS, type StaticAddress } from '../../src/operations/static-address.js';
import { STATIC_ADDRESS_LIST, type StaticAddressPage } from '../../src/operations/static-address-list.js';
import { IOStreams } from '../../src/output/iostreams.js';
import { testNetworkAddress } from '../../src/payment-uri/test-addresses.js';
import { parseLossless } from '../../src/util/json.js';
import type { JsonObject } from '../../src/operations/read.js';
import { FakeGateway } from '../support/fake-gateway.js';
import { ScriptedPrompter } from '../support/prompter.js';
import { decodeScreen, decodeTerminalQr } from '../support/qr-decode.js';
import { VirtualTerminal } from '../support/terminal.js';

const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const TRON = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';
const TON = testNetworkAddress('sandbox-address', 'ton', 'address-test');
const TRON_2 = testNetworkAddress('sandbox-address', 'tron', 'address-test');

/** A static address as the gateway's versioned answer gives it (`data`). */
function addressOf(fields: Record<string, unknown>): StaticAddress {
  const body = parseLossless(JSON.stringify({ data: { track_id: '151811887', date: 1736500000, ...fields } })) as JsonObject;
  return CREATE_STATIC_ADDRESS.decodeAnswer(CREATE_STATIC_ADDRESS.endpoints.v1, body, 'the test');
}

function pageOf(rows: Array<Record<string, unknown>>, meta = { page: 1, last_page: 1, total: rows.length }): StaticAddressPage {
  const body = parseLossless(JSON.stringify({ data: { list: rows, meta } })) as JsonObject;
  return STATIC_ADDRESS_LIST.decodeAnswer(STATIC_ADDRESS_LIST.endpoints.v1, body, 'the test');
}

const failure = async (promise: Promise<unknown>): Promise<GwError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GwError);
  return error as GwError;
};

describe('gw address new', () => {
  it('checks its arguments before anything is sent: the network is required', () => {
    expect(() => buildAddressRequest({})).toThrow(UsageError);
    expect(() => buildAddressRequest({ network: 'TRON', email: 'not-an-address' })).toThrow(/--email must be an e-mail address/);
    expect(() => buildAddressRequest({ network: 'TRON', callbackUrl: 'ftp://x' })).toThrow(UsageError);
    expect(buildAddressRequest({ network: ' TRON ', orderId: 'c-42', autoWithdrawal: true, toCurrency: 'usdt' })).toEqual({
      network: 'TRON',
      orderId: 'c-42',
      autoWithdrawal: true,
      toCurrency: 'USDT',
    });
  });

  it('sends the request, shows the address with its network and a QR that decodes to a coin URI without an amount', async () => {
    const gateway = new FakeGateway({ performed: { 'creating a static address': addressOf({ network: 'Bitcoin Network', address: BTC, order_id: 'c-42' }) } });
    const t = IOStreams.test({ stdoutTTY: true, width: 120, height: 60, color: true });
    await addressNewRun({ io: t.io, gateway: async () => gateway, request: { network: 'BTC', orderId: 'c-42' }, currency: 'BTC', qr: 'auto' });
    expect(gateway.calls).toEqual([{ method: 'perform', args: ['creating a static address', { network: 'BTC', orderId: 'c-42' }] }]);
    const out = t.stdout();
    expect(out).toContain(BTC);
    expect(out).toMatch(/Track ID +151811887/);
    expect(out).toMatch(/Order ID +c-42/);
    expect(out).toMatch(new RegExp(`\\nURI +bitcoin:${BTC}\\n`));
    for (const theme of ['dark', 'light'] as const) expect(decodeTerminalQr(out, theme)).toBe(`bitcoin:${BTC}`);
  });

  it('a memo network whose URI carries it: the memo shown prominently and inside the URI the QR holds', async () => {
    const gateway = new FakeGateway({ performed: { 'creating a static address': addressOf({ network: 'TON Network', address: TON, memo: '40917' }) } });
    const t = IOStreams.test({ stdoutTTY: true, width: 140, height: 60, color: true });
    await addressNewRun({ io: t.io, gateway: async () => gateway, request: { network: 'TON' }, qr: 'auto' });
    const out = t.stdout();
    expect(out).toMatch(/Memo .*40917.*required with every payment/);
    const decoded = decodeTerminalQr(out, 'dark');
    expect(decoded).toMatch(/^ton:\/\/transfer\/.+\?text=40917$/);
    expect(decoded).not.toMatch(/amount=/);
  });

  it('on an 80x24 terminal the QR, the address under it and what follows stay on the screen: it scans there', async () => {
    const gateway = new FakeGateway({ performed: { 'creating a static address': addressOf({ network: 'TON Network', address: TON, memo: '40917' }) } });
    const t = IOStreams.test({ stdoutTTY: true, width: 80, height: 24, color: true });
    await addressNewRun({ io: t.io, gateway: async () => gateway, request: { network: 'TON' }, qr: 'auto' });
    const screen = new VirtualTerminal(80, 24).write(`${t.stderr()}${t.stdout()}$ `);
    for (const theme of ['dark', 'light'] as const) expect(decodeScreen(screen.ansi(), theme)).toMatch(/^ton:\/\/transfer\/.+\?text=40917$/);
    expect(screen.text()).toMatch(new RegExp(`^Address +${TON}$`, 'm'));
  });

  it('a QR taller than the screen (two columns per module without UTF-8) is not drawn: one warning', async () => {
    const gateway = new FakeGateway({ performed: { 'creating a static address': addressOf({ network: 'TON Network', address: TON, memo: '40917' }) } });
    const t = IOStreams.test({ stdoutTTY: true, width: 100, height: 30, color: true, env: { LC_ALL: 'C' } });
    await addressNewRun({ io: t.io, gateway: async () => gateway, request: { network: 'TON' }, qr: 'auto' });
    expect(t.stdout()).not.toContain('##');
    expect(t.stderr()).toMatch(/the QR code needs \d+ lines and the terminal has 30: LC_ALL=C is not a UTF-8 locale/);
    expect(t.stdout().replace(/\u001b\[[0-9;]*m/g, '')).toMatch(new RegExp(`^Address +${TON}$`, 'm'));
  });

  it('a [currency] gw knows on no such network (BTC on Tron): shown, with one warning that the QR holds only the address', async () => {
    const gateway = new FakeGateway({ performed: { 'creating a static address': addressOf({ network: 'Tron Network', address: TRON }) } });
    const t = IOStreams.test({ stdoutTTY: true, width: 120, height: 60, color: true });
    await addressNewRun({ io: t.io, gateway: async () => gateway, request: { network: 'TRON' }, currency: 'BTC', qr: 'auto' });
    expect(t.stderr()).toMatch(/warning: gw knows no BTC on Tron \(TRC-20\): the QR code holds only the address/);
    const ok = IOStreams.test({ stdoutTTY: true, width: 120, height: 60, color: true });
    await addressNewRun({ io: ok.io, gateway: async () => gateway, request: { network: 'TRON' }, currency: 'USDT', qr: 'auto' });
    expect(ok.stderr()).toBe('');
  });

  it('a memo the URI cannot carry: no QR and no URI, the memo said in words (as gw pay does); --json "uri": null', async () => {
    const answer = addressOf({ network: 'Bitcoin Network', address: BTC, memo: '777' });
    const t = IOStreams.test({ stdoutTTY: true, width: 120, height: 60, color: true });
    await addressNewRun({
      io: t.io,
      gateway: async () => new FakeGateway({ performed: { 'creating a static address': answer } }),
      request: { network: 'BTC' },
      qr: 'always',
    });
    const out = t.stdout();
    expect(decodeTerminalQr(out, 'dark')).toBeNull();
    expect(out).not.toContain(`bitcoin:${BTC}`);
    expect(out).toMatch(/No QR code: this payment needs a memo/);
    const j = IOStreams.test({ json: true });
    await addressNewRun({
      io: j.io,
      gateway: async () => new FakeGateway({ performed: { 'creating a static address': answer } }),
      request: { network: 'BTC' },
      qr: 'auto',
    });
    const doc = JSON.parse(j.stdout());
    expect([doc.address, doc.memo, doc.uri, doc.trackId]).toEqual([BTC, '777', null, '151811887']);
  });

  it('--json: one document, every field the gateway sent, the URI', async () => {
    const t = IOStreams.test({ json: true });
    const answer = addressOf({ network: 'Tron Network', address: TRON, qr_code: 'https://x.example/qr', callback_url: 'https://shop.example/cb' });
    await addressNewRun({
      io: t.io,
      gateway: async () => new FakeGateway({ performed: { 'creating a static address': answer } }),
      request: { network: 'TRON' },
      currency: 'USDT',
      qr: 'auto',
    });
    expect(JSON.parse(t.stdout())).toEqual({
      trackId: '151811887',
      date: 1736500000,
      network: 'Tron Network',
      address: TRON,
      QRCode: 'https://x.example/qr',
      callbackUrl: 'https://shop.example/cb',
      memo: null,
      currency: 'USDT',
      uri: expect.stringContaining(TRON),
    });
    expect(t.stderr()).toBe('');
  });

  it('an address not valid for its network is never shown: exit 76, one line saying it was created', async () => {
    const bad = addressOf({ network: 'Bitcoin Network', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdX' });
    const t = IOStreams.test({ stdoutTTY: true, width: 120, height: 60 });
    const error = await failure(
      addressNewRun({
        io: t.io,
        gateway: async () => new FakeGateway({ performed: { 'creating a static address': bad } }),
        request: { network: 'BTC' },
        qr: 'auto',
      }),
    );
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toMatch(/^static address 151811887 was created, but the gateway sent an address that is not valid for Bitcoin.*; it is not shown$/);
    expect(t.stdout()).toBe('');
  });

  it('a timeout may have created one: said, with how to check', async () => {
    const t = IOStreams.test();
    const timeout = new GwError(ExitCode.TEMPFAIL, 'the static address request timed out');
    const error = await failure(
      addressNewRun({
        io: t.io,
        gateway: async () => new FakeGateway({ performed: { 'creating a static address': timeout } }),
        request: { network: 'TRON', orderId: 'c-9' },
        qr: 'auto',
      }),
    );
    expect(error.message).toBe('the static address request timed out: an address may have been created');
    expect(error.hint).toBe('check with gw address list --order-id c-9 before trying again');
  });
});

describe('gw address list', () => {
  const rows = [
    { track_id: '1', address: TRON, network: 'Tron Network', order_id: 'c-1', date: 1736500000 },
    { track_id: '2', address: TRON_2, network: 'Tron Network', order_id: 'c-2', date: 1736500001 },
  ];

  it('sends the filters and a page size (the gateway’s own default is one row); a table of the rows', async () => {
    const gateway = new FakeGateway({ performed: { 'the static address list': pageOf(rows.slice(0, 1)) } });
    const t = IOStreams.test();
    const { filter, all } = buildAddressFilter({ network: 'TRON', withPayments: true });
    await addressListRun({ io: t.io, gateway: async () => gateway, filter, all });
    expect(gateway.calls).toEqual([{ method: 'perform', args: ['the static address list', { network: 'TRON', haveTx: true, size: 10 }] }]);
    expect(t.stdout()).toMatch(/Track ID +Network +Address/);
    expect(t.stdout()).toContain(TRON);
  });

  it('a row that contradicts a filter is not shown, and the listing says it is incomplete (exit 76)', async () => {
    const t = IOStreams.test({ json: true });
    const gateway = new FakeGateway({ performed: { 'the static address list': pageOf(rows) } });
    const error = await failure(addressListRun({ io: t.io, gateway: async () => gateway, filter: { address: TRON }, all: false }));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toBe('the listing is incomplete: the gateway sent 1 address that did not match the filters (not shown); 1 address shown');
    const doc = JSON.parse(t.stdout());
    expect([doc.addresses.map((a: { address: string }) => a.address), doc.complete]).toEqual([[TRON], false]);
  });

  it('a listed address not valid for its network is never shown: the others are, then exit 76 naming it', async () => {
    const listed = [...rows, { track_id: '3', address: 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZf', network: 'Tron Network', order_id: 'c-3', date: 1736500002 }];
    const gateway = new FakeGateway({ performed: { 'the static address list': pageOf(listed) } });
    const t = IOStreams.test();
    const error = await failure(addressListRun({ io: t.io, gateway: async () => gateway, filter: {}, all: false }));
    expect(error.exitCode).toBe(ExitCode.PROTOCOL);
    expect(error.message).toMatch(/^the listing is incomplete: address 3: .*not valid for Tron.*; not shown; 2 addresses shown$/);
    expect(t.stdout()).toContain(TRON);
    expect(t.stdout()).toContain(TRON_2);
    expect(t.stdout()).not.toContain('TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZf');
    const j = IOStreams.test({ json: true });
    await failure(addressListRun({ io: j.io, gateway: async () => gateway, filter: {}, all: false }));
    const doc = JSON.parse(j.stdout());
    expect([doc.addresses.map((a: { trackId: string }) => a.trackId), doc.complete]).toEqual([['1', '2'], false]);
  });

  it('--all reads every page at the largest size', async () => {
    const pages = [pageOf(rows.slice(0, 1), { page: 1, last_page: 2, total: 2 }), pageOf(rows.slice(1), { page: 2, last_page: 2, total: 2 })];
    const gateway = new FakeGateway({ performed: { 'the static address list': () => pages.shift() } });
    const t = IOStreams.test({ json: true });
    await addressListRun({ io: t.io, gateway: async () => gateway, filter: {}, all: true });
    expect(gateway.calls.map((c) => c.args[1])).toEqual([
      { size: 200, page: 1 },
      { size: 200, page: 2 },
    ]);
    expect(JSON.parse(t.stdout()).addresses).toHaveLength(2);
  });

  it('--all: an address twice on one page is listed once', async () => {
    const pages = [pageOf([rows[0]!, rows[0]!], { page: 1, last_page: 2, total: 2 }), pageOf(rows.slice(1), { page: 2, last_page: 2, total: 2 })];
    const gateway = new FakeGateway({ performed: { 'the static address list': () => pages.shift() } });
    const t = IOStreams.test({ json: true });
    await addressListRun({ io: t.io, gateway: async () => gateway, filter: {}, all: true });
    expect((JSON.parse(t.stdout()) as { addresses: Array<{ trackId: string }> }).addresses.map((a) => a.trackId)).toEqual(['1', '2']);
  });

  it('checks its flags before anything is sent', () => {
    expect(() => buildAddressFilter({ withPayments: true, withoutPayments: true })).toThrow(UsageError);
    expect(() => buildAddressFilter({ size: '201' })).toThrow(/--size must be a whole number from 1 to 200/);
    expect(() => buildAddressFilter({ all: true, page: '2' })).toThrow(UsageError);
  });
});

describe('gw address list --all: streamed page by page', () => {
  const row = (id: string) => ({ track_id: id, address: Number(id) % 2 === 0 ? TRON_2 : TRON, network: 'Tron Network', order_id: `c-${id}`, date: 1736500000 });
  const page = (n: number, pages: number): StaticAddressPage => pageOf([row(`${n}1`), row(`${n}2`)], { page: n, last_page: pages, total: 2 * pages });

  it('--json: each page on stdout before the next is asked for, one document as printJson gives it', async () => {
    const t = IOStreams.test({ json: true });
    const before: string[] = [];
    const gateway = new FakeGateway({
      performed: {
        'the static address list': (_name: string, f: { page: number }) => {
          before.push(t.stdout());
          return page(f.page, 3);
        },
      },
    });
    await addressListRun({ io: t.io, gateway: async () => gateway, filter: {}, all: true });
    expect(before[0]).toBe('');
    expect(before[2]).toContain('"12"');
    expect(before[2]).toContain('"22"');
    const doc = JSON.parse(t.stdout());
    expect(doc.addresses.map((a: { trackId: string }) => a.trackId)).toEqual(['11', '12', '21', '22', '31', '32']);
    expect({ ...doc, addresses: [] }).toEqual({ addresses: [], page: 1, pages: 1, total: 6, complete: true });
    const whole = IOStreams.test({ json: true });
    whole.io.printJson(doc);
    expect(t.stdout()).toBe(whole.stdout());
  });

  it('a page that fails after the first: a valid document, "complete": false, with the rows read; the deadline exit 76, another failure its own code', async () => {
    for (const [stop, code] of [
      [new GwError(ExitCode.TEMPFAIL, 'the gateway did not answer within 15 s'), ExitCode.PROTOCOL],
      [new GwError(ExitCode.UNAVAILABLE, 'connection refused'), ExitCode.UNAVAILABLE],
    ] as const) {
      const t = IOStreams.test({ json: true });
      const gateway = new FakeGateway({
        performed: {
          'the static address list': (_name: string, f: { page: number }) => {
            if (f.page === 2) throw stop;
            return page(f.page, 3);
          },
        },
      });
      const error = await failure(addressListRun({ io: t.io, gateway: async () => gateway, filter: {}, all: true }));
      expect(error.exitCode).toBe(code);
      expect(error.message).toContain('the listing is incomplete: stopped before page 2 of 3');
      expect(error.message).toContain('2 addresses shown');
      const doc = JSON.parse(t.stdout());
      expect([doc.addresses.map((a: { trackId: string }) => a.trackId), doc.complete, doc.total]).toEqual([['11', '12'], false, 2]);
    }
  });

  it("the table: the header once, every page's rows under it", async () => {
    const t = IOStreams.test();
    const gateway = new FakeGateway({ performed: { 'the static address list': (_name: string, f: { page: number }) => page(f.page, 2) } });
    await addressListRun({ io: t.io, gateway: async () => gateway, filter: {}, all: true });
    const lines = t.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^Created +Track ID +Network +Address +Order ID$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/)[1])).toEqual(['11', '12', '21', '22']);
  });
});

describe('gw address revoke', () => {
  const revoked = { 'revoking a static address': true };

  it('without a terminal and without --yes: exit 64, nothing sent', async () => {
    const gateway = new FakeGateway({ performed: revoked });
    const t = IOStreams.test();
    const error = await failure(addressRevokeRun({ io: t.io, gateway: async () => gateway, address: TRON, yes: false }));
    expect(error.exitCode).toBe(ExitCode.USAGE);
    expect(error.message).toBe(`revoking ${TRON} needs a yes: run it on a terminal to be asked, or add --yes; nothing was sent`);
    expect(gateway.calls).toEqual([]);
  });

  it('--yes: sends {address} and says so', async () => {
    const gateway = new FakeGateway({ performed: revoked });
    const t = IOStreams.test({ json: true });
    await addressRevokeRun({ io: t.io, gateway: async () => gateway, address: TRON, yes: true });
    expect(gateway.calls).toEqual([{ method: 'perform', args: ['revoking a static address', { address: TRON }] }]);
    expect(JSON.parse(t.stdout())).toEqual({ address: TRON, revoked: true });
  });

  it('on a terminal it asks: yes revokes, no sends nothing', async () => {
    const yes = new ScriptedPrompter([{ ask: /^Revoke T/, kind: 'confirm', answer: true }]);
    const g1 = new FakeGateway({ performed: revoked });
    const t1 = IOStreams.test({ prompter: yes });
    await addressRevokeRun({ io: t1.io, gateway: async () => g1, address: TRON, yes: false });
    expect(g1.calls).toHaveLength(1);
    expect(t1.stdout()).toBe(`Revoked ${TRON}: payments sent to it from now on are not credited.\n`);
    const no = new ScriptedPrompter([{ ask: /^Revoke T/, kind: 'confirm', answer: false }]);
    const g2 = new FakeGateway({ performed: revoked });
    const error = await failure(addressRevokeRun({ io: IOStreams.test({ prompter: no }).io, gateway: async () => g2, address: TRON, yes: false }));
    expect([error.exitCode, error.message]).toEqual([ExitCode.REFUSED, `${TRON} was not revoked: nothing was sent`]);
    expect(g2.calls).toEqual([]);
  });
});

describe('the answer in its documented example’s shape', () => {
  it('the request echoed without a track id: the address is still read and shown', async () => {
    const body = parseLossless(JSON.stringify({ data: { network: 'TRON', address: TRON, order_id: 'c-1', callback_url: '' } })) as JsonObject;
    const answer = CREATE_STATIC_ADDRESS.decodeAnswer(CREATE_STATIC_ADDRESS.endpoints.v1, body, 'the test');
    expect([answer.trackId, answer.address.raw(), answer.orderId?.raw()]).toEqual([null, TRON, 'c-1']);
    const t = IOStreams.test();
    await addressNewRun({
      io: t.io,
      gateway: async () => new FakeGateway({ performed: { 'creating a static address': answer } }),
      request: { network: 'TRON' },
      qr: 'never',
    });
    expect(t.stdout()).toContain(TRON);
    expect(t.stdout()).not.toContain('Track ID');
  });
});
