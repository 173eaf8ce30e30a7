// Gateway text as a type: printing it is safe by default, its exact bytes take a visible call, and
// JSON output keeps the exact text (escaped by the JSON writer).
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/output/json.js';
import { Untrusted } from '../../src/output/untrusted.js';

const ESC = '\u001b';
const EVIL = `Order ${ESC}[1m7${ESC}[0m\u202E${ESC}]8;;https://evil.example/\u0007x`;

describe('Untrusted', () => {
  it('prints safely wherever a string is made from it: String(), template literals, chalk', () => {
    const u = Untrusted.of(EVIL);
    expect(String(u)).toBe('Order 7x');
    expect(`${u}`).toBe('Order 7x');
    expect(new Chalk({ level: 0 }).bold(u)).toBe('Order 7x');
    expect([u].join(',')).toBe('Order 7x');
  });

  it('keeps the exact text for JSON output, where the JSON writer escapes it', () => {
    const u = Untrusted.of(EVIL);
    expect(JSON.parse(toJson({ u })).u).toBe(EVIL);
    expect(toJson({ u })).not.toContain(ESC);
  });

  it('gives the exact bytes only through raw()', () => {
    expect(Untrusted.of(EVIL).raw()).toBe(EVIL);
  });

  it('isBlank is about the text, not its safe form', () => {
    expect(Untrusted.of('  ').isBlank).toBe(true);
    expect(Untrusted.of('x').isBlank).toBe(false);
  });
});

describe('Untrusted.line: gateway text for one line of a message', () => {
  it.each([
    ['Invalid merchant API key', 'Invalid merchant API key'],
    ['  spaced   out  text ', 'spaced out text'],
    ['\u001b[31mred\u001b[0m alert\u0007', 'red alert'],
    ['bidi \u202eevil', 'bidi evil'],
    ['Zürich 東京', 'Zürich 東京'],
  ])('%j → %j', (input, expected) => {
    expect(Untrusted.of(input).line(201)).toBe(expected);
  });

  it.each([[''], ['   '], ['\u001b[2J']])('is empty for %j', (value) => {
    expect(Untrusted.of(value).line()).toBe('');
  });

  // Line breaks and tabs keep the words on either side apart (they are folded before stripping).
  it.each([
    ['Invalid\namount', 'Invalid amount'],
    ['line one\r\nline two', 'line one line two'],
    ['tab\tseparated', 'tab separated'],
  ])('turns line breaks and tabs between words into one space: %j → %j', (input, expected) => {
    expect(Untrusted.of(input).line(201)).toBe(expected);
  });

  it('cuts long text to 200 characters and an ellipsis', () => {
    expect(Untrusted.of('x'.repeat(200)).line(201)).toBe('x'.repeat(200));
    expect(Untrusted.of('x'.repeat(500)).line(201)).toBe(`${'x'.repeat(200)}…`);
  });
});
