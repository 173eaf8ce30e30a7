// Case folding by ASCII rules only: letters outside ASCII stay as they are, never folded into
// ASCII ones (a long s is not an s, a full-width U is not a U).
import { describe, expect, it } from 'vitest';
import { asciiLowerCase, asciiUpperCase } from '../../src/util/ascii.js';

describe('asciiUpperCase', () => {
  it.each([
    ['usdt', 'USDT'],
    ['usdc.e', 'USDC.E'],
    ['1inch', '1INCH'],
    ['uſdt', 'UſDT'],
    ['ｕｓｄｔ', 'ｕｓｄｔ'],
    ['uﬅ', 'Uﬅ'],
    ['ı', 'ı'],
  ])('%j → %j', (text, upper) => {
    expect(asciiUpperCase(text)).toBe(upper);
  });
});

describe('asciiLowerCase', () => {
  it.each([
    ['Paid', 'paid'],
    ['CONFIRMING', 'confirming'],
    ['İ', 'İ'],
    ['\u212a', '\u212a'], // the Kelvin sign
  ])('%j → %j', (text, lower) => {
    expect(asciiLowerCase(text)).toBe(lower);
  });
});
