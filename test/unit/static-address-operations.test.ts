// The static-address operations' codecs, round trip: a request as the client writes it is what the
// sandbox reads (snake_case, the documented kinds); an answer as the sandbox writes it is what the
// client reads. Only the versioned API has them, and they go there whatever `api` says.
import { stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { chooseEndpoint, decodeRequestFields } from '../../src/operations/codec.js';
import { CREATE_STATIC_ADDRESS, type StaticAddressRecord } from '../../src/operations/static-address.js';
import { STATIC_ADDRESS_LIST } from '../../src/operations/static-address-list.js';
import { REVOKE_STATIC_ADDRESS } from '../../src/operations/static-address-revoke.js';
import type { JsonObject } from '../../src/operations/read.js';
import { successReply } from '../../src/sandbox/envelopes.js';
import { parseLossless } from '../../src/util/json.js';

const travel = (value: unknown): JsonObject => parseLossless(stringify(value) ?? '') as JsonObject;
const asText = (read: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.entries(read).map(([k, v]) => [k, String(v)]));

const RECORD: StaticAddressRecord = {
  trackId: '151811887',
  network: 'TON Network',
  address: '0QAAGRw5G7bgo6WqEmG2x4IrDANiER1ETEMRq2PTsENhoqD2',
  memo: '40917',
  QRCode: 'http://127.0.0.1:1/qr/151811887.png',
  callbackUrl: 'https://shop.example/cb',
  email: 'payer@example.com',
  orderId: 'c-42',
  description: 'top-ups',
  date: 1736500000,
};

describe('static-address operations, round trip', () => {
  it('go over the versioned API whatever api says', () => {
    for (const op of [CREATE_STATIC_ADDRESS, STATIC_ADDRESS_LIST, REVOKE_STATIC_ADDRESS]) {
      expect(chooseEndpoint(op.name, op.endpoints, 'legacy')).toBe(op.endpoints.v1);
      expect(op.endpoints.v1.key).toEqual({ kind: 'merchant', header: 'merchant_api_key' });
    }
    expect([CREATE_STATIC_ADDRESS.idempotent, REVOKE_STATIC_ADDRESS.idempotent, STATIC_ADDRESS_LIST.idempotent]).toEqual([false, false, true]);
  });

  it('creating: the request written is the request read; the answer written is the answer read', () => {
    const endpoint = CREATE_STATIC_ADDRESS.endpoints.v1;
    const wire = CREATE_STATIC_ADDRESS.encodeRequest(endpoint, {
      network: 'TON',
      autoWithdrawal: false,
      orderId: 'c-42',
      callbackUrl: 'https://shop.example/cb',
    });
    expect(stringify(wire)).toBe('{"network":"TON","auto_withdrawal":0,"callback_url":"https://shop.example/cb","order_id":"c-42"}');
    expect(asText(decodeRequestFields(endpoint.request, travel(wire)))).toEqual({
      network: 'TON',
      autoWithdrawal: '0',
      callbackUrl: 'https://shop.example/cb',
      orderId: 'c-42',
    });
    const read = CREATE_STATIC_ADDRESS.decodeAnswer(endpoint, travel(successReply(endpoint, CREATE_STATIC_ADDRESS.encodeAnswer(endpoint, RECORD)).body), 'x');
    expect({
      trackId: read.trackId?.raw(),
      network: read.network?.raw(),
      address: read.address.raw(),
      memo: read.memo?.raw(),
      QRCode: read.QRCode?.raw(),
      callbackUrl: read.callbackUrl?.raw(),
      email: read.email?.raw(),
      orderId: read.orderId?.raw(),
      description: read.description?.raw(),
      date: read.date,
    }).toEqual(RECORD);
    // No memo is "": read as none.
    const plain = CREATE_STATIC_ADDRESS.decodeAnswer(
      endpoint,
      travel(successReply(endpoint, CREATE_STATIC_ADDRESS.encodeAnswer(endpoint, { ...RECORD, memo: '' })).body),
      'x',
    );
    expect(plain.memo).toBeNull();
  });

  it('the list: filters in the query as the sandbox reads them; a page written is the page read', () => {
    const endpoint = STATIC_ADDRESS_LIST.endpoints.v1;
    const wire = STATIC_ADDRESS_LIST.encodeRequest(endpoint, {
      trackId: '151811887',
      network: 'TON',
      haveTx: true,
      email: 'payer@example.com',
      page: 2,
      size: 50,
    });
    expect(asText(decodeRequestFields(endpoint.request, travel(wire)))).toEqual({
      trackId: '151811887',
      network: 'TON',
      haveTx: 'true',
      email: 'payer@example.com',
      page: '2',
      size: '50',
    });
    expect(() => STATIC_ADDRESS_LIST.encodeRequest(endpoint, { size: 201 })).toThrow(/from 1 to 200/);
    const page = STATIC_ADDRESS_LIST.decodeAnswer(
      endpoint,
      travel(successReply(endpoint, STATIC_ADDRESS_LIST.encodeAnswer(endpoint, { addresses: [RECORD], page: 2, pages: 3, total: 101 })).body),
      'x',
    );
    expect([page.addresses.map((a) => [a.trackId?.raw(), a.address.raw(), a.memo?.raw()]), page.page, page.pages, page.total]).toEqual([
      [[RECORD.trackId, RECORD.address, RECORD.memo]],
      2,
      3,
      101,
    ]);
  });

  it('revoking: {address}, and an empty data is the answer', () => {
    const endpoint = REVOKE_STATIC_ADDRESS.endpoints.v1;
    const wire = REVOKE_STATIC_ADDRESS.encodeRequest(endpoint, { address: RECORD.address });
    expect(asText(decodeRequestFields(endpoint.request, travel(wire)))).toEqual({ address: RECORD.address });
    expect(REVOKE_STATIC_ADDRESS.decodeAnswer(endpoint, travel(successReply(endpoint, REVOKE_STATIC_ADDRESS.encodeAnswer()).body), 'x')).toBe(true);
    expect(() => REVOKE_STATIC_ADDRESS.decodeAnswer(endpoint, travel({ message: 'ok' }), 'x')).toThrow(/no data object/);
  });
});
