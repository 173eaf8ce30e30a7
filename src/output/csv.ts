// CSV as RFC 4180 writes it, made safe to open in a spreadsheet. Knows no payment: cells in, text out.
//
// - Records end with CRLF; a header record comes first (the caller writes it with csvRecord).
// - A field is quoted when it holds a comma, a double quote, a CR or an LF (or starts or ends with
//   a space, which some readers trim); a double quote inside is doubled. Nothing else is escaped.
// - Formula guard (after OWASP's "CSV injection"): a TEXT field starting with `=`, `+`, `-`, `@`,
//   a tab or a carriage return is prefixed with an apostrophe, so a spreadsheet shows it as text
//   instead of evaluating it (`=HYPERLINK(…)`, `=cmd|' /C calc'!A0`, `@SUM(…)`). A CSV reader sees
//   the apostrophe (LibreOffice Calc's import shows it too); it is the only change gw makes to text.
// - Numbers are not text: a numeric cell (csvNumber) holds a plain decimal (`25`, `0.00038127`,
//   `-2.5`), written as it is, never guarded, so a negative amount stays a number a spreadsheet
//   sums. A value that is not a plain decimal is not accepted as a number: it is text, guarded.
// - Text from the network loses escape sequences, control and invisible format characters (as on
//   a terminal: stdout may be one), except the tab, CR and LF a field may hold, which quoting keeps.
import { terminalSafe } from './sanitize.js';

/** A number cell: a plain decimal literal, written as it is. */
export interface CsvNumber {
  readonly number: string;
}

/** A cell: text (sanitised, formula-guarded, quoted as needed), a number, or empty (null). */
export type CsvCell = string | CsvNumber | null;

/** The characters a spreadsheet may read as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]|^ | $/;

/** A number cell; `value` is any object whose string form is a plain decimal (a Decimal). */
export function csvNumber(value: { toString(): string }): CsvNumber {
  return { number: String(value) };
}

/** Text with escape sequences and controls removed, tabs and line breaks kept. */
export function csvText(text: string): string {
  return text
    .split(/(\r\n|\r|\n|\t)/)
    .map((part, i) => (i % 2 === 1 ? part : terminalSafe(part)))
    .join('');
}

/** The formula guard: an apostrophe before a text that a spreadsheet would evaluate. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** RFC 4180 quoting of one field's final text. */
export function quoteField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One cell as it is written. */
export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell !== 'string') {
    if (PLAIN_DECIMAL.test(cell.number)) return cell.number;
    return quoteField(guardFormula(csvText(cell.number)));
  }
  return quoteField(guardFormula(csvText(cell)));
}

/** One record: the fields joined by commas, ended by CRLF. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}
