// The notification signature rule (src/notifications/signature.ts): published HMAC-SHA512 vectors
// (RFC 4231), fixed vectors computed with openssl, a second implementation (crypto.createHmac
// called here) for everything else, the header read case-insensitively, the constant-time path,
// the key chosen by type, and every diagnosis of why a signature does not verify.
import * as nodeCrypto from 'node:crypto';
import { createHmac } from 'node:crypto';
type NodeCrypto = typeof nodeCrypto;
import { describe, expect, it, vi } from 'vitest';

// Spy on timingSafeEqual while keeping the real one: the constant-time path is observable.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<NodeCrypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const { NotificationKeys, digestsEqual, keyKindForType, signBody, signatureFromHeaders, verifyNotification, SIGNATURE_HEX_LENGTH } = await import(
  '../../src/notifications/signature.js'
);
const { diagnose } = await import('../../src/notifications/signature-diagnosis.js');

const MERCHANT = 'Zk3LqP9x-W2mVb7Rt-Hy6NcT1s';
const PAYOUT = 'Pq8Xw2Lm-Rt5Yu1Io-Kj7Hg3Fd';
const keys = new NotificationKeys({ merchant: MERCHANT, payout: PAYOUT });

/** The independent implementation: what a merchant's receiver computes. */
const hmac = (key: string, body: string | Buffer): string => createHmac('sha512', key).update(body).digest('hex');

const LEGACY_BODY =
  '{"status":"Paid","trackId":"184729305","type":"payment","orderId":"ORD-7","amount":"25","currency":"USDT","payAmount":"25","payCurrency":"USDT","network":"Tron Network","address":"TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe","txID":"","date":"1750000000","payDate":"1750000300"}';
const PAYOUT_BODY = '{"status":"Complete","trackId":"99","type":"payout","amount":"10.50","currency":"USDT","address":"https://x/y","note":"café"}';

describe('signBody: HMAC-SHA512 as lower-case hex', () => {
  it.each([
    // RFC 4231 test cases 1 and 2 (HMAC-SHA-512).
    [
      '\u000b'.repeat(20),
      'Hi There',
      '87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854',
    ],
    [
      'Jefe',
      'what do ya want for nothing?',
      '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
    ],
    // openssl dgst -sha512 -hmac <key> over the legacy body.
    [MERCHANT, LEGACY_BODY, 'f76f83a97b00da30fcea4ffd536fa8e4e098f930173c640506b7f09b4a4abc0dd111de473a7d4f9a045b48afee152949289c750b582c89ca835e882f86a2e704'],
    [PAYOUT, LEGACY_BODY, '3e0e12ef51402cf1124d57475425ba703d04bf928b24ca6a36cbd8302df20d4de9e046eb0426e5676106a87efb96afc4e3ef4ae656bbe3fbf6dfbe6875c04156'],
  ])('vector %#', (key, body, expected) => {
    expect(signBody(key, body)).toBe(expected);
    expect(signBody(key, Buffer.from(body, 'utf8'))).toBe(expected);
    expect(expected).toHaveLength(SIGNATURE_HEX_LENGTH);
  });

  it('agrees with crypto.createHmac on bodies with non-ASCII text, line breaks and no JSON at all', () => {
    for (const body of [PAYOUT_BODY, `${LEGACY_BODY}\n`, '', 'not json', '{"a":"\u202e\u001b[31m"}']) {
      expect(signBody(MERCHANT, body)).toBe(hmac(MERCHANT, body));
      expect(keys.digest('payout', body)?.toString('hex')).toBe(hmac(PAYOUT, body));
    }
  });
});

describe('keyKindForType: merchant key for payment types, payout key for payouts', () => {
  it.each([
    ['payment', 'merchant'],
    ['invoice', 'merchant'],
    ['white_label', 'merchant'],
    ['static_address', 'merchant'],
    ['payment_link', 'merchant'],
    ['donation', 'merchant'],
    ['Payment', 'merchant'],
    [' payout ', 'payout'],
    ['PAYOUT', 'payout'],
    ['refund', undefined],
    ['', undefined],
    [undefined, undefined],
    [null, undefined],
  ] as const)('%j → %s', (type, kind) => {
    expect(keyKindForType(type)).toBe(kind);
  });
});

describe('signatureFromHeaders: the HMAC header, whatever the case of its name', () => {
  const sig = 'ab'.repeat(64);
  it.each([{ hmac: sig }, { HMAC: sig }, { Hmac: sig }, { hMaC: ` ${sig} ` }, { hmac: [sig, 'other'] }, { 'content-type': 'x', HMAC: sig }])(
    '%j',
    (headers) => {
      expect(signatureFromHeaders(headers)).toBe(sig);
    },
  );
  it('undefined without one', () => {
    expect(signatureFromHeaders({ 'x-hmac': sig, hmac_: sig })).toBeUndefined();
  });
});

describe('verifyNotification', () => {
  const payment = Buffer.from(LEGACY_BODY);
  const payout = Buffer.from(PAYOUT_BODY);

  it('verifies a payment notification signed with the merchant key, and a payout one with the payout key', () => {
    expect(verifyNotification(payment, hmac(MERCHANT, LEGACY_BODY), 'payment', keys)).toEqual({ verified: true, keyKind: 'merchant', typeKnown: true });
    expect(verifyNotification(payout, hmac(PAYOUT, PAYOUT_BODY), 'payout', keys)).toEqual({ verified: true, keyKind: 'payout', typeKnown: true });
    for (const type of ['invoice', 'white_label', 'static_address', 'payment_link', 'donation']) {
      expect(verifyNotification(payment, hmac(MERCHANT, LEGACY_BODY), type, keys).verified).toBe(true);
    }
  });

  it.each([
    ['no header', undefined, 'payment', 'missing-signature', 401],
    ['empty header', '', 'payment', 'missing-signature', 401],
    ['upper-case hex', hmac(MERCHANT, LEGACY_BODY).toUpperCase(), 'payment', 'malformed-signature', 403],
    ['cut short', hmac(MERCHANT, LEGACY_BODY).slice(0, 64), 'payment', 'malformed-signature', 403],
    ['not hex', 'z'.repeat(128), 'payment', 'malformed-signature', 403],
    ['the payout key on a payment', hmac(PAYOUT, LEGACY_BODY), 'payment', 'wrong-key-kind', 403],
    ['the merchant key on a payout', hmac(MERCHANT, LEGACY_BODY), 'payout', 'wrong-key-kind', 403],
    ['another key', hmac('another-key-entirely', LEGACY_BODY), 'payment', 'mismatch', 403],
    ['last character changed', hmac(MERCHANT, LEGACY_BODY).replace(/.$/, (c) => (c === '0' ? '1' : '0')), 'payment', 'mismatch', 403],
    ['the body with a trailing newline signed', hmac(MERCHANT, `${LEGACY_BODY}\n`), 'payment', 'mismatch', 403],
  ] as const)('%s', (_what, signature, type, code, httpStatus) => {
    const verdict = verifyNotification(payment, signature, type, keys);
    expect(verdict).toMatchObject({ verified: false, code, httpStatus });
    if (!verdict.verified) expect(verdict.message).not.toMatch(new RegExp(`${MERCHANT}|${PAYOUT}`));
  });

  it('a type without a key configured: no-key, naming the key', () => {
    const merchantOnly = new NotificationKeys({ merchant: MERCHANT });
    expect(verifyNotification(payout, hmac(PAYOUT, PAYOUT_BODY), 'payout', merchantOnly)).toMatchObject({
      verified: false,
      code: 'no-key',
      message: 'no payout API key is configured to verify a "payout" notification',
    });
  });

  it('no or an unknown type: either key verifies it, and says which', () => {
    expect(verifyNotification(payment, hmac(PAYOUT, LEGACY_BODY), undefined, keys)).toEqual({ verified: true, keyKind: 'payout', typeKnown: false });
    expect(verifyNotification(payment, hmac(MERCHANT, LEGACY_BODY), 'mystery', keys)).toEqual({ verified: true, keyKind: 'merchant', typeKnown: false });
    expect(verifyNotification(payment, hmac('x-key-unknown', LEGACY_BODY), 'mystery', keys)).toMatchObject({ verified: false, code: 'mismatch' });
  });

  it('an attacker-chosen type never reaches a message unescaped', () => {
    const verdict = verifyNotification(payment, hmac('nope-nope', LEGACY_BODY), undefined, new NotificationKeys({}));
    expect(verdict).toMatchObject({ verified: false, code: 'no-key' });
  });
});

describe('the constant-time path', () => {
  const spy = vi.mocked(nodeCrypto.timingSafeEqual);
  const body = Buffer.from(LEGACY_BODY);
  const right = hmac(MERCHANT, LEGACY_BODY);

  it('every well-formed signature, right or wrong at any position, is compared with timingSafeEqual on two 64-byte buffers', () => {
    for (const signature of [
      right,
      `0${right.slice(1)}`.replace(/^0/, right[0] === '0' ? '1' : '0'),
      `${right.slice(0, 127)}${right[127] === '0' ? '1' : '0'}`,
    ]) {
      spy.mockClear();
      verifyNotification(body, signature, 'payment', keys);
      expect(spy).toHaveBeenCalled();
      for (const [a, b] of spy.mock.calls) {
        expect((a as Buffer).length).toBe(64);
        expect((b as Buffer).length).toBe(64);
      }
    }
  });

  it('digestsEqual: unequal lengths are unequal without calling timingSafeEqual (which would throw)', () => {
    spy.mockClear();
    expect(digestsEqual(Buffer.alloc(64), Buffer.alloc(63))).toBe(false);
    expect(spy).not.toHaveBeenCalled();
    expect(digestsEqual(Buffer.alloc(64, 1), Buffer.alloc(64, 1))).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe('NotificationKeys never shows a key', () => {
  it('in JSON, strings or inspection', () => {
    const shown = [JSON.stringify({ keys }), String(keys), `${keys}`].join(' ');
    expect(shown).not.toContain(MERCHANT);
    expect(shown).not.toContain(PAYOUT);
    expect(keys.kinds).toEqual(['merchant', 'payout']);
    expect(new NotificationKeys({ merchant: '', payout: undefined }).kinds).toEqual([]);
  });
});

describe('diagnose: why a signature does not verify', () => {
  const pretty = JSON.stringify(JSON.parse(LEGACY_BODY), null, 2);
  const python = LEGACY_BODY.replace(/","/g, '", "').replace(/":"/g, '": "');
  const sorted = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(LEGACY_BODY) as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))));
  const phpEscaped = PAYOUT_BODY.replace(/\//g, '\\/').replace('é', '\\u00e9');

  it('verifies as is: no causes', () => {
    expect(diagnose(Buffer.from(LEGACY_BODY), hmac(MERCHANT, LEGACY_BODY), 'payment', keys)).toEqual({
      verified: true,
      keyKind: 'merchant',
      expectedKind: 'merchant',
      causes: [],
    });
  });

  // [what, body the receiver has, signature (of the bytes the gateway signed), type, expected cause codes, key found]
  it.each([
    ['payout key on a payment', LEGACY_BODY, hmac(PAYOUT, LEGACY_BODY), 'payment', ['wrong-key-kind'], 'payout'],
    ['merchant key on a payout', PAYOUT_BODY, hmac(MERCHANT, PAYOUT_BODY), 'payout', ['wrong-key-kind'], 'merchant'],
    ['trailing newline added (LF)', `${LEGACY_BODY}\n`, hmac(MERCHANT, LEGACY_BODY), 'payment', ['trailing-newline-added'], 'merchant'],
    ['trailing newline added (CRLF)', `${LEGACY_BODY}\r\n`, hmac(MERCHANT, LEGACY_BODY), 'payment', ['trailing-newline-added'], 'merchant'],
    ['trailing newline removed', LEGACY_BODY, hmac(MERCHANT, `${LEGACY_BODY}\n`), 'payment', ['trailing-newline-removed'], 'merchant'],
    ['pretty-printed copy of a compact body', pretty, hmac(MERCHANT, LEGACY_BODY), 'payment', ['reserialised'], 'merchant'],
    ['compact copy of a body sent with Python separators', LEGACY_BODY, hmac(MERCHANT, python), 'payment', ['reserialised'], 'merchant'],
    ['key order changed (the gateway sent them sorted)', LEGACY_BODY, hmac(MERCHANT, sorted), 'payment', ['reserialised'], 'merchant'],
    ['escaping undone (the gateway escaped / and é)', PAYOUT_BODY, hmac(PAYOUT, phpEscaped), 'payout', ['reserialised'], 'payout'],
    [
      'numbers re-written by a JSON parser',
      '{"type":"payment","amount":10.5}',
      hmac(MERCHANT, '{"type":"payment","amount":10.50}'),
      'payment',
      ['no-match'],
      undefined,
    ],
    [
      'numbers: the copy kept 10.50, the gateway wrote 10.5',
      '{"type":"payment","amount":10.50}',
      hmac(MERCHANT, '{"type":"payment","amount":10.5}'),
      'payment',
      ['reserialised'],
      'merchant',
    ],
    ['re-serialised AND the wrong key', pretty, hmac(PAYOUT, LEGACY_BODY), 'payment', ['wrong-key-kind', 'reserialised'], 'payout'],
    ['upper-case signature', LEGACY_BODY, hmac(MERCHANT, LEGACY_BODY).toUpperCase(), 'payment', ['uppercase'], 'merchant'],
    ['truncated signature', LEGACY_BODY, hmac(MERCHANT, LEGACY_BODY).slice(0, 100), 'payment', ['truncated'], 'merchant'],
    ['base64 signature', LEGACY_BODY, createHmac('sha512', MERCHANT).update(LEGACY_BODY).digest('base64'), 'payment', ['base64'], 'merchant'],
    ['HMAC-SHA256', LEGACY_BODY, createHmac('sha256', MERCHANT).update(LEGACY_BODY).digest('hex'), 'payment', ['sha256'], 'merchant'],
    ['another key altogether', LEGACY_BODY, hmac('someone-else-key', LEGACY_BODY), 'payment', ['no-match'], undefined],
    ['garbage signature', LEGACY_BODY, 'not a signature', 'payment', ['malformed', 'no-match'], undefined],
    ['CRLF line endings became LF', pretty, hmac(MERCHANT, pretty.replace(/\n/g, '\r\n')), 'payment', ['line-endings'], 'merchant'],
  ] as const)('%s', (_what, body, signature, type, codes, keyKind) => {
    const d = diagnose(Buffer.from(body, 'utf8'), signature, type, keys);
    expect(d.verified).toBe(false);
    expect(d.causes.map((c) => c.code)).toEqual(codes);
    expect(d.keyKind).toBe(keyKind);
    for (const cause of d.causes) {
      expect(cause.message.length).toBeGreaterThan(20);
      expect(cause.message).not.toContain(MERCHANT);
      expect(cause.message).not.toContain(PAYOUT);
    }
  });

  it.each([
    ['signed with CRLF, received with LF', pretty.replace(/\n/g, '\r\n'), pretty, 'CRLF line endings became LF'],
    ['signed with LF, received with CRLF', pretty, pretty.replace(/\n/g, '\r\n'), 'LF line endings became CRLF'],
  ])('line endings, %s: says which way they changed', (_what, signed, received, says) => {
    const d = diagnose(Buffer.from(received), hmac(MERCHANT, signed), 'payment', keys);
    expect(d.causes.map((c) => c.code)).toEqual(['line-endings']);
    expect(d.causes[0]?.message).toContain(`(${says})`);
  });

  it('says what the re-serialisation was', () => {
    const d = diagnose(Buffer.from(pretty), hmac(MERCHANT, LEGACY_BODY), 'payment', keys);
    expect(d.causes[0]?.message).toMatch(/written compactly/);
    const s = diagnose(Buffer.from(LEGACY_BODY), hmac(MERCHANT, sorted), 'payment', keys);
    expect(s.causes[0]?.message).toMatch(/sorted order/);
    const p = diagnose(Buffer.from(PAYOUT_BODY), hmac(PAYOUT, phpEscaped), 'payout', keys);
    expect(p.causes[0]?.message).toMatch(/json_encode/);
  });

  it('an unknown type verifies with either key, with a note', () => {
    const d = diagnose(Buffer.from('hello'), hmac(PAYOUT, 'hello'), undefined, keys);
    expect(d).toMatchObject({ verified: true, keyKind: 'payout', expectedKind: undefined });
    expect(d.causes.map((c) => c.code)).toEqual(['type-unknown']);
  });

  it('no key configured: says so', () => {
    expect(diagnose(Buffer.from(LEGACY_BODY), 'x', 'payment', new NotificationKeys({})).causes.map((c) => c.code)).toEqual(['no-key']);
  });

  it('a hostile body (deep nesting, huge numbers, proto keys) is diagnosed without throwing', () => {
    for (const body of ['['.repeat(50_000), '{"__proto__":{"x":1},"type":"payment"}', `{"a":1e999999,"type":"payment"}`, '\u0000\uffff']) {
      expect(() => diagnose(Buffer.from(body), hmac('other-key-xx', body), 'payment', keys)).not.toThrow();
    }
  });
});
