// Text that came from the network (after gh's `Untrusted`): every string decoded from a gateway
// answer, a notification or any other peer is wrapped in this type at the decoding boundary.
//
// - Its string form (`String(u)`, `${u}`, chalk, tables) is terminal-safe: escape sequences,
//   control characters and invisible format characters are gone, so printing it cannot drive the
//   terminal. This is the default, so a new print site is safe without thinking about it.
// - `toJSON()` gives the exact text: JSON output escapes the dangerous characters itself
//   (see json.ts), and scripts need the gateway's exact value.
// - The exact text for anything else (a payment URI, a hash, a comparison) takes a visible,
//   greppable decision: `.raw()`.
import { oneLine, terminalSafe } from './sanitize.js';

export class Untrusted {
  readonly #raw: string;

  private constructor(raw: string) {
    this.#raw = raw;
  }

  static of(raw: string): Untrusted {
    return new Untrusted(raw);
  }

  /** Terminal-safe: what every print site gets. */
  toString(): string {
    return terminalSafe(this.#raw);
  }

  /** One line for a message: safe, white space folded, at most `max` characters. */
  line(max = 200): string {
    return oneLine(this.#raw, max);
  }

  /** For JSON output: the exact text (the JSON writer escapes control characters). */
  toJSON(): string {
    return this.#raw;
  }

  /** The exact bytes the peer sent. Never print this: use it for URIs, hashing and comparisons. */
  raw(): string {
    return this.#raw;
  }

  get isBlank(): boolean {
    return this.#raw.trim() === '';
  }
}

/** Wraps a decoded string, passing null through. */
export function untrusted(value: string): Untrusted;
export function untrusted(value: string | null): Untrusted | null;
export function untrusted(value: string | null): Untrusted | null {
  return value === null ? null : Untrusted.of(value);
}
