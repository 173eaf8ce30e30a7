// Plain-text tables: key/value detail blocks and columns, with decimal amounts aligned on the
// decimal point. Cells are sanitised here, so a caller cannot forget to strip gateway text.
import { terminalSafe } from './sanitize.js';

/** Visible width of a string that may contain our own SGR colour codes. */
export function visibleWidth(text: string): number {
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
}

/** The largest of `widths` (0 for none): a loop, since spreading a list of 130 000 or more into Math.max overflows the stack. */
export function widest(widths: readonly number[]): number {
  let max = 0;
  for (const width of widths) if (width > max) max = width;
  return max;
}

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}

/**
 * Pads plain decimal strings so their decimal points line up:
 * ["1.5", "120", "0.00012345"] → ["  1.5       ", "120         ", "  0.00012345"].
 */
export function alignDecimals(values: readonly string[]): string[] {
  const parts = values.map((v) => {
    const dot = v.indexOf('.');
    return dot < 0 ? { int: v, frac: '' } : { int: v.slice(0, dot), frac: v.slice(dot) };
  });
  const intWidth = widest(parts.map((p) => p.int.length));
  const fracWidth = widest(parts.map((p) => p.frac.length));
  return parts.map((p) => p.int.padStart(intWidth) + p.frac.padEnd(fracWidth));
}

export interface DetailRow {
  label: string;
  /** Already-safe text (may carry our own colour codes): gateway text comes as Untrusted's string form. */
  value: string;
}

/** A two-column key/value block: labels padded to one width. */
export function renderDetails(rows: readonly DetailRow[]): string {
  const width = widest(rows.map((r) => visibleWidth(r.label)));
  return `${rows.map((r) => `${padEnd(r.label, width)}  ${r.value}`.trimEnd()).join('\n')}\n`;
}

/** A column table with a header row; every cell is sanitised. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const safeRows = rows.map((r) => r.map((c) => terminalSafe(c)));
  const all = [header, ...safeRows];
  const widths = header.map((_, i) => widest(all.map((r) => visibleWidth(r[i] ?? ''))));
  return `${all
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : padEnd(c, widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
