// One JSON document for scripts. JSON.stringify already escapes C0 controls inside strings; this
// also escapes DEL, C1 controls and the invisible Unicode format characters, so gateway data
// reaches a terminal or a log only as JSON escapes, never as raw bytes a terminal would act on.
// (Outside strings, stringify emits only ASCII punctuation, digits and the indentation newlines.)

const RAW_IN_STRINGS = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

export function toJson(value: unknown, indent = 2): string {
  const text = JSON.stringify(value, null, indent) ?? 'null';
  // Astral characters (the tag block) are written as their two UTF-16 escapes.
  const unicodeEscape = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;
  return text.replace(RAW_IN_STRINGS, (ch) => [...Array(ch.length).keys()].map((i) => unicodeEscape(ch.charCodeAt(i))).join(''));
}
