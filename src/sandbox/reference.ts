// The sandbox's answers that are reference data, not payments: accepted currencies, balances,
// rates and prices, the coins and networks it offers, the fiats it prices, its status. Fixed
// tables (prices.ts, offerings.ts), except the balances: they start fixed, what arrived for the
// sandbox's payments is added to them (`arrivedByCoin`), and what payouts took is taken off
// (payouts.ts), so whatever a sandbox payment received can be refunded.

import { isFiat } from '../domain/payment-rules.js';
import { Decimal } from '../money/decimal.js';
import type { AcceptedCurrenciesAnswer } from '../operations/accepted-currencies.js';
import type { BalanceAnswer } from '../operations/balance.js';
import type { PaymentRecord } from '../operations/payment-info.js';
import type { RateAnswer } from '../operations/rate.js';
import type { CurrenciesAnswer, FiatsAnswer, NetworksAnswer, PricesAnswer, SystemStatusAnswer } from '../operations/reference-data.js';
import { fail, ok, type Answer } from './envelopes.js';
import { readSymbol, type RequestFields } from './fields.js';
import { CONFIRMATIONS } from './live.js';
import { exchangeRate, isKnownCurrency, sandboxBalances, sandboxFiats, usdPrices } from './prices.js';
import { offerings } from './store.js';

/** The coins' names, for the supported-currencies answer. */
const COIN_NAMES: Readonly<Record<string, string>> = {
  BTC: 'Bitcoin',
  ETH: 'Ethereum',
  USDT: 'Tether',
  USDC: 'USD Coin',
  LTC: 'Litecoin',
  DOGE: 'Dogecoin',
  TRX: 'Tron',
  BNB: 'BNB',
  POL: 'Polygon',
  SOL: 'Solana',
  TON: 'Toncoin',
  XMR: 'Monero',
  BCH: 'Bitcoin Cash',
  DASH: 'Dash',
};

/** The accepted pay currencies, each once, in offering order. */
export function acceptedList(): string[] {
  return [...new Set(offerings().map((o) => o.payCurrency))];
}

/** The accepted currencies (both APIs; the route checked the merchant key). */
export function acceptedCurrencies(): Answer<AcceptedCurrenciesAnswer> {
  return ok({ list: acceptedList() });
}

/** A payment the gateway itself sent back (a `-refund` order id): what arrived left again. */
const RETURNED = new Set(['refunding', 'refunded']);

/**
 * Per coin, what arrived for the sandbox's payments: their confirmed transactions, in each
 * transaction's own coin (a `-mixed` payment's second coin goes to that coin's balance), except
 * for payments the gateway sent back itself. Credited to the balances (`balance`).
 */
export function arrivedByCoin(records: Iterable<Pick<PaymentRecord, 'status' | 'txs'>>): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const record of records) {
    if (RETURNED.has(record.status)) continue;
    for (const tx of record.txs ?? []) {
      if (tx.status !== 'confirmed') continue;
      const amount = Decimal.fromLiteral(tx.amount);
      if (amount === undefined || !amount.isPositive) continue;
      out.set(tx.currency, (out.get(tx.currency) ?? Decimal.ZERO).plus(amount));
    }
  }
  return out;
}

/** The starting balances (prices.ts) with `credits` added, as plain digits. */
function creditedBalances(credits: ReadonlyMap<string, Decimal>): Record<string, string> {
  const balances = sandboxBalances();
  for (const [coin, credit] of credits) {
    if (!Object.hasOwn(balances, coin)) continue;
    balances[coin] = (Decimal.fromLiteral(balances[coin] ?? '0') ?? Decimal.ZERO).plus(credit).toString();
  }
  return balances;
}

/**
 * The balances, or one currency's (`currency`); the route checked the payout or general key.
 * `credits`: what arrived for the sandbox's payments (`arrivedByCoin`), added to the starting balances.
 */
export function balance(fields: RequestFields, credits: ReadonlyMap<string, Decimal> = new Map()): Answer<BalanceAnswer> {
  const balances = creditedBalances(credits);
  const currency = readSymbol(fields, 'currency');
  if (currency.kind === 'invalid') return fail(101, 'Validation problem: currency must be a string');
  if (currency.kind === 'absent') return ok({ balances });
  const amount = Object.hasOwn(balances, currency.value) ? balances[currency.value] : undefined;
  if (amount === undefined) return fail(105, 'Invalid currency');
  // The interface document calls `data` an "array of objects" keyed by symbol; the gateway's own
  // client reads an object map. The sandbox answers with the object map {"BTC":"0.1",...}.
  return ok({ balances: { [currency.value]: amount } });
}

/** The USD price of every coin the sandbox knows (fixed: prices.ts), fiat left out. No key. */
export function prices(): Answer<PricesAnswer> {
  return ok({ prices: usdPrices(isFiat) });
}

/**
 * Every coin the sandbox offers with its networks (offerings.ts). The sandbox moves no money:
 * its fees and minimums are 0, and a transaction is confirmed at 12 confirmations (what its
 * transactions show once confirmed).
 */
export function supportedCurrencies(): Answer<CurrenciesAnswer> {
  const symbols = acceptedList();
  return ok({
    currencies: symbols.map((symbol) => ({
      symbol,
      name: COIN_NAMES[symbol] ?? symbol,
      status: true,
      networks: offerings()
        .filter((o) => o.payCurrency === symbol)
        .map((o) => ({
          network: o.network,
          name: o.network,
          requiredConfirmations: CONFIRMATIONS.confirmed,
          withdrawFee: '0',
          withdrawMin: '0',
          depositMin: '0',
          staticFixedFee: '0',
        })),
    })),
  });
}

/** The networks the sandbox's coins are on, each once, in offering order. No key. */
export function supportedNetworks(): Answer<NetworksAnswer> {
  return ok({ list: [...new Set(offerings().map((o) => o.network))] });
}

/** The fiat currencies the sandbox prices (prices.ts), each with its USD price. No key. */
export function fiats(): Answer<FiatsAnswer> {
  return ok({ fiats: sandboxFiats(isFiat) });
}

/** The sandbox is up whenever it answers. No key. */
export function systemStatus(): Answer<SystemStatusAnswer> {
  return ok({ status: true });
}

/** How many `toCurrency` one `fromCurrency` is worth (the legacy endpoint takes no key). */
export function rate(fields: RequestFields): Answer<RateAnswer> {
  const from = readSymbol(fields, 'fromCurrency');
  const to = readSymbol(fields, 'toCurrency');
  if (from.kind === 'absent') return fail(101, 'Validation problem: fromCurrency is required');
  if (from.kind === 'invalid') return fail(101, 'Validation problem: fromCurrency must be a string');
  if (to.kind === 'absent') return fail(101, 'Validation problem: toCurrency is required');
  if (to.kind === 'invalid') return fail(101, 'Validation problem: toCurrency must be a string');
  if (!isKnownCurrency(from.value)) return fail(121, 'Invalid fromCurrency');
  if (!isKnownCurrency(to.value)) return fail(122, 'Invalid toCurrency');
  if (from.value === to.value) return fail(123, 'fromCurrency and toCurrency are the same');
  const rate = exchangeRate(from.value, to.value);
  if (rate === undefined) return fail(131, 'An error occurred');
  return ok({ rate });
}
