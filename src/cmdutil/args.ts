// Checks of command-line arguments shared by several commands. Each throws a UsageError (exit 64)
// naming the argument, before any file is read or any request is made.
import { UsageError } from '../errors.js';

/** Currency symbols as the gateway writes them: letters and digits (BTC, USDT, USDC.e, 1INCH). */
export function parseSymbol(text: string, what: string): string {
  const symbol = text.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9._-]{0,19}$/.test(symbol)) {
    throw new UsageError(`${what} must be a currency symbol such as BTC or USDT (got "${text.slice(0, 30)}")`);
  }
  return symbol;
}

/** Free text the user gives (order id, description): one line, no control characters. */
export function parseText(text: string, flag: string, max = 500): string {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) throw new UsageError(`${flag} must not contain control characters`);
  if (text.length > max) throw new UsageError(`${flag} must be at most ${max} characters`);
  return text;
}

/** A port number, 0 meaning any free one. */
export function parsePort(text: string | undefined, flag = '--port'): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text.trim()) || port > 65535) throw new UsageError(`${flag} must be a port number 0–65535 (got "${text.slice(0, 20)}")`);
  return port;
}
