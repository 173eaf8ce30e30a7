// Sandbox track ids carry the payment (src/sandbox/track-id.ts).
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../../src/sandbox/lifecycle.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { isKnownCurrency } from '../../src/sandbox/prices.js';
import { decodeTrackId, encodeTrackId, TRACK_ID_CURRENCIES, type TrackIdFields } from '../../src/sandbox/track-id.js';

const base: TrackIdFields = {
  createdAt: 1_795_320_170,
  lifeTime: 60,
  offering: 2,
  outcome: 'paid',
  settleSeconds: 10,
  currency: 'USDT',
  amount: '25',
  nonce: 4242,
};

describe('sandbox track ids', () => {
  it.each([
    {},
    { amount: '25.50' },
    { amount: '0.00038127', currency: 'BTC', offering: 0 },
    { amount: '1000000.000000000000000001', currency: 'ETH', offering: 1 },
    { amount: '0.5', currency: 'EUR', offering: SANDBOX_OFFERINGS.length - 1 },
    { lifeTime: 2880, settleSeconds: 3600, nonce: 65535, outcome: 'underpaid' as const },
    { lifeTime: 15, settleSeconds: 1, nonce: 0, outcome: 'expired' as const },
    { createdAt: 1_000_000, outcome: 'failed' as const },
    { createdAt: 4_102_444_800 }, // 2100-01-01
  ])('round trip %j', (change) => {
    const fields = { ...base, ...change };
    const id = encodeTrackId(fields);
    expect(id).toMatch(/^sbx[0-9a-z]+$/);
    expect(decodeTrackId(id!)).toEqual(fields);
  });

  it('a 25 USDT payment has a 26-character id', () => {
    expect(encodeTrackId(base)).toHaveLength(26);
  });

  it('carries every outcome and every offering', () => {
    for (const outcome of OUTCOMES)
      for (let offering = 0; offering < SANDBOX_OFFERINGS.length; offering++) {
        const fields = { ...base, outcome, offering };
        expect(decodeTrackId(encodeTrackId(fields)!)).toEqual(fields);
      }
  });

  it('ids of the first four outcomes are as they were (version 1); the situations added later decode too', () => {
    // What the encoder gave for `base` before the -late, -partial, -mixed and -refund situations existed.
    expect(encodeTrackId(base)).toBe('sbxtyzgsqcd5u9ia6gv3zcfq6e');
    expect(decodeTrackId('sbxtyzgsqcd5u9ia6gv3zcfq6e')).toEqual(base);
    for (const outcome of ['late', 'partial', 'mixed', 'refund'] as const) {
      const id = encodeTrackId({ ...base, outcome });
      expect(id).not.toBe(encodeTrackId(base));
      expect(decodeTrackId(id!)?.outcome).toBe(outcome);
    }
  });

  it('refuses what it cannot carry', () => {
    expect(encodeTrackId({ ...base, currency: 'XYZ' })).toBeUndefined();
    expect(encodeTrackId({ ...base, amount: '1'.repeat(41) })).toBeUndefined();
    expect(encodeTrackId({ ...base, amount: '-1' })).toBeUndefined();
    expect(encodeTrackId({ ...base, createdAt: -1 })).toBeUndefined();
    expect(encodeTrackId({ ...base, nonce: 65536 })).toBeUndefined();
  });

  it('a mistyped id is not another payment: nearly every one-character change fails its check', () => {
    const id = encodeTrackId(base)!;
    let decoded = 0;
    let tried = 0;
    for (let i = 3; i < id.length; i++) {
      for (const ch of '0123456789abcdefghijklmnopqrstuvwxyz') {
        if (ch === id[i]) continue;
        tried++;
        if (decodeTrackId(id.slice(0, i) + ch + id.slice(i + 1)) !== undefined) decoded++;
      }
    }
    expect(tried).toBeGreaterThan(800);
    expect(decoded).toBeLessThanOrEqual(2); // 12 check bits: about 1 in 4096 passes
  });

  it.each(['', 'sbx', 'sbx!!', '184729305', 'SBXabc', `sbx${'z'.repeat(81)}`])('%j is not a sandbox id', (id) => {
    expect(decodeTrackId(id)).toBeUndefined();
  });

  it('every currency it carries is one the sandbox prices', () => {
    for (const currency of TRACK_ID_CURRENCIES) expect(isKnownCurrency(currency), currency).toBe(true);
    for (const o of SANDBOX_OFFERINGS) expect(TRACK_ID_CURRENCIES).toContain(o.payCurrency);
  });
});
