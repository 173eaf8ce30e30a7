// Table-driven tests for the gateway answer decoding: src/gateway/envelope.ts (legacy `result` and
// versioned `status`/`error` envelopes, HTTP fallbacks), src/gateway/result-codes.ts (exit code of
// every documented refusal; the table itself is in result-codes.test.ts) and src/util/json.ts
// (lossless numbers).

import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { ExitCode, GwError, ProtocolError } from '../../src/errors.js';
import { decodeEnvelope, integerCode, type EnvelopeStyle, type RawResponse } from '../../src/gateway/envelope.js';
import { isJsonNumber, isJsonObject, jsonNumber, parseLossless, stringifyLossless } from '../../src/util/json.js';
import { exitCodeForResult, exitCodeForStatus, isGenericFailure, RESULT_MEANING } from '../../src/gateway/result-codes.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function raw(body: string, status = 200, contentType: string | undefined = JSON_TYPE): RawResponse {
  return { status, contentType, body };
}

function decodeError(response: RawResponse, style: EnvelopeStyle, what = 'the test request'): GwError {
  try {
    decodeEnvelope(response, style, what);
  } catch (error) {
    expect(error).toBeInstanceOf(GwError);
    return error as GwError;
  }
  throw new Error('decodeEnvelope did not throw');
}

describe('result codes', () => {
  it.each([
    [101, ExitCode.DATA],
    [102, ExitCode.NOPERM],
    [103, ExitCode.NOPERM],
    [104, ExitCode.NOPERM],
    [105, ExitCode.DATA],
    [106, ExitCode.DATA],
    [107, ExitCode.DATA],
    [108, ExitCode.DATA],
    [109, ExitCode.DATA],
    [110, ExitCode.DATA],
    [111, ExitCode.DATA],
    [112, ExitCode.DATA],
    [113, ExitCode.DATA],
    [114, ExitCode.DATA],
    [115, ExitCode.DATA],
    [116, ExitCode.DATA],
    [117, ExitCode.DATA],
    [118, ExitCode.DATA],
    [119, ExitCode.DATA],
    [120, ExitCode.DATA],
    [121, ExitCode.DATA],
    [122, ExitCode.DATA],
    [123, ExitCode.DATA],
    [124, ExitCode.TEMPFAIL],
    [125, ExitCode.DATA],
    [126, ExitCode.DATA],
    [127, ExitCode.DATA],
    [128, ExitCode.DATA],
    [129, ExitCode.TEMPFAIL],
    [130, ExitCode.DATA],
    [131, ExitCode.UNAVAILABLE],
    [135, ExitCode.DATA],
    [500, ExitCode.UNAVAILABLE],
    [999, ExitCode.REFUSED],
    [0, ExitCode.REFUSED],
    [-1, ExitCode.REFUSED],
  ])('exitCodeForResult(%i) = %i', (result, exit) => {
    expect(exitCodeForResult(result)).toBe(exit);
  });

  it('has a meaning for every code the gateway documents', () => {
    const documented = [100, ...Array.from({ length: 31 }, (_, i) => 101 + i), 135, 500]; // 100..131, 135, 500
    expect(documented).toHaveLength(34);
    expect(
      Object.keys(RESULT_MEANING)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(documented);
    expect(RESULT_MEANING[102]).toBe('invalid merchant API key');
    expect(RESULT_MEANING[124]).toBe('rate limit exceeded');
    expect(RESULT_MEANING[100]).toBe('success');
  });

  it.each([
    [400, ExitCode.DATA],
    [422, ExitCode.DATA],
    [401, ExitCode.NOPERM],
    [403, ExitCode.NOPERM],
    [408, ExitCode.TEMPFAIL],
    [429, ExitCode.TEMPFAIL],
    [500, ExitCode.UNAVAILABLE],
    [502, ExitCode.UNAVAILABLE],
    [503, ExitCode.UNAVAILABLE],
    [404, ExitCode.REFUSED],
    [409, ExitCode.REFUSED],
    [302, ExitCode.REFUSED],
  ])('exitCodeForStatus(%i) = %i', (status, exit) => {
    expect(exitCodeForStatus(status)).toBe(exit);
  });
});

describe('json', () => {
  it('keeps the exact digits of every number', () => {
    const value = parseLossless('{"a":0.123456789012345678,"b":25.50,"c":1e400,"d":[1,"2"],"e":null,"f":true}');
    expect(isJsonObject(value)).toBe(true);
    const obj = value as Record<string, unknown>;
    expect(isJsonNumber(obj.a)).toBe(true);
    expect((obj.a as LosslessNumber).value).toBe('0.123456789012345678');
    expect((obj.b as LosslessNumber).value).toBe('25.50');
    expect((obj.c as LosslessNumber).value).toBe('1e400');
    expect(Array.isArray(obj.d)).toBe(true);
    expect(obj.e).toBeNull();
    expect(obj.f).toBe(true);
  });

  it.each(['{', '', 'not json', '{"a":}', "{'a':1}", '{"a":1,}'])('parseLossless throws on %j', (text) => {
    expect(() => parseLossless(text)).toThrow();
  });

  it('stringifies amounts with exactly their digits', () => {
    expect(stringifyLossless({ amount: jsonNumber('0.123456789012345678'), tip: jsonNumber('25.50'), n: 'x' })).toBe(
      '{"amount":0.123456789012345678,"tip":25.50,"n":"x"}',
    );
  });

  it('refuses to stringify undefined', () => {
    expect(() => stringifyLossless(undefined)).toThrow(TypeError);
  });

  it('jsonNumber refuses text that is not a number', () => {
    expect(() => jsonNumber('abc')).toThrow();
  });

  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['x', false],
    [new LosslessNumber('1'), false],
  ])('isJsonObject(%j) = %s', (value, expected) => {
    expect(isJsonObject(value)).toBe(expected);
  });

  it.each([
    [new LosslessNumber('1'), true],
    [1, false],
    ['1', false],
    [{ value: '1' }, false],
  ])('isJsonNumber(%j) = %s', (value, expected) => {
    expect(isJsonNumber(value)).toBe(expected);
  });
});

describe('integerCode', () => {
  it.each([
    [new LosslessNumber('100'), 100],
    [new LosslessNumber('-1'), -1],
    ['101', 101],
    [' 102 ', 102],
    ['123456789', 123456789],
  ] as const)('%j → %i', (value, expected) => {
    expect(integerCode(value)).toBe(expected);
  });

  it.each([[new LosslessNumber('1.5')], [new LosslessNumber('1e2')], ['1.0'], ['abc'], [''], ['1234567890'], [true], [null], [undefined], [[100]]] as const)(
    '%j → undefined',
    (value) => {
      expect(integerCode(value as never)).toBeUndefined();
    },
  );
});

describe('decodeEnvelope: success', () => {
  it('returns a legacy body with result 100 and keeps amounts lossless', () => {
    const body = decodeEnvelope(raw('{"result":100,"message":"ok","payAmount":0.123456789012345678,"trackId":"t1"}'), 'legacy', 'x');
    expect((body.payAmount as LosslessNumber).value).toBe('0.123456789012345678');
    expect(body.trackId).toBe('t1');
  });

  it.each([
    ['result as a numeric string', '{"result":"100"}'],
    ['result padded', '{"result":" 100 "}'],
  ])('accepts %s', (_name, text) => {
    expect(decodeEnvelope(raw(text), 'legacy', 'x')).toEqual(JSON.parse(text));
  });

  it('returns a versioned body with status 200 and an empty error', () => {
    const body = decodeEnvelope(raw('{"data":{"list":["BTC","ETH"]},"message":"ok","error":{},"status":200,"version":"1.0.0"}'), 'versioned', 'x');
    expect(body.data).toEqual({ list: ['BTC', 'ETH'] });
    expect(body.version).toBe('1.0.0');
  });

  it('understands either style whatever endpoint it came from', () => {
    expect(decodeEnvelope(raw('{"status":200,"error":{},"data":{}}'), 'legacy', 'x').data).toEqual({});
    expect(decodeEnvelope(raw('{"result":100,"allowed":["BTC"]}'), 'versioned', 'x').allowed).toEqual(['BTC']);
  });

  it('accepts JSON sent with a wrong content type when it starts like JSON', () => {
    expect(decodeEnvelope(raw('{"result":100}', 200, 'text/html'), 'legacy', 'x').result).toBeInstanceOf(LosslessNumber);
    expect(decodeEnvelope({ status: 200, contentType: undefined, body: '  {"result":100}' }, 'legacy', 'x').result).toBeInstanceOf(LosslessNumber);
  });

  it('the style decides which envelope is looked at first', () => {
    const both = '{"result":100,"status":500,"message":"boom"}';
    expect(decodeEnvelope(raw(both), 'legacy', 'x').result).toBeInstanceOf(LosslessNumber);
    const error = decodeError(raw(both), 'versioned');
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.status).toBe(500);
  });
});

describe('decodeEnvelope: legacy refusals', () => {
  it.each([
    [101, 'Validation problem', ExitCode.DATA, 'the gateway refused: Validation problem (result 101)'],
    [102, 'Invalid merchant API key', ExitCode.NOPERM, 'the gateway refused: Invalid merchant API key (result 102)'],
    [103, 'Bad key', ExitCode.NOPERM, 'the gateway refused: Bad key (result 103: invalid payout API key)'],
    [104, 'IP', ExitCode.NOPERM, 'the gateway refused: IP (result 104: invalid IP address: the key is locked to other IP addresses)'],
    [109, 'Amount too low', ExitCode.DATA, 'the gateway refused: Amount too low (result 109)'],
    [124, 'Slow down', ExitCode.TEMPFAIL, 'the gateway refused: Slow down (result 124: rate limit exceeded)'],
    [130, 'No funds', ExitCode.DATA, 'the gateway refused: No funds (result 130: insufficient balance)'],
    [131, 'oops', ExitCode.UNAVAILABLE, "the gateway failed: oops (result 131: the gateway's generic failure)"],
    [500, 'down', ExitCode.UNAVAILABLE, 'the gateway failed: down (result 500: internal error at the gateway)'],
    [777, 'Something new', ExitCode.REFUSED, 'the gateway refused with an unknown result code: Something new (result 777)'],
  ])('result %i → exit %i', (result, message, exit, text) => {
    const error = decodeError(raw(JSON.stringify({ result, message })), 'legacy');
    expect(error.exitCode).toBe(exit);
    expect(error.message).toBe(text);
    expect(error.result).toBe(result);
    expect(error.status).toBeUndefined();
  });

  it('uses the documented meaning when the gateway sends no message', () => {
    const error = decodeError(raw('{"result":105}'), 'legacy');
    expect(error.message).toBe('the gateway refused: invalid currency (result 105)');
    expect(decodeError(raw('{"result":4242}'), 'legacy').message).toBe('the gateway refused with an unknown result code: no message (result 4242)');
  });

  // The gateway's real answers that gw used to misread: exact message, exit code, hint, and the
  // generic-failure flag of the table; never a stack, never more than one line.
  it.each<[number, string, ExitCode, string, RegExp | undefined, boolean]>([
    [
      104,
      'Invalid IP address',
      ExitCode.NOPERM,
      'the gateway refused: Invalid IP address (result 104: invalid IP address: the key is locked to other IP addresses)',
      /^the key is locked to other IP addresses: add this machine's IP to the key's allowed-IP list in the merchant panel \(the key itself is fine\)$/,
      false,
    ],
    [
      118,
      'toAmount cannot be smaller than fromAmount',
      ExitCode.DATA,
      'the gateway refused: toAmount cannot be smaller than fromAmount (result 118)',
      /amount bounds/,
      false,
    ],
    [
      119,
      'toDate cannot be earlier than fromDate',
      ExitCode.DATA,
      'the gateway refused: toDate cannot be earlier than fromDate (result 119)',
      /date bounds/,
      false,
    ],
    [
      125,
      'The receiver address belongs to the sender',
      ExitCode.DATA,
      'the gateway refused: The receiver address belongs to the sender (result 125)',
      /outside this gateway account/,
      false,
    ],
    [
      128,
      'Transfer limit exceeded',
      ExitCode.DATA,
      'the gateway refused: Transfer limit exceeded (result 128: transfer limit per transaction exceeded)',
      /smaller amount/,
      false,
    ],
    [
      129,
      'Daily limit exceeded',
      ExitCode.TEMPFAIL,
      'the gateway refused: Daily limit exceeded (result 129: total daily transfer limit exceeded)',
      /after it resets/,
      false,
    ],
    [
      131,
      'An error occurred.',
      ExitCode.UNAVAILABLE,
      "the gateway failed: An error occurred. (result 131: the gateway's generic failure)",
      /try again later/,
      true,
    ],
    [
      135,
      'Currency is disabled on this network',
      ExitCode.DATA,
      'the gateway refused: Currency is disabled on this network (result 135: currency disabled on that network)',
      /another network/,
      false,
    ],
    [500, 'Internal error', ExitCode.UNAVAILABLE, 'the gateway failed: Internal error (result 500: internal error at the gateway)', /try again later/, true],
    [777, 'Merchant is on holiday', ExitCode.REFUSED, 'the gateway refused with an unknown result code: Merchant is on holiday (result 777)', undefined, false],
  ])('the real answer %i → its message, exit code and hint', (result, message, exit, text, hint, generic) => {
    for (const body of [JSON.stringify({ result, message }), `{"result":"${result}","message":${JSON.stringify(message)}}`]) {
      const error = decodeError(raw(body), 'legacy', 'the payment request');
      expect(error.exitCode).toBe(exit);
      expect(error.message).toBe(text);
      expect(error.result).toBe(result);
      expect(isGenericFailure(error.result)).toBe(generic);
      if (hint === undefined) expect(error.hint).toBeUndefined();
      else expect(error.hint).toMatch(hint);
      expect(error.message).not.toMatch(/\n|\s+at\s+\S+\s+\(|Error:/);
      expect(error.hint ?? '').not.toMatch(/\n/);
      expect(error).not.toBeInstanceOf(ProtocolError);
    }
  });

  it('104 is never told to re-check the key', () => {
    const error = decodeError(raw('{"result":104,"message":"Invalid IP"}', 403), 'legacy');
    expect(error.exitCode).toBe(ExitCode.NOPERM);
    expect(error.status).toBe(403);
    expect(error.hint).not.toMatch(/check the key/i);
  });

  it('102 and 103 leave the which-key hint to the client, which knows how the key was set', () => {
    expect(decodeError(raw('{"result":102,"message":"x"}'), 'legacy').hint).toBeUndefined();
    expect(decodeError(raw('{"result":103,"message":"x"}'), 'legacy').hint).toBeUndefined();
  });

  it.each([132, 133, 134, 136, 999, 0, -7])('unknown code %i → exit 1 with the gateway message, no hint', (result) => {
    const error = decodeError(raw(JSON.stringify({ result, message: 'Something new' })), 'legacy');
    expect(error.exitCode).toBe(ExitCode.REFUSED);
    expect(error.message).toBe(`the gateway refused with an unknown result code: Something new (result ${result})`);
    expect(error.hint).toBeUndefined();
  });

  it('keeps the HTTP status when the refusal came with an HTTP error', () => {
    const error = decodeError(raw('{"result":102,"message":"bad key"}', 401), 'legacy');
    expect(error.exitCode).toBe(ExitCode.NOPERM);
    expect(error.status).toBe(401);
    expect(error.result).toBe(102);
  });

  it('strips terminal controls from the gateway message', () => {
    const error = decodeError(raw(JSON.stringify({ result: 101, message: 'bad\u001b]0;pwned\u0007 \u001b[31mamount\r\n' })), 'legacy');
    expect(error.message).toBe('the gateway refused: bad amount (result 101: validation problem)');
  });

  it('accepts a result code sent as a string', () => {
    const error = decodeError(raw('{"result":"102","message":"x"}'), 'legacy');
    expect(error.result).toBe(102);
    expect(error.exitCode).toBe(ExitCode.NOPERM);
  });
});

describe('decodeEnvelope: versioned refusals', () => {
  it('carries status, type and key of the error object', () => {
    const error = decodeError(
      raw(
        JSON.stringify({
          data: {},
          message: 'Operation failed',
          error: { type: 'authentication', key: 'invalid_api_key', message: 'Invalid merchant API key' },
          status: 401,
          version: '1.0.0',
        }),
        401,
      ),
      'versioned',
    );
    expect(error.exitCode).toBe(ExitCode.NOPERM);
    expect(error.status).toBe(401);
    expect(error.type).toBe('authentication');
    expect(error.key).toBe('invalid_api_key');
    expect(error.message).toBe('the gateway refused: Invalid merchant API key (status 401, invalid_api_key)');
  });

  it.each([
    [400, ExitCode.DATA, 'the gateway refused: no (status 400)'],
    [422, ExitCode.DATA, 'the gateway refused: no (status 422)'],
    [403, ExitCode.NOPERM, 'the gateway refused: no (status 403)'],
    [429, ExitCode.TEMPFAIL, 'the gateway is rate-limiting requests: no (status 429)'],
    [500, ExitCode.UNAVAILABLE, 'the gateway is failing: no (status 500)'],
    [503, ExitCode.UNAVAILABLE, 'the gateway is failing: no (status 503)'],
    [418, ExitCode.REFUSED, 'the gateway refused: no (status 418)'],
  ])('status %i → exit %i', (status, exit, text) => {
    const error = decodeError(raw(JSON.stringify({ status, error: { message: 'no' } })), 'versioned');
    expect(error.exitCode).toBe(exit);
    expect(error.status).toBe(status);
    expect(error.message).toBe(text);
  });

  it.each([
    [429, 'the gateway is rate-limiting requests: try again later'],
    [500, 'the gateway failed, not your request: try again later; if it persists, check the base URL'],
    [503, 'the gateway failed, not your request: try again later; if it persists, check the base URL'],
  ])('enveloped status %i: the hint says to try again later, and the gateway is at fault, not the user', (status, hint) => {
    const error = decodeError(raw(JSON.stringify({ status, error: { message: 'no' } }), status), 'versioned');
    expect(error.hint).toBe(hint);
    expect(error.message).not.toMatch(/refused/);
  });

  it.each([
    [
      'the versioned envelope',
      '{"status":429,"error":{"message":"Too many requests"}}',
      'versioned',
      'the gateway is rate-limiting requests: try again in 30 s (the gateway asked to wait that long)',
    ],
    [
      'the versioned envelope at 503',
      '{"status":503,"error":{"message":"down"}}',
      'versioned',
      'the gateway failed, not your request: try again in 30 s (the gateway asked to wait that long); if it persists, check the base URL',
    ],
    [
      'the legacy envelope (result 124)',
      '{"result":124,"message":"Slow down"}',
      'legacy',
      'the gateway is rate-limiting requests: try again in 30 s (the gateway asked to wait that long)',
    ],
    ['no envelope', '<html>busy</html>', 'legacy', 'the gateway is rate-limiting requests: try again in 30 s (the gateway asked to wait that long)'],
  ] as const)('a 429 or 503 in %s with Retry-After: 30 says how long to wait', (_name, body, style, hint) => {
    const status = body.includes('503') ? 503 : 429;
    const error = decodeError({ ...raw(body, status, body.startsWith('<') ? 'text/html' : 'application/json'), retryAfter: '30' }, style);
    expect(error.exitCode).toBe(status === 503 ? ExitCode.UNAVAILABLE : ExitCode.TEMPFAIL);
    expect(error.hint).toBe(hint);
  });

  it('falls back to the envelope message, then the key', () => {
    expect(decodeError(raw('{"status":400,"message":"top","error":{"key":"k"}}'), 'versioned').message).toBe('the gateway refused: top (status 400, k)');
    expect(decodeError(raw('{"status":400,"error":{"key":"k"}}'), 'versioned').message).toBe('the gateway refused: k (status 400, k)');
    expect(decodeError(raw('{"status":400,"error":{}}'), 'versioned').message).toBe('the gateway refused: no message (status 400)');
  });

  it('a success envelope carrying an error contradicts itself: exit 76, no status invented, neither success nor a refusal', () => {
    const a = decodeError(raw('{"status":200,"error":{"type":"invalid","key":"bad_amount","message":"nope"}}'), 'versioned');
    expect(a).toBeInstanceOf(ProtocolError);
    expect(a.message).toBe("the gateway's answer to the test request contradicts itself: status 200 (success) with an error: nope (bad_amount)");
    expect(a.jsonFields()).toEqual({});
    const b = decodeError(raw('{"result":100,"message":"OK","error":"Invalid merchant"}'), 'legacy');
    expect(b).toBeInstanceOf(ProtocolError);
    expect(b.message).toBe("the gateway's answer to the test request contradicts itself: result 100 (success) with an error: Invalid merchant");
    expect(b.jsonFields()).toEqual({});
    const c = decodeError(raw('{"result":100,"message":"OK","error":{"message":"Key locked"}}'), 'legacy');
    expect(c.message).toContain('result 100 (success) with an error: Key locked');
  });

  it('a success envelope on an HTTP error status contradicts itself too (the status named is the one sent)', () => {
    const a = decodeError(raw('{"status":200,"message":"OK","data":{}}', 500), 'versioned');
    expect(a).toBeInstanceOf(ProtocolError);
    expect(a.message).toBe("the gateway's answer to the test request contradicts itself: status 200 (success) with HTTP 500");
    const b = decodeError(raw('{"result":100,"message":"OK"}', 403), 'legacy');
    expect(b.message).toBe("the gateway's answer to the test request contradicts itself: result 100 (success) with HTTP 403");
  });

  it('an empty error object or an empty error string is no error', () => {
    expect(decodeEnvelope(raw('{"status":200,"error":{},"data":{"a":1}}'), 'versioned', 'x').status).toBeInstanceOf(LosslessNumber);
    expect(decodeEnvelope(raw('{"result":100,"error":""}'), 'legacy', 'x').result).toBeInstanceOf(LosslessNumber);
    expect(decodeEnvelope(raw('{"result":100,"error":null}'), 'legacy', 'x').result).toBeInstanceOf(LosslessNumber);
  });

  it('an error object without a status takes the HTTP status only when that is an error, never an invented one', () => {
    const c = decodeError(raw('{"error":{"message":"nope"}}', 502), 'versioned');
    expect(c.status).toBe(502);
    expect(c.exitCode).toBe(ExitCode.UNAVAILABLE);
    const d = decodeError(raw('{"error":{"message":"nope"}}', 200), 'versioned');
    expect(d.status).toBeUndefined();
    expect(d.exitCode).toBe(ExitCode.REFUSED);
    expect(d.message).toBe('the gateway refused: nope');
  });

  it('sanitises type and key', () => {
    const error = decodeError(raw(JSON.stringify({ status: 401, error: { type: 'a\u001b[1mb', key: 'k\u202ey', message: 'm' } })), 'versioned');
    expect(error.type).toBe('ab');
    expect(error.key).toBe('ky');
  });
});

describe('decodeEnvelope: not an envelope', () => {
  it.each([
    ['empty body, HTTP 503', raw('', 503), ExitCode.UNAVAILABLE, 'the gateway is failing: HTTP 503 with an empty body', 503],
    [
      'HTML, HTTP 502',
      raw('<html>bad gateway</html>', 502, 'text/html'),
      ExitCode.UNAVAILABLE,
      'the gateway is failing: HTTP 502 with text/html instead of JSON',
      502,
    ],
    ['HTML, HTTP 429', raw('<html>slow</html>', 429, 'text/html'), ExitCode.TEMPFAIL, 'the gateway is rate-limiting requests (HTTP 429)', 429],
    [
      'HTML, HTTP 404',
      raw('<html>not found</html>', 404, 'text/html; charset=utf-8'),
      ExitCode.PROTOCOL,
      "the gateway's answer to the test request could not be understood: HTTP 404 with text/html instead of JSON",
      404,
    ],
    [
      'HTML, HTTP 200',
      raw('<html>captive portal</html>', 200, 'text/html'),
      ExitCode.PROTOCOL,
      "the gateway's answer to the test request could not be understood: HTTP 200 with text/html instead of JSON",
      200,
    ],
    [
      'empty body, HTTP 200',
      raw('   ', 200),
      ExitCode.PROTOCOL,
      "the gateway's answer to the test request could not be understood: HTTP 200 with an empty body",
      200,
    ],
    [
      'no content type',
      { status: 200, contentType: undefined, body: 'hello' },
      ExitCode.PROTOCOL,
      "the gateway's answer to the test request could not be understood: HTTP 200 with an unknown type instead of JSON",
      200,
    ],
    ['malformed JSON, HTTP 200', raw('{"result":100', 200), ExitCode.PROTOCOL, "the gateway's answer to the test request is not valid JSON (HTTP 200)", 200],
    ['malformed JSON, HTTP 500', raw('{"result":', 500), ExitCode.UNAVAILABLE, 'the gateway is failing: HTTP 500 with application/json instead of JSON', 500],
    ['an array', raw('[1,2]', 200), ExitCode.PROTOCOL, "the gateway's answer to the test request is not a JSON object", undefined],
    ['a string', raw('"ok"', 200), ExitCode.PROTOCOL, "the gateway's answer to the test request is not a JSON object", undefined],
    ['an array, HTTP 503', raw('[]', 503), ExitCode.UNAVAILABLE, 'the gateway is failing: HTTP 503 with application/json instead of JSON', 503],
    [
      'an object without result',
      raw('{"hello":"world"}', 200),
      ExitCode.PROTOCOL,
      "the gateway's answer to the test request has no result code: not the gateway's envelope",
      undefined,
    ],
    [
      'a result that is not an integer',
      raw('{"result":"ok"}', 200),
      ExitCode.PROTOCOL,
      "the gateway's answer to the test request has no result code: not the gateway's envelope",
      undefined,
    ],
  ])('%s', (_name, response, exit, message, status) => {
    const error = decodeError(response, 'legacy');
    expect(error.exitCode).toBe(exit);
    expect(error.message).toBe(message);
    expect(error.status).toBe(status);
  });

  it('names the missing status for the versioned style', () => {
    expect(decodeError(raw('{"data":{}}'), 'versioned').message).toBe("the gateway's answer to the test request has no status: not the gateway's envelope");
  });

  it('is a ProtocolError when the answer cannot be understood', () => {
    expect(decodeError(raw('nope', 200, 'text/plain'), 'legacy')).toBeInstanceOf(ProtocolError);
    expect(decodeError(raw('{"x":1}'), 'legacy')).toBeInstanceOf(ProtocolError);
  });

  it.each([
    [401, ExitCode.NOPERM],
    [403, ExitCode.NOPERM],
    [400, ExitCode.DATA],
    [404, ExitCode.REFUSED],
    [503, ExitCode.UNAVAILABLE],
    [429, ExitCode.TEMPFAIL],
  ])('an object with only a message at HTTP %i → exit %i', (status, exit) => {
    const error = decodeError(raw(JSON.stringify({ message: 'Access \u001b[31mdenied' }), status), 'legacy');
    expect(error.exitCode).toBe(exit);
    expect(error.message).toBe(
      status >= 500
        ? `the gateway is failing: HTTP ${status}: Access denied`
        : status === 429
          ? 'the gateway is rate-limiting requests (HTTP 429): Access denied'
          : `the gateway refused: Access denied (HTTP ${status})`,
    );
    expect(error.status).toBe(status);
  });

  it('sanitises a hostile content type', () => {
    const error = decodeError(raw('x', 200, 'text/\u001b[2Jhtml'), 'legacy');
    expect(error.message).toBe("the gateway's answer to the test request could not be understood: HTTP 200 with text/html instead of JSON");
  });
});
