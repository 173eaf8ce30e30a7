// gw listen reads each notification body once, through the engine's JSON.parse with the number
// literals put back (fastParse in src/notifications/decode.ts), and only the bodies it cannot vouch
// for through lossless-json (readSlowly). The two must read every body alike: the same fields,
// the same exact digits, the same refusals, the same repeated keys.
import { describe, expect, it } from 'vitest';
import { SAMPLE_PAYMENT } from '../support/notifications.js';
import { fastParse, readNotification, readSlowly } from '../../src/notifications/decode.js';
import { buildNotification, type NotificationPayment } from '../../src/notifications/payload.js';

const PAYMENT: NotificationPayment = { ...SAMPLE_PAYMENT, trackId: '184729305', description: 'Order "7" – café \\ 12:30', feePaidByPayer: 0 };

/** Real bodies: both styles, a payout, a confirming payment. */
const REAL = [
  buildNotification(PAYMENT, 'legacy').body,
  buildNotification(PAYMENT, 'v1').body,
  buildNotification({ ...PAYMENT, status: 'confirming' }, 'v1', 'invoice').body,
  buildNotification(PAYMENT, 'legacy', 'payout').body,
  JSON.stringify(JSON.parse(buildNotification(PAYMENT, 'v1').body), null, 2),
];

/** Bodies at the edges of JSON and of the scan. */
const EDGES = [
  '{"amount":0.100000000000000000000001,"big":12345678901234567890123,"exp":1.5e-7,"neg":-0,"E":1E+400,"small":-2.5e-400}',
  '{"a":"1,2:3","b":"\\"","c":"\\\\","d":"\\\\\\"x","e":"x\\\\","n":7}',
  '{"quote\\"key":1,"k":[1,"2",3.0,{"x":-4}],"t":true,"f":false,"z":null}',
  '  {\t"a" :\r\n 1 , "b":[ ] ,"c":{ } }\n',
  '{"1":2,"a":3}',
  '{"b":2.0,"1":2}',
  '{"a":{"2":"x","b":5}}',
  '{"\\u0031":1}',
  '{"a":"\\u0000","b":1}',
  '{"__proto__":{"x":1},"type":"payment"}',
  '{"_\\u005fproto__":{"x":1},"type":"payment"}',
  '{"a":1,"a":2}',
  '{"a":1,"a":1}',
  '{"t":{"s":"a","s":"b"},"n":1}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":-}',
  '{"a":1e}',
  '{"a":1e+}',
  '{"a":--1}',
  '{"a":1-2}',
  '{1:2}',
  '{"a":1,}',
  '{"a" 1}',
  '{"a":1}x',
  '{"a":"\u0001"}',
  '{"a":"unterminated}',
  '{"a":"\\x41"}',
  '[1,2]',
  '12',
  '"text"',
  'null',
  '',
  '{"a":tru}',
  '{"a":1true}',
  '{"a":[1 2]}',
  `{"a":${'['.repeat(300)}${']'.repeat(300)}}`,
  `{"a":${'['.repeat(200)}1${']'.repeat(200)}}`,
  '{"émoji":"😀","lone":"\\ud800","n":3}',
];

/** A small deterministic generator, so a failure can be reproduced. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

/** A body changed in one place: a character removed, repeated or replaced by one JSON cares about. */
function mutate(body: string, next: () => number): string {
  const at = Math.floor(next() * body.length);
  const pieces = ['{', '}', '[', ']', '"', ':', ',', '0', '1', '-', '.', 'e', '+', ' ', '\\', '\\"', '"a":1,', '1:', 'u0000'];
  const piece = pieces[Math.floor(next() * pieces.length)] ?? '';
  const kind = next();
  if (kind < 0.3) return body.slice(0, at) + body.slice(at + 1);
  if (kind < 0.5) return body.slice(0, at) + body.slice(at, at + 12) + body.slice(at);
  if (kind < 0.75) return body.slice(0, at) + piece + body.slice(at + 1);
  return body.slice(0, at) + piece + body.slice(at);
}

describe('fastParse reads every body as lossless-json does', () => {
  it.each([...REAL, ...EDGES])('%s', (body) => {
    expect(readNotification(Buffer.from(body))).toStrictEqual(readSlowly(body));
  });

  it('the same on thousands of bodies changed at random (structure, numbers, escapes, keys)', () => {
    const next = random(28);
    let mismatches = 0;
    for (let i = 0; i < 3000; i++) {
      let body = REAL[i % REAL.length] as string;
      for (let m = 1 + Math.floor(next() * 3); m > 0; m--) body = mutate(body, next);
      const fast = readNotification(Buffer.from(body));
      const slow = readSlowly(body);
      try {
        expect(fast).toStrictEqual(slow);
      } catch (error) {
        mismatches++;
        if (mismatches === 1) throw new Error(`differs on ${JSON.stringify(body)}: ${(error as Error).message}`);
      }
    }
    expect(mismatches).toBe(0);
  });

  it('takes the fast way for real notifications, and leaves to the slow way what it cannot vouch for', () => {
    for (const body of REAL) expect(fastParse(body)).toBeDefined();
    for (const body of ['{"a":1,"a":2}', '{"1":2}', '{"__proto__":{}}', '{"a":01}', '{1:2}', 'garbage']) expect(fastParse(body)).toBeUndefined();
  });
});
