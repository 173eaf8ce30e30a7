// Table-driven tests for src/money/decimal.ts: user amounts, gateway literals, base units and
// comparison. Every expectation is an exact string or bigint: money never goes through a float.

import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  fractionDigits,
  fromBaseUnits,
  parsePositiveDecimal,
  toBaseUnits,
  toPlainDecimal,
  TooManyDecimalsError,
} from '../../src/money/decimal.js';

describe('parsePositiveDecimal', () => {
  it.each([
    ['25', '25'],
    ['0.00038127', '0.00038127'],
    ['25.50', '25.50'],
    ['007', '7'],
    ['007.50', '7.50'],
    ['00.5', '0.5'],
    ['0.5', '0.5'],
    ['1.000', '1.000'],
    ['0.123456789012345678', '0.123456789012345678'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['  12.5  ', '12.5'],
    ['10', '10'],
    ['100.0001', '100.0001'],
  ])('accepts %j as %j', (input, expected) => {
    expect(parsePositiveDecimal(input)).toBe(expected);
  });

  it.each([
    'abc',
    '-5',
    '0',
    '00',
    '0.000',
    '000.0',
    '1e3',
    '1E3',
    '1,5',
    '1 000',
    '',
    ' ',
    '.5',
    '5.',
    '+5',
    '0x10',
    'Infinity',
    '-Infinity',
    'NaN',
    '1.2.3',
    '١٢',
    '５',
    '5\n6',
  ])('rejects %j', (input) => {
    expect(parsePositiveDecimal(input)).toBeUndefined();
  });

  it('returns valid JSON number literals with the same digits', () => {
    for (const input of ['25', '007', '25.50', '0.00038127']) {
      const out = parsePositiveDecimal(input);
      expect(out).toBeDefined();
      expect(() => JSON.parse(out as string)).not.toThrow();
    }
  });
});

describe('toPlainDecimal', () => {
  it.each([
    ['1.5e-7', '0.00000015'],
    ['1.5E-7', '0.00000015'],
    ['1E+3', '1000'],
    ['1e3', '1000'],
    ['1e0', '1'],
    ['-2.5e2', '-250'],
    ['-2.5e-2', '-0.025'],
    ['2.5e1', '25'],
    ['1.50e1', '15.0'],
    ['12.345e-1', '1.2345'],
    ['12.345e-2', '0.12345'],
    ['12.345e-5', '0.00012345'],
    ['0.0015e2', '0.15'],
    ['0.0015e3', '1.5'],
    ['1.23e2', '123'],
    ['1.23e5', '123000'],
    ['5e-1', '0.5'],
    ['0.123456789012345678', '0.123456789012345678'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
    ['25.50', '25.50'],
    ['100', '100'],
    ['-3', '-3'],
    ['0', '0'],
    [' 0.5 ', '0.5'],
    ['1e-18', '0.000000000000000001'],
    ['9.87654321e+8', '987654321'],
  ])('%j → %j', (input, expected) => {
    expect(toPlainDecimal(input)).toBe(expected);
  });

  it.each(['abc', '', ' ', '1.', '.5', '+1', '1e', '1e+', '0x10', 'Infinity', 'NaN', '1,5', '1e1001', '1e-1001', '--1', '1.2.3'])('rejects %j', (input) => {
    expect(toPlainDecimal(input)).toBeUndefined();
  });

  it('keeps exponents up to 1000 exactly', () => {
    expect(toPlainDecimal('1e1000')).toBe(`1${'0'.repeat(1000)}`);
    expect(toPlainDecimal('1e-1000')).toBe(`0.${'0'.repeat(999)}1`);
  });
});

describe('fractionDigits', () => {
  it.each([
    ['25', 0],
    ['25.5', 1],
    ['25.50', 2],
    ['0.00038127', 8],
  ])('%j has %i fraction digits', (amount, digits) => {
    expect(fractionDigits(amount)).toBe(digits);
  });
});

describe('toBaseUnits / fromBaseUnits', () => {
  it.each([
    ['1', 8, 100_000_000n],
    ['0.00038127', 8, 38_127n],
    ['25.50', 2, 2_550n],
    ['25.5', 6, 25_500_000n],
    ['0.000000000000000001', 18, 1n],
    ['1.5', 18, 1_500_000_000_000_000_000n],
    ['12345678901234567890.123456789012345678', 18, 12_345_678_901_234_567_890_123_456_789_012_345_678n],
    ['7', 0, 7n],
    ['0', 8, 0n],
    ['0.0', 8, 0n],
    // Extra zeros beyond the asset's precision are harmless.
    ['1.10000000000', 8, 110_000_000n],
    ['2.000', 0, 2n],
    ['0.123456000', 6, 123_456n],
  ])('toBaseUnits(%j, %i) = %s', (amount, decimals, units) => {
    expect(toBaseUnits(amount, decimals)).toBe(units);
  });

  it.each([
    [100_000_000n, 8, '1'],
    [38_127n, 8, '0.00038127'],
    [2_550n, 2, '25.5'],
    [1n, 18, '0.000000000000000001'],
    [0n, 8, '0'],
    [0n, 0, '0'],
    [7n, 0, '7'],
    [1_500_000_000_000_000_000n, 18, '1.5'],
    [123_456_789n, 3, '123456.789'],
    [10n, 1, '1'],
  ])('fromBaseUnits(%s, %i) = %j', (units, decimals, amount) => {
    expect(fromBaseUnits(units, decimals)).toBe(amount);
  });

  it.each([
    ['0.00038127', 8],
    ['1', 8],
    ['123.456', 6],
    ['0.000000000000000001', 18],
    ['99999999999999999999.999999999999999999', 18],
    ['42', 0],
    ['6.02', 2],
  ])('round trips %j at %i decimals', (amount, decimals) => {
    expect(fromBaseUnits(toBaseUnits(amount, decimals), decimals)).toBe(amount);
  });

  it.each([
    ['0.000000001', 8],
    ['1.123', 2],
    ['0.5', 0],
    ['1.0000001', 6],
    ['0.1234567890123456789', 18],
    ['1.0010', 2],
  ])('refuses %j at %i decimals (a digit would be lost)', (amount, decimals) => {
    let caught: unknown;
    try {
      toBaseUnits(amount, decimals);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TooManyDecimalsError);
    const error = caught as TooManyDecimalsError;
    expect(error.amount).toBe(amount);
    expect(error.decimals).toBe(decimals);
    expect(error.message).toBe(`${amount} has more than ${decimals} decimal places`);
  });

  it.each(['-1', '1e3', 'abc', '', '.5', '5.', '1,5'])('toBaseUnits refuses non-plain amount %j with a RangeError', (amount) => {
    expect(() => toBaseUnits(amount, 8)).toThrow(RangeError);
    expect(() => toBaseUnits(amount, 8)).not.toThrow(TooManyDecimalsError);
  });

  it.each([-1, 1.5, Number.NaN])('toBaseUnits refuses decimals %s', (decimals) => {
    expect(() => toBaseUnits('1', decimals)).toThrow(RangeError);
  });

  it('fromBaseUnits refuses a negative amount', () => {
    expect(() => fromBaseUnits(-1n, 8)).toThrow(RangeError);
  });
});

describe('compareDecimals', () => {
  it.each([
    ['1', '1', 0],
    ['1', '1.000', 0],
    ['0.5', '0.50', 0],
    ['0', '0.0', 0],
    ['1', '2', -1],
    ['2', '1', 1],
    ['0.1', '0.09', 1],
    ['0.09', '0.1', -1],
    ['10', '9.99999999', 1],
    ['9.99999999', '10', -1],
    ['0.00038127', '0.00038128', -1],
    ['123456789012345678901234567890', '123456789012345678901234567889.9', 1],
    ['0.000000000000000001', '0.000000000000000002', -1],
  ] as const)('compareDecimals(%j, %j) = %i', (a, b, expected) => {
    expect(compareDecimals(a, b)).toBe(expected);
  });
});
