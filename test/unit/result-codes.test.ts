// The result-code table (src/gateway/result-codes.ts) against docs/gateway.md §2: every
// published code, its meaning, exit code, refusal/generic-failure kind and hint; unknown codes.

import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import {
  RESULT_CODES,
  RESULT_MEANING,
  exitCodeForResult,
  hintForResult,
  isGenericFailure,
  resultCode,
  type ResultKind,
} from '../../src/gateway/result-codes.js';

/** The codes of docs/gateway.md §2, exactly ("complete"). */
const PUBLISHED = [
  100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130,
  131, 135, 500,
];

type Row = [code: number, meaning: RegExp, exit: ExitCode, kind: ResultKind, hint: RegExp | undefined];

const { OK, DATA, NOPERM, TEMPFAIL, UNAVAILABLE } = ExitCode;

// One row per published code: what the user must get.
const TABLE: Row[] = [
  [100, /^success$/, OK, 'success', undefined],
  [101, /^validation problem$/, DATA, 'refusal', undefined],
  [102, /^invalid merchant API key$/, NOPERM, 'refusal', undefined],
  [103, /^invalid payout API key$/, NOPERM, 'refusal', undefined],
  [104, /IP address.*locked to other IP/, NOPERM, 'refusal', /allowed-IP list in the merchant panel \(the key itself is fine\)/],
  [105, /^invalid currency$/, DATA, 'refusal', /gw currencies/],
  [106, /^invalid network$/, DATA, 'refusal', /--network/],
  [107, /^invalid callbackUrl$/, DATA, 'refusal', /--callback-url/],
  [108, /^invalid returnUrl$/, DATA, 'refusal', undefined],
  [109, /^amount too low$/, DATA, 'refusal', /minimum/],
  [110, /^amount too high$/, DATA, 'refusal', /lower the amount/],
  [111, /lifeTime too short.*15/, DATA, 'refusal', /15 to 2880/],
  [112, /lifeTime too long.*2880/, DATA, 'refusal', /15 to 2880/],
  [113, /underPaidCover below 0/, DATA, 'refusal', /0 to 60/],
  [114, /underPaidCover above 60/, DATA, 'refusal', /0 to 60/],
  [115, /invalid feePaidByPayer/, DATA, 'refusal', /0 .*or 1/],
  [116, /^invalid trackId$/, DATA, 'refusal', /track id/],
  [117, /^invalid address$/, DATA, 'refusal', undefined],
  [118, /toAmount cannot be smaller than fromAmount/, DATA, 'refusal', /amount bounds/],
  [119, /toDate cannot be earlier than fromDate/, DATA, 'refusal', /date bounds/],
  [120, /^invalid payCurrency$/, DATA, 'refusal', /--pay-currency/],
  [121, /^invalid fromCurrency$/, DATA, 'refusal', /gw rate BTC USDT/],
  [122, /^invalid toCurrency$/, DATA, 'refusal', /gw rate BTC USDT/],
  [123, /^fromCurrency equals toCurrency$/, DATA, 'refusal', /two different/],
  [124, /^rate limit exceeded$/, TEMPFAIL, 'refusal', /rate-limiting.*try again later/],
  [125, /receiver address belongs to the sender/, DATA, 'refusal', /another|outside/],
  [126, /^amount missing$/, DATA, 'refusal', undefined],
  [127, /^amount below minimum$/, DATA, 'refusal', /minimum/],
  [128, /transfer limit per transaction exceeded/, DATA, 'refusal', /smaller amount/],
  [129, /total daily transfer limit exceeded/, TEMPFAIL, 'refusal', /after it resets/],
  [130, /^insufficient balance$/, DATA, 'refusal', /gw balance/],
  [131, /generic failure/, UNAVAILABLE, 'generic-failure', /try again later/],
  [135, /currency disabled on that network/, DATA, 'refusal', /another network/],
  [500, /internal error/, UNAVAILABLE, 'generic-failure', /try again later/],
];

describe('the result-code table', () => {
  it('holds exactly the published codes, in order, once each', () => {
    expect(RESULT_CODES.map((entry) => entry.code)).toEqual(PUBLISHED);
    expect(TABLE.map(([code]) => code)).toEqual(PUBLISHED);
  });

  it.each(TABLE)('%i: meaning %s, exit %i, %s, hint %s', (code, meaning, exit, kind, hint) => {
    const entry = resultCode(code);
    expect(entry).toBeDefined();
    expect(entry?.meaning).toMatch(meaning);
    expect(entry?.exitCode).toBe(exit);
    expect(exitCodeForResult(code)).toBe(exit);
    expect(entry?.kind).toBe(kind);
    expect(isGenericFailure(code)).toBe(kind === 'generic-failure');
    expect(RESULT_MEANING[code]).toBe(entry?.meaning);
    if (hint === undefined) {
      expect(hintForResult(code)).toBeUndefined();
    } else {
      expect(hintForResult(code)).toMatch(hint);
    }
  });

  it('every meaning and hint is one clean line of text', () => {
    for (const entry of RESULT_CODES) {
      for (const text of [entry.meaning, entry.hint ?? 'x']) {
        expect(text).not.toMatch(/[\u0000-\u001f\u007f]/);
        expect(text.trim()).toBe(text);
        expect(text.length).toBeGreaterThan(0);
      }
    }
  });

  it('104 never sends the user to re-check the key', () => {
    const hint = hintForResult(104) ?? '';
    expect(hint).not.toMatch(/check the key/i);
    expect(hint).toMatch(/key itself is fine/);
    expect(hint).toMatch(/IP/);
  });

  it('102 and 103 say which key; the client adds how that key is configured', () => {
    expect(resultCode(102)?.key).toBe('merchant');
    expect(resultCode(103)?.key).toBe('payout');
    expect(RESULT_CODES.filter((entry) => entry.key !== undefined).map((entry) => entry.code)).toEqual([102, 103]);
  });

  it('only 131 and 500 are generic failures (a pay that got one may have created a payment)', () => {
    expect(RESULT_CODES.filter((entry) => isGenericFailure(entry.code)).map((entry) => entry.code)).toEqual([131, 500]);
  });

  it('the exit codes are the documented ones (docs/json-and-exit-codes.md) and nothing else', () => {
    const used = new Set(RESULT_CODES.map((entry) => entry.exitCode));
    expect([...used].sort((a, b) => a - b)).toEqual([0, 65, 69, 75, 77]);
  });
});

describe('codes the table does not know', () => {
  it.each([0, -1, 1, 99, 132, 133, 134, 136, 200, 404, 501, 999, 123456789])('%i → exit 1, no meaning, no hint, not a generic failure', (code) => {
    expect(resultCode(code)).toBeUndefined();
    expect(exitCodeForResult(code)).toBe(ExitCode.REFUSED);
    expect(hintForResult(code)).toBeUndefined();
    expect(isGenericFailure(code)).toBe(false);
    expect(RESULT_MEANING[code]).toBeUndefined();
  });

  it('no code at all is not a generic failure', () => {
    expect(isGenericFailure(undefined)).toBe(false);
  });

  it('inherited object keys are not codes', () => {
    expect(exitCodeForResult(Number('constructor'))).toBe(ExitCode.REFUSED);
    expect(RESULT_MEANING['toString' as unknown as number]).toBeUndefined();
  });
});
