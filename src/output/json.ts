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
