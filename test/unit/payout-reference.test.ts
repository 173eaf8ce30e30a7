// Payout references (src/cmdutil/payout-reference.ts) and the payout status vocabulary
// (src/domain/payout-status.ts): table-driven.
import { describe, expect, it } from 'vitest';
import {
  describeWithReference,
  generatePayoutReference,
  generateRefundReference,
  parseReference,
  referenceOf,
  refundPrefix,
} from '../../src/cmdutil/payout-reference.js';
import { isFinalPayout, normalizePayoutStatus, payoutCounts } from '../../src/domain/payout-status.js';

const bytes =
  (...b: number[]) =>
  () =>
    Uint8Array.from(b);

describe('payout references', () => {
  it('generated: gw-po-<local date>-<time>-<4 of Crockford base 32>; a refund carries its payment', () => {
    const now = new Date(2026, 10, 25, 14, 2, 5).getTime();
    expect(generatePayoutReference(now, bytes(0, 10, 31, 32))).toBe('gw-po-20261125-140205-0az0');
    expect(generateRefundReference('184729305', bytes(1, 2, 3, 4))).toBe('refund-184729305-1234');
    expect(refundPrefix('184729305')).toBe('refund-184729305-');
  });

  it.each([
    ['inv-1042', 'inv-1042'],
    ['a.b_c:d-e', 'a.b_c:d-e'],
  ])('%j is a reference', (text, ref) => expect(parseReference(text)).toBe(ref));

  it.each(['', ' inv', 'inv 7', 'inv\n7', '-flag', 'ü', 'x'.repeat(65), 'a/b'])('%j is refused (exit 64)', (text) => {
    expect(() => parseReference(text)).toThrow(/--reference must be/);
  });

  it.each([
    ['inv-7', undefined, 'inv-7'],
    ['inv-7', 'supplier 7', 'supplier 7 inv-7'],
    ['inv-7', '  ', 'inv-7'],
  ])('the description sent for %j and %j is %j, and its reference reads back', (ref, description, sent) => {
    expect(describeWithReference(ref, description)).toBe(sent);
    expect(referenceOf(sent)).toBe(ref);
  });

  it.each([
    [null, undefined],
    ['', undefined],
    ['paid by hand', 'hand'],
    ['weird ref/with/slashes', undefined],
  ])('referenceOf(%j) is %j', (description, ref) => expect(referenceOf(description)).toBe(ref));
});

describe('payout statuses', () => {
  it.each([
    ['processing', 'processing', false, true],
    ['Pending', 'pending', false, true],
    ['CONFIRMING', 'confirming', false, true],
    ['confirmed', 'confirmed', true, true],
    ['Complete', 'confirmed', true, true],
    ['canceled', 'canceled', true, false],
    ['cancelled', 'canceled', true, false],
    ['Rejected', 'rejected', true, false],
    ['failed', 'rejected', true, false],
    ['on hold', 'unknown', false, true],
  ] as const)('%j → %s (final %s, counts against a refund %s)', (text, state, final, counts) => {
    expect(normalizePayoutStatus(text)).toBe(state);
    expect(isFinalPayout(normalizePayoutStatus(text))).toBe(final);
    expect(payoutCounts(normalizePayoutStatus(text))).toBe(counts);
  });
});
