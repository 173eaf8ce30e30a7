// Nothing the gateway sends may drive the terminal. Every gateway-derived string passes through
// `terminalSafe` before it is printed in human output or in a log line; JSON output escapes the
// same characters instead (see json.ts), so no raw control byte ever reaches stdout or stderr.

// ESC-introduced sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC
// (ESC P/X/^/_ … ST), and two-character escapes (ESC + one byte).
const ESCAPE_SEQUENCE =
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[\s\S]?/g;
// Single-byte CSI/OSC/DCS (C1 forms) with their parameters.
const C1_SEQUENCE = /\u009b[0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u009c]*(?:\u0007|\u009c)?/g;
/** C0 controls (incl. BEL, CR, LF, TAB), DEL and C1 controls: a character class's ranges. */
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
/**
 * The invisible Unicode format characters that can reorder or hide text on screen: bidirectional
 * marks, overrides and isolates, zero-width characters, line and paragraph separators, BOM,
 * invisible tag characters. A character class's ranges (for a /u expression).
 */
const INVISIBLES = '\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff\\u{e0000}-\\u{e007f}';

/** One C0 control, DEL or C1 control (for test()). */
export const CONTROL_CHARACTER = new RegExp(`[${CONTROLS}]`);

/** What is left after sequences are gone: every control and invisible format character (global). */
export const UNSAFE_CHARACTER = new RegExp(`[${CONTROLS}${INVISIBLES}]`, 'gu');

/**
 * What JSON.stringify leaves raw inside strings of the unsafe characters: all but the C0 controls,
 * which it escapes itself (and whose newline indents the document). Global; json.ts escapes them.
 */
export const RAW_IN_JSON_STRINGS = new RegExp(`[\\u007f-\\u009f${INVISIBLES}]`, 'gu');

/** Strips escape sequences and control/format characters so the text prints as inert characters. */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(C1_SEQUENCE, '').replace(UNSAFE_CHARACTER, '');
}

/** Keys shorter than this are not real keys; replacing them everywhere would garble words. */
export const MIN_SECRET_LENGTH = 6;

/** A piece of a key this long, at the key's start or end, is a key cut short. */
const MIN_PIECE_LENGTH = 8;

/**
 * Test keys everybody knows (the real service's documented test key and the embedded sandbox's):
 * not secrets, and common words, so they are not scrubbed.
 */
const PUBLIC_TEST_KEYS: ReadonlySet<string> = new Set(['sandbox', 'sandbox-merchant-key', 'sandbox-payout-key', 'sandbox-general-key']);

/**
 * An escaped character a peer may write a key back in: %6B, \u006b, \x6b, &#107;, &#x6b; (hex
 * digits in either case). Characters above U+00FF have no such form here: they match literally.
 * The backslash forms also with their backslash escaped (\\u006b): how they appear once the text
 * holding them is itself written as a JSON string (gw listen --json's `body`).
 */
const ESCAPED_CHARACTER = /%([0-9a-fA-F]{2})|\\{1,2}u00([0-9a-fA-F]{2})|\\{1,2}x([0-9a-fA-F]{2})|&#([0-9]{1,3});|&#[xX]0*([0-9a-fA-F]{1,2});/g;
const HAS_ESCAPE = new RegExp(ESCAPED_CHARACTER.source);
const KEY_PIECE = new RegExp(`[A-Za-z0-9_-]{${MIN_PIECE_LENGTH},}`, 'g');

/**
 * Replaces every key with ****: written literally, percent-encoded, as JSON/JS escapes or HTML
 * character references (whole or in part), and also the first or last MIN_PIECE_LENGTH or more
 * characters of a key standing alone (a key the peer cut short at the edge of a message).
 *
 * It runs on every answer and every line gw writes, so it compiles nothing per key: text without
 * an escape is searched for each key as it is; text with escapes is decoded once, remembering
 * where each character came from, and a key found in the decoded text is cut from the original.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const keys = keysOf(secrets);
  if (keys.length === 0) return text;
  const safe = HAS_ESCAPE.test(text) ? cutDecodedKeys(text, keys) : cutKeys(text, keys);
  // A run of key-like characters that starts or ends a key (a truncated key) is a key too. Such a
  // run holds the key's first or last MIN_PIECE_LENGTH characters: text with neither has none.
  if (!keys.some((k) => safe.includes(k.slice(0, MIN_PIECE_LENGTH)) || safe.includes(k.slice(-MIN_PIECE_LENGTH)))) return safe;
  return safe.replace(KEY_PIECE, (token) => (keys.some((k) => k.startsWith(token) || k.endsWith(token)) ? '****' : token));
}

/**
 * The keys worth scrubbing, longest first, worked out again only when the list differs from the
 * last one seen (a writer's list grows as gw learns the keys: never a remembered one).
 */
let lastList: readonly string[] = [];
let lastKeys: readonly string[] = [];
function keysOf(secrets: readonly string[]): readonly string[] {
  if (secrets.length !== lastList.length || secrets.some((s, i) => s !== lastList[i])) {
    lastList = [...secrets];
    lastKeys = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH && !PUBLIC_TEST_KEYS.has(s)).sort((a, b) => b.length - a.length);
  }
  return lastKeys;
}

/** Each key written literally, longest first. */
function cutKeys(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) if (out.includes(key)) out = out.split(key).join('****');
  return out;
}

/** Each key, in any mixture of literal and escaped characters, longest first. */
function cutDecodedKeys(text: string, keys: readonly string[]): string {
  // decoded[n] came from text[from[n]] up to (not including) text[to[n]].
  const parts: string[] = [];
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  let n = 0;
  let at = 0;
  const literalUpTo = (end: number): void => {
    parts.push(text.slice(at, end));
    for (; at < end; at++, n++) {
      from[n] = at;
      to[n] = at + 1;
    }
  };
  for (const m of text.matchAll(ESCAPED_CHARACTER)) {
    literalUpTo(m.index);
    const hex = m[1] ?? m[2] ?? m[3] ?? m[5];
    const code = hex === undefined ? Number(m[4]) : parseInt(hex, 16);
    if (code > 0xff) {
      literalUpTo(m.index + m[0].length);
      continue;
    }
    parts.push(String.fromCharCode(code));
    from[n] = m.index;
    to[n] = m.index + m[0].length;
    n++;
    at = m.index + m[0].length;
  }
  literalUpTo(text.length);
  const decoded = parts.join('');
  const taken = new Uint8Array(decoded.length);
  const cuts: Array<[number, number]> = [];
  for (const key of keys) {
    for (let found = decoded.indexOf(key); found !== -1; found = decoded.indexOf(key, found + 1)) {
      if (taken.subarray(found, found + key.length).includes(1)) continue;
      taken.fill(1, found, found + key.length);
      cuts.push([from[found] ?? 0, to[found + key.length - 1] ?? 0]);
    }
  }
  // A key cut short, escaped (a field printed at its width: `%5a%6b3%4c…`): the pass in
  // scrubSecrets sees only literal pieces.
  for (const m of decoded.matchAll(KEY_PIECE)) {
    const token = m[0];
    const end = m.index + token.length;
    if (taken.subarray(m.index, end).includes(1) || !keys.some((k) => k.startsWith(token) || k.endsWith(token))) continue;
    cuts.push([from[m.index] ?? 0, to[end - 1] ?? 0]);
  }
  if (cuts.length === 0) return text;
  cuts.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  for (const [start, end] of cuts) {
    out += `${text.slice(last, start)}****`;
    last = end;
  }
  return out + text.slice(last);
}

/**
 * Gateway text for one line of a message: safe (as terminalSafe), line breaks and runs of white
 * space folded to one space so words stay apart, and at most `max` characters (… when cut).
 */
export function oneLine(text: string, max: number): string {
  const clean = terminalSafe(text.replace(/\s+/g, ' ')).replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** True when the string would be changed by terminalSafe (used to refuse hostile values outright). */
export function hasUnsafeCharacters(text: string): boolean {
  return terminalSafe(text) !== text;
}

/**
 * `text` as one word a POSIX shell reads back exactly: as it is when it holds only safe
 * characters, else in single quotes, or, when it holds control or invisible characters, in bash's
 * $'…' quoting with those characters written as escapes ($'ord\u200Ber-1'), so a hint naming it
 * shows every character and pasting it gives the same bytes (bash, zsh, ksh; POSIX sh since 2024).
 */
export function shellQuote(text: string): string {
  if (/^[A-Za-z0-9._:@%+=,/-]+$/.test(text)) return text;
  const invisible = new RegExp(UNSAFE_CHARACTER.source, 'u');
  if (!invisible.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const ch of text) {
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (invisible.test(ch)) {
      const code = ch.codePointAt(0) ?? 0;
      out += code > 0xffff ? `\\U${code.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    } else out += ch;
  }
  return `$'${out}'`;
}
