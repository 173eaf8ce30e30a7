// Checks of command-line arguments shared by several commands. Each throws a UsageError (exit 64)
// naming the argument, before any file is read or any request is made.
import { UsageError } from '../errors.js';
import { CONTROL_CHARACTER, hasUnsafeCharacters, UNSAFE_CHARACTER } from '../output/sanitize.js';
import { maskUrlText } from '../output/url-credentials.js';
import { asciiUpperCase } from '../util/ascii.js';

/**
 * Currency symbols as the gateway writes them: ASCII letters and digits (BTC, USDT, USDC.e, 1INCH),
 * upper-cased by ASCII rules only. Anything outside ASCII is refused, not folded: Unicode's
 * upper-casing turns a long s (ſ) into S, a dotless ı into I and ligatures into two letters, so
 * "uſdt" would quietly become USDT.
 */
export function parseSymbol(text: string, what: string): string {
  const trimmed = text.replace(/^[ \t]+|[ \t]+$/g, '');
  const foreign = [...trimmed].find((ch) => ch > '\u007f');
  if (foreign !== undefined) {
    throw new UsageError(
      `${what} must be a currency symbol in ASCII letters and digits such as BTC or USDT (got ${visibleArg(text, 30)}: ${codePoint(foreign)} is not ASCII)`,
    );
  }
  const symbol = asciiUpperCase(trimmed);
  if (!/^[A-Z0-9][A-Z0-9._-]{0,19}$/.test(symbol)) {
    throw new UsageError(`${what} must be a currency symbol such as BTC or USDT (got ${visibleArg(text, 30)})`);
  }
  return symbol;
}

/** Free text the user gives (order id, description): one line, no control characters. */
export function parseText(text: string, flag: string, max = 500): string {
  if (CONTROL_CHARACTER.test(text)) throw new UsageError(`${flag} must not contain control characters (got ${visibleArg(text, 60)})`);
  if (text.length > max) throw new UsageError(`${flag} must be at most ${max} characters`);
  return text;
}

/**
 * An order id gw sends with a new payment: free text as parseText, and nothing invisible either
 * (zero-width characters, bidirectional marks, the BOM, tag characters). Such an id cannot be read
 * off a screen or typed again, so a payment created with it could not be found by what gw prints
 * after a failure (`gw payments --order-id <id>`): it is refused before anything is sent.
 */
export function parseOrderId(text: string, flag = '--order-id'): string {
  const id = parseText(text, flag, 100);
  if (hasUnsafeCharacters(id)) {
    throw new UsageError(
      `${flag} must not contain invisible characters (got ${visibleArg(text, 60)})`,
      'an order id is read off the screen and typed again to find its payment: use visible characters',
    );
  }
  return id;
}

/**
 * A URL the user gives (callback, forwarding, sandbox): printable characters only. The WHATWG
 * parser quietly drops tabs and line breaks, so "https://shop/hook\nX" would pass as
 * https://shop/hookX while the text sent or used differs; any control character, white space or
 * invisible character is refused instead, before any request.
 */
export function checkUrlText(text: string, flag: string): void {
  const url = text.replace(/^ +| +$/g, '');
  if (CONTROL_CHARACTER.test(url) || /\s/.test(url) || hasUnsafeCharacters(url)) {
    throw new UsageError(
      `${flag} must be a URL without spaces, line breaks or other control or invisible characters (got ${visibleArg(maskUrlText(text), 60)})`,
    );
  }
}

/**
 * An http:// or https:// URL the user gives (--callback-url, --forward-to, webhook send's <url>,
 * the sandbox's --url): printable text (checkUrlText) that the WHATWG parser reads as http(s) with
 * a host. A user name or password in it is refused unless `credentials` allows them (a callback
 * URL is the merchant's own, passed on to the gateway as written).
 */
export function parseHttpUrl(text: string, flag: string, options: { credentials?: 'allowed' } = {}): URL {
  checkUrlText(text, flag);
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new UsageError(`${flag} must be an http(s) URL (got "${maskUrlText(text).slice(0, 60)}")`);
  }
  if (options.credentials !== 'allowed' && (url.username !== '' || url.password !== '')) {
    throw new UsageError(`${flag} must not contain a user name or password`);
  }
  return url;
}

/** A payment's track id as gw pay printed it: one word of free text (parseText), at most 100 characters. */
export function parseTrackId(text: string, what = '<trackId>'): string {
  const trimmed = parseText(text, what, 100).trim();
  if (trimmed === '' || /\s/.test(trimmed)) throw new UsageError(`${what} must be a payment's track id such as 184729305 (got "${text.slice(0, 40)}")`);
  return trimmed;
}

/** "U+017F". */
function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * An argument quoted for a message, its control and invisible characters written as escapes
 * (\n, \u200B) so the user sees what is wrong with it; at most `max` characters of it.
 */
export function visibleArg(text: string, max: number): string {
  return JSON.stringify([...text].slice(0, max).join('')).replace(UNSAFE_CHARACTER, unicodeEscape);
}

/** \u200B, or \u{E0041} beyond the first plane. */
export function unicodeEscape(ch: string): string {
  const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase();
  return code.length > 4 ? `\\u{${code}}` : `\\u${code.padStart(4, '0')}`;
}

/** A port number, 0 meaning any free one. */
export function parsePort(text: string | undefined, flag = '--port'): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text.trim()) || port > 65535) throw new UsageError(`${flag} must be a port number 0–65535 (got "${text.slice(0, 20)}")`);
  return port;
}

/** --qr (true), --no-qr (false) or neither (decide from the terminal). */
export function qrChoice(flag: boolean | undefined): 'auto' | 'always' | 'never' {
  return flag === true ? 'always' : flag === false ? 'never' : 'auto';
}
