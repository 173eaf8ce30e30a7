// Decimal keeps its digits in a private field (#text), which vitest's deep equality cannot see: to
// it, every two Decimals were equal, so `toEqual({ amount: Decimal.fromLiteral('25') })` passed
// whatever the amount. This tester makes two Decimals equal only when their digits are the same
// text (trailing zeros count: gw keeps the gateway's digits), in every toEqual and toStrictEqual.
import { expect } from 'vitest';
import { Decimal } from '../../src/money/decimal.js';

function isDecimal(value: unknown): value is Decimal {
  return value instanceof Decimal || (typeof value === 'object' && value !== null && value.constructor?.name === 'Decimal');
}

expect.addEqualityTesters([
  (a: unknown, b: unknown): boolean | undefined => {
    const left = isDecimal(a);
    const right = isDecimal(b);
    if (!left && !right) return undefined;
    if (left !== right) return false;
    return String(a) === String(b);
  },
]);
