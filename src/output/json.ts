// One JSON document for scripts. JSON.stringify already escapes C0 controls inside strings; this
// also escapes DEL, C1 controls and the invisible Unicode format characters, so gateway data
// reaches a terminal or a log only as JSON escapes, never as raw bytes a terminal would act on.
// (Outside strings, stringify emits only ASCII punctuation, digits and the indentation newlines.)
import { RAW_IN_JSON_STRINGS } from './sanitize.js';

export function toJson(value: unknown, indent = 2): string {
  const text = JSON.stringify(value, null, indent) ?? 'null';
  // Astral characters (the tag block) are written as their two UTF-16 escapes.
  const unicodeEscape = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;
  return text.replace(RAW_IN_JSON_STRINGS, (ch) => [...Array(ch.length).keys()].map((i) => unicodeEscape(ch.charCodeAt(i))).join(''));
}

/** How toJson closes `{ "<key>": [ … ] }`. */
const ARRAY_CLOSE = '\n  ]\n}';

/**
 * A document `{ "<key>": [ …items ], …tail }` written page by page, byte for byte as toJson lays out
 * the whole (a listing streamed as its pages arrive): one page's items, the first with the opening,
 * the next ones after a comma.
 */
export function jsonArrayPage(key: string, items: readonly unknown[], first: boolean): string {
  const page = toJson({ [key]: items });
  const open = `{\n  ${JSON.stringify(key)}: [`.length;
  return first ? page.slice(0, -ARRAY_CLOSE.length) : `,${page.slice(open, -ARRAY_CLOSE.length)}`;
}

/** The end of such a document: the array closed (or empty, when no page had an item), then the tail's fields. */
export function jsonArrayEnd(key: string, tail: object, empty: boolean): string {
  return `${empty ? `{\n  ${JSON.stringify(key)}: []` : '\n  ]'},${toJson(tail).slice(1)}\n`;
}
