// `--in <FIAT>`, shared by gw report (a range's totals) and gw payments --format csv (each
// payment's value): the flag checked before any request, and the gateway's CURRENT prices read
// once (GET prices, and the fiat currencies for a fiat other than USD), stamped with the time they
// were read. Valuing amounts with them: src/domain/report.ts (valueAtPrices).
import { isFiat } from '../domain/payment-rules.js';
import type { PriceTable } from '../domain/report.js';
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import { readDecimal } from '../operations/read.js';
import { FIATS, PRICES } from '../operations/reference-data.js';
import { isJsonObject } from '../util/json.js';
import { parseSymbol } from './args.js';

/** `--in`'s fiat, upper case; exit 64 for anything but a fiat code. */
export function parseInFiat(text: string): string {
  const fiat = parseSymbol(text, '--in').toUpperCase();
  if (!isFiat(fiat)) throw new UsageError(`--in takes a fiat currency such as USD or EUR (got "${text.slice(0, 20)}")`);
  return fiat;
}

/** The gateway's current prices in `fiat`: USD per unit of each coin (and of each fiat it prices). Exit 65 when it does not price `fiat`. */
export async function readPrices(gateway: GatewayClient, fiat: string, now: () => number): Promise<PriceTable> {
  const what = 'the prices answer';
  const usd = new Map<string, Decimal>();
  const prices = await gateway.perform(PRICES, {});
  const at = new Date(now());
  for (const [symbol, value] of Object.entries(prices)) {
    const price = readDecimal(value, symbol, what);
    if (price?.isPositive) usd.set(symbol.trim().toUpperCase(), price);
  }
  let fiatUsd = fiat === 'USD' ? Decimal.fromLiteral('1') : undefined;
  let places = 2;
  const askedFiats = fiat !== 'USD';
  try {
    const fiats = await gateway.perform(FIATS, {});
    for (const [code, row] of Object.entries(fiats)) {
      if (!isJsonObject(row)) continue;
      const price = readDecimal(row.price, 'price', 'the fiat currencies answer');
      if (price === null || !price.isPositive) continue;
      const key = code.trim().toUpperCase();
      usd.set(key, price);
      if (key === fiat) {
        fiatUsd = price;
        const precision = readDecimal(row.display_precision ?? null, 'display_precision', 'the fiat currencies answer');
        if (precision?.isPositive) places = Math.min(8, precision.fractionDigits);
      }
    }
  } catch (error) {
    // USD needs no fiat price (the prices are in USD); another fiat does.
    if (askedFiats) throw error;
  }
  if (fiatUsd === undefined) throw new GwError(ExitCode.DATA, `the gateway gives no price for ${fiat}: --in takes a fiat it prices`);
  return { fiat, fiatUsd: fiatUsd as Decimal, usd, at, places };
}
