// Argument checks: currency symbols are ASCII, URLs carry no control or invisible characters,
// order ids carry nothing invisible; and shellQuote names any text so that pasting it gives the
// same bytes back (checked with a real bash).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkUrlText, parseHttpUrl, parseOrderId, parseSymbol, visibleArg } from '../../src/cmdutil/args.js';
import { resumeCommand } from '../../src/cmdutil/wait.js';
import { UsageError } from '../../src/errors.js';
import { shellQuote, terminalSafe } from '../../src/output/sanitize.js';

describe('parseSymbol', () => {
  it.each([
    ['btc', 'BTC'],
    [' usdt ', 'USDT'],
    ['usdc.e', 'USDC.E'],
    ['1inch', '1INCH'],
  ])('%j → %s', (text, symbol) => {
    expect(parseSymbol(text, '<currency>')).toBe(symbol);
  });

  // What Unicode upper-casing makes of each: a real symbol.
  it.each([
    ['uſdt', 'USDT'],
    ['bıtcoin', 'BITCOIN'],
    ['ﬀ', 'FF'],
    ['uﬅ', 'UST'],
    ['ＢＴＣ', 'ＢＴＣ'],
    ['btc\u00a0', 'BTC\u00a0'],
    ['usdt\u200b', 'USDT\u200b'],
  ])('%j is refused (Unicode would make it %j)', (text, folded) => {
    expect(text.toUpperCase()).toBe(folded);
    expect(() => parseSymbol(text, '<currency>')).toThrow(UsageError);
    expect(() => parseSymbol(text, '<currency>')).toThrow(/is not ASCII/);
  });
});

describe('checkUrlText', () => {
  it.each([
    'https://shop.example/a\nb',
    'https://shop.example/\r',
    'https://shop.example/\t',
    'https://shop.example/\u0085',
    'https://shop.example/\u2028',
    'https://shop.example/\u200b',
    'https://shop.example/a b',
  ])('%j → usage error', (url) => {
    expect(() => checkUrlText(url, '--callback-url')).toThrow(UsageError);
  });

  it('a plain URL, with spaces around it, passes', () => {
    expect(() => checkUrlText(' https://shop.example/hook?a=1&b=%20 ', '--callback-url')).not.toThrow();
  });
});

describe('parseHttpUrl', () => {
  it.each([
    ['https://shop.example/hook', 'https://shop.example/hook'],
    [' http://127.0.0.1:3000/n ', 'http://127.0.0.1:3000/n'],
  ])('%j → %s', (text, href) => {
    expect(parseHttpUrl(text, '--forward-to').href).toBe(href);
  });

  it.each(['ftp://shop.example/x', 'shop.example/hook', 'https://', 'mailto:a@b.example', 'https://shop.example/a b'])('%j is refused', (text) => {
    expect(() => parseHttpUrl(text, '--forward-to')).toThrow(UsageError);
  });

  it('a user name or password only where the flag allows them', () => {
    expect(() => parseHttpUrl('https://u:p@shop.example/hook', '--forward-to')).toThrow(/--forward-to must not contain a user name or password/);
    expect(parseHttpUrl('https://u:p@shop.example/hook', '--callback-url', { credentials: 'allowed' }).username).toBe('u');
  });
});

describe('parseOrderId', () => {
  it.each(['o\u200b1', 'o\u202e1', '\ufeffo1', 'o1\u{e0041}', 'o\u2060'])('%j → usage error naming the character', (id) => {
    expect(() => parseOrderId(id)).toThrow(/--order-id must not contain invisible characters \(got ".*\\u/);
  });

  it('visible text, any script, passes as it is', () => {
    expect(parseOrderId("it's #1 é 注文")).toBe("it's #1 é 注文");
  });
});

describe('visibleArg', () => {
  it('writes control and invisible characters as escapes', () => {
    expect(visibleArg('a\nb\u200bc\u{e0041}', 60)).toBe('"a\\nb\\u200Bc\\u{E0041}"');
  });
});

/** What bash makes of `word`: the bytes of its one argument. */
function bashReads(word: string): string {
  return execFileSync('bash', ['-c', `printf '%s' ${word}`], { encoding: 'utf8' });
}

describe('shellQuote: pasted into bash, the exact text comes back', () => {
  it.each(['ORD-7', "it's #1", 'a b\tc', 'order\u200b-1', 'rtl\u202eevil', 'bel\u0007 esc\u001b[31m', "both ' and \\ and \u200b", 'tag\u{e0041}', '注文 #5'])(
    '%j',
    (text) => {
      const word = shellQuote(text);
      expect(terminalSafe(word)).toBe(word); // survives the hint's sanitising unchanged
      expect(bashReads(word)).toBe(text);
    },
  );

  it('simple ids stay bare', () => {
    expect(shellQuote('gw-20261122-140205-k7q3')).toBe('gw-20261122-140205-k7q3');
  });

  it('gw status hints name a hostile track id exactly', () => {
    const hint = resumeCommand('trk\u200b42', false);
    expect(hint).toBe("gw status $'trk\\u200B42' --wait");
    expect(terminalSafe(hint)).toBe(hint);
  });
});
