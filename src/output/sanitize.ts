// Nothing the gateway sends may drive the terminal. Every gateway-derived string passes through
// `terminalSafe` before it is printed in human output or in a log line; JSON output escapes the
// same characters instead (see json.ts), so no raw control byte ever reaches stdout or stderr.

// ESC-introduced sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC
// (ESC P/X/^/_ … ST), and two-character escapes (ESC + one byte).
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[\s\S]?/g;
// Single-byte CSI/OSC/DCS (C1 forms) with their parameters.
// eslint-disable-next-line no-control-regex
const C1_SEQUENCE = /\u009b[0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u009c]*(?:\u0007|\u009c)?/g;
/**
 * What is left after sequences are gone: C0 controls (incl. BEL, CR, LF, TAB), DEL, C1 controls,
 * and the invisible Unicode format characters that can reorder or hide text on screen
 * (bidirectional marks, overrides and isolates, zero-width characters, BOM, invisible tag characters).
 */
// eslint-disable-next-line no-control-regex
export const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/** Strips escape sequences and control/format characters so the text prints as inert characters. */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(C1_SEQUENCE, '').replace(UNSAFE_CHARACTER, '');
}

/** Replaces every occurrence of each secret (the API keys) with ****. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let safe = text;
  for (const secret of secrets) if (secret.length > 0) safe = safe.split(secret).join('****');
  return safe;
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
