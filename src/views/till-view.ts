// What gw counter shows around the counter screen: the amount prompt, the last payments of the
// session, the screens while a payment is created or looked up, the line under a final state, and
// the day's summary printed on the normal screen at the end. Pure: state in, lines out, each at
// most width − 1 columns and height − 1 rows (the counter screen's own rule), so nothing wraps or
// scrolls at 80×24. The payment itself is the counter screen (counter-screen.ts, pay-view.ts).
import type { Decimal } from '../money/decimal.js';
import { truncateVisible, wrapPlain } from '../output/cells.js';
import type { Palette } from '../output/palette.js';
import { terminalSafe } from '../output/sanitize.js';
import { renderTable } from '../output/table.js';
import { localClock } from '../output/time.js';
import { saleCoin, type PromptState, type Sale, type SaleState, type TillDefaults, type TillSummary } from './till-state.js';

export interface TillScreenInput {
  width: number;
  height: number;
  chalk: Palette;
  sandbox: boolean;
}

/** The keys of the prompt, as they are shown under it. */
export const PROMPT_KEYS = [
  ['0-9 .', 'amount'],
  ['Enter', 'charge'],
  ['c', 'coin for this sale'],
  ['o', 'order id'],
  ['r', 'last payments'],
  ['Esc', 'clear'],
  ['q', 'end the day'],
] as const;

function fitScreen(lines: readonly string[], input: TillScreenInput): string[] {
  const width = Math.max(20, input.width - 1);
  const height = Math.max(5, input.height - 1);
  const fitted = lines.map((line) => truncateVisible(line, width));
  return fitted.length <= height ? fitted : [...fitted.slice(0, height - 1), fitted[fitted.length - 1] ?? ''];
}

/** The title line: gw counter, the SANDBOX mark on sandbox runs. */
function title(input: TillScreenInput, what: string): string {
  const { chalk } = input;
  const mark = input.sandbox ? ` ${chalk.bgYellow.black(' SANDBOX ')} ${chalk.yellow('test payments: send nothing')}` : '';
  return `${chalk.bold('gw counter')} ${chalk.dim('·')} ${what}${mark}`;
}

/**
 * Keys as "Enter charge · c coin for this sale · …", wrapped to the width between keys, never
 * inside one: a key stays on the line of what it does ("q end the day", not "q" then "end the day").
 */
export function keyLines(keys: ReadonlyArray<readonly [string, string]>, input: TillScreenInput): string[] {
  const width = Math.max(20, input.width - 1);
  const { chalk } = input;
  const lines: string[] = [];
  let line = '';
  for (const [key, what] of keys) {
    const item = `${key} ${what}`;
    if (line !== '' && line.length + 3 + item.length <= width) line += ` · ${item}`;
    else {
      if (line !== '') lines.push(line);
      line = item;
    }
  }
  if (line !== '') lines.push(line);
  // A key wider than the window alone is wrapped at its words (the screen never overflows).
  return lines.flatMap((text) => wrapPlain(text, width)).map((text) => chalk.dim(text));
}

export interface PromptScreenInput extends TillScreenInput {
  prompt: PromptState;
  defaults: TillDefaults;
  /** Sales so far today and how many are still open. */
  sales: number;
  open: number;
}

function coinWords(coin: { payCurrency: string; network?: string | undefined }): string {
  return `${terminalSafe(coin.payCurrency)}${coin.network === undefined ? '' : ` on ${terminalSafe(coin.network)}`}`;
}

/** The amount prompt. */
export function promptScreen(input: PromptScreenInput): string[] {
  const { chalk, prompt, defaults } = input;
  const coin = saleCoin(prompt, defaults);
  const changed = prompt.coin !== undefined || prompt.retry?.coin !== undefined;
  const lines = [title(input, 'next customer'), ''];
  lines.push(
    `Charge in ${chalk.bold(terminalSafe(defaults.currency))}, paid in ${chalk.bold(coinWords(coin))}${changed ? chalk.yellow(' (this sale only)') : ''}`,
  );
  const orderId = prompt.retry?.orderId ?? prompt.orderId;
  lines.push(orderId === undefined ? chalk.dim('Order id: generated for each sale') : `Order id: ${terminalSafe(orderId)}`);
  lines.push('');
  const amount = prompt.retry?.amount ?? prompt.amount;
  const cursor = prompt.field === undefined && prompt.retry === undefined ? chalk.bold('_') : '';
  lines.push(`  Amount  ${chalk.bold(amount)}${cursor}  ${terminalSafe(defaults.currency)}`);
  lines.push('');
  const field = prompt.field;
  if (field !== undefined) {
    const ask =
      field.kind === 'coin'
        ? `Coin for this sale (Enter alone: ${terminalSafe(defaults.payCurrency)})`
        : field.kind === 'network'
          ? `Network for ${terminalSafe(field.coin ?? '')} (Enter alone: the gateway's choice)`
          : 'Order id for this sale (Enter alone: generated)';
    lines.push(`${ask}: ${terminalSafe(field.text)}${chalk.bold('_')}`);
    lines.push(chalk.dim('Enter confirm · Esc cancel'));
  } else if (prompt.retry !== undefined) {
    lines.push(chalk.yellow(`Order ${terminalSafe(prompt.retry.orderId)} was not created.`));
    lines.push(`${chalk.bold('Enter')} create it now, under the same order id · ${chalk.bold('Esc')} drop this sale`);
  } else {
    lines.push('');
    lines.push('');
  }
  lines.push('');
  if (prompt.message !== undefined) {
    const tone = prompt.message.tone === 'error' ? chalk.red : (t: string) => t;
    for (const line of wrapPlain(terminalSafe(prompt.message.text), Math.max(20, input.width - 1)).slice(0, 4)) lines.push(tone(line));
    // A command on a line of its own, never broken (cut with … only on a window too narrow for it).
    if (prompt.message.command !== undefined) lines.push(`  ${chalk.bold(terminalSafe(prompt.message.command))}`);
    lines.push('');
  }
  lines.push(chalk.dim(`Today: ${input.sales} sale${input.sales === 1 ? '' : 's'}${input.open > 0 ? `, ${input.open} still open` : ''}`));
  // The sandbox's outcomes follow the order id's ending (docs/sandbox.md).
  if (input.sandbox) {
    const outcomes = 'Sandbox outcomes: order id (o) ending -underpay -partial -expire -late -fail -mixed -refund';
    for (const line of wrapPlain(outcomes, Math.max(20, input.width - 1))) lines.push(chalk.dim(line));
  }
  lines.push(...keyLines(PROMPT_KEYS, input));
  return fitScreen(lines, input);
}

/** The words for a sale's state. */
export function saleStateWords(state: SaleState): string {
  return state === 'not-confirmed' ? 'not confirmed' : state;
}

/** The last payments of the session, newest first, as many as fit. */
export function recentScreen(input: TillScreenInput & { sales: readonly Sale[] }): string[] {
  const { chalk } = input;
  const room = Math.max(1, input.height - 6);
  const rows = input.sales
    .slice(0, room)
    .map((sale) => [localClock(new Date(sale.at)), sale.trackId ?? '—', `${sale.amount} ${sale.currency}`, sale.payCurrency, saleStateWords(sale.state)]);
  const lines = [title(input, 'last payments'), ''];
  if (rows.length === 0) lines.push('No payments yet today.');
  else lines.push(...renderTable(['Time', 'Track ID', 'Amount', 'Coin', 'State'], rows).replace(/\n$/, '').split('\n'));
  lines.push('', chalk.dim('Any key: back to the prompt'));
  return fitScreen(lines, input);
}

/** While a payment is created or looked up: what is happening, and the keys that work then. */
export function busyScreen(input: TillScreenInput & { what: string; lines: readonly string[]; keys?: ReadonlyArray<readonly [string, string]> }): string[] {
  const width = Math.max(20, input.width - 1);
  const lines = [title(input, input.what), ''];
  for (const line of input.lines) lines.push(...(line === '' ? [''] : wrapPlain(line, width)));
  if (input.keys !== undefined && input.keys.length > 0) lines.push('', ...keyLines(input.keys, input));
  return fitScreen(lines, input);
}

/** The line under a final state: what Enter does, and when the prompt comes back by itself. */
export function holdLine(secondsLeft: number, chalk: Palette): string {
  return chalk.dim(`Enter: next customer · the prompt comes back in ${secondsLeft} s`);
}

// ---------------------------------------------------------------------------------------------
// The day's summary, on the normal screen

function sums(map: ReadonlyMap<string, Decimal>): string {
  return [...map].map(([currency, total]) => `${total} ${terminalSafe(currency)}`).join(' + ') || '—';
}

/** The session's summary: counts and totals per state and currency, what arrived per coin, what is still open. */
export function summaryText(summary: TillSummary, chalk: Palette, sandbox: boolean): string {
  const mark = sandbox ? ` ${chalk.bgYellow.black(' SANDBOX ')}` : '';
  let text = `${chalk.bold('gw counter: the day ends')}${mark}\n`;
  if (summary.count === 0) return `${text}No sales.\n`;
  text += `${summary.count} sale${summary.count === 1 ? '' : 's'}\n\n`;
  text += renderTable(
    ['State', 'Sales', 'Asked'],
    summary.byState.map((row) => [saleStateWords(row.state), String(row.count), sums(row.asked)]),
  );
  text += '\n';
  const asked = [...summary.asked].map(([currency, row]) => `${row.total} ${terminalSafe(currency)} (${row.count})`).join(' + ');
  text += `Asked:   ${asked}\n`;
  let arrived = sums(summary.arrived);
  if (summary.arrived.size === 0) arrived = 'nothing';
  if (summary.unconfirmed.size > 0) arrived += ` (${sums(summary.unconfirmed)} of it not confirmed yet)`;
  text += `Arrived: ${arrived}\n`;
  if (summary.arrivalUnreported > 0)
    text += `${chalk.yellow(`The gateway did not report what arrived for ${summary.arrivalUnreported} payment${summary.arrivalUnreported === 1 ? '' : 's'} (legacy API): not counted above.`)}\n`;
  if (summary.open.length > 0) {
    text += `\n${chalk.yellow.bold(`Still open (${summary.open.length}):`)} follow each with its command\n`;
    for (const { sale, command } of summary.open) {
      const who = sale.trackId === undefined ? `order ${terminalSafe(sale.orderId)}` : sale.trackId;
      text += `  ${who}  ${sale.amount} ${terminalSafe(sale.currency)}  ${saleStateWords(sale.state)}\n    ${command}\n`;
    }
  }
  const unwritten = summary.receiptsNotWritten;
  if (unwritten.length > 0) {
    text += `\n${chalk.red.bold(`Receipts not written (${unwritten.length}):`)}\n`;
    for (const line of unwritten) text += `  ${terminalSafe(line)}\n`;
  }
  return text;
}
