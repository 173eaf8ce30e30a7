// Nothing the gateway sends may drive the terminal. Every gateway-derived string passes through
// `terminalSafe` before it is printed in human output or in a log line; JSON output escapes the
// same characters instead (see json.ts), so no raw control byte ever reaches stdout or stderr.

// ESC-introduced sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC
// (ESC P/X/^/_ … ST), and two-character escapes (ESC + one byte).
const ESCAPE_SEQUENCE =
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[\s\S]?/g;
// Single-byte CSI/OSC/DCS (C1 forms) with their parameters.
const C1_SEQUENCE = /\u009b[0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u009c]*(?:\u0007|\u009c)?/g;
/**
 * What is left after sequences are gone: C0 controls (incl. BEL, CR, LF, TAB), DEL, C1 controls,
 * and the invisible Unicode format characters that can reorder or hide text on screen
 * (bidirectional marks, overrides and isolates, zero-width characters, BOM, invisible tag characters).
 */
export const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

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
const PUBLIC_TEST_KEYS: ReadonlySet<string> = new Set(['sandbox', 'sandbox-merchant-key', 'sandbox-payout-key']);

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/;

/** One character of a secret, literally or in any escaped form a peer may write it back in. */
function characterPattern(ch: string): string {
  const code = ch.charCodeAt(0);
  const hex = code.toString(16).padStart(2, '0');
  const literal = REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
  if (code > 0xff) return literal;
  // %6B, \u006b, \x6b, &#107;, &#x6b; (hex digits in either case: the regex is case-insensitive
  // only for these escapes, via explicit classes, so the literal part stays case-sensitive).
  const anyCase = (h: string): string => [...h].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
  const h = anyCase(hex);
  return `(?:${literal}|%${h}|\\\\u00${h}|\\\\x${h}|&#${code};|&#[xX]0*${h};)`;
}

function secretPattern(secret: string): string {
  return [...secret].map(characterPattern).join('');
}

/**
 * Replaces every key with ****: written literally, percent-encoded, as JSON/JS escapes or HTML
 * character references (whole or in part), and also the first or last MIN_PIECE_LENGTH or more
 * characters of a key standing alone (a key the peer cut short at the edge of a message).
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const scrubber = scrubberFor(secrets);
  if (scrubber === undefined) return text;
  const safe = text.replace(scrubber.whole, '****');
  // A run of key-like characters that starts or ends a key (a truncated key) is a key too.
  return safe.replace(/[A-Za-z0-9_-]{8,}/g, (token) =>
    token.length >= MIN_PIECE_LENGTH && scrubber.keys.some((k) => k.startsWith(token) || k.endsWith(token)) ? '****' : token,
  );
}

interface Scrubber {
  keys: readonly string[];
  whole: RegExp;
}

/**
 * The compiled pattern for a list of keys, built once per distinct list: every line a long-running
 * command prints (gw listen: thousands a second) is scrubbed, and compiling the pattern costs far
 * more than matching it.
 */
let lastScrubber: { id: string; scrubber: Scrubber | undefined } | undefined;

function scrubberFor(secrets: readonly string[]): Scrubber | undefined {
  const id = secrets.join('\u0000');
  if (lastScrubber?.id === id) return lastScrubber.scrubber;
  const keys = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH && !PUBLIC_TEST_KEYS.has(s));
  const scrubber =
    keys.length === 0
      ? undefined
      : {
          keys,
          whole: new RegExp(
            [...keys]
              .sort((a, b) => b.length - a.length)
              .map(secretPattern)
              .join('|'),
            'g',
          ),
        };
  lastScrubber = { id, scrubber };
  return scrubber;
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
