// The checks before a payout (`gw payout`, `gw refund`): everything that can be checked is, before
// anything is sent. Locally (checkPayoutInput: exit 64, no request): the amount exact and within
// the coin's decimals on that network, the network one gw knows for the coin, the address valid
// for it, a memo only where the network takes one. Then read-only against the gateway
// (preparePayout: exit 65 or the failed read's code, nothing sent): the coin and network in its
// currency list (docs/gateway.md §12, §19), the amount at least the published minimum, the
// published fee, and amount + fee within the balance where the general key can read it.
import { ConfigError, ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import { BALANCE } from '../operations/balance.js';
import { readDecimal } from '../operations/read.js';
import { SUPPORTED_CURRENCIES } from '../operations/reference-data.js';
import { assetDecimals } from '../payment-uri/decimals.js';
import { validateAddress } from '../payment-uri/index.js';
import { matchNetwork, NETWORKS, type NetworkId, normalizeSymbol, resolveAsset } from '../payment-uri/networks.js';
import { asciiUpperCase } from '../util/ascii.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { isTestNetworkAddress } from './payout-address.js';

/** Networks where a transfer carries a memo (a TON comment); elsewhere a memo would be lost. */
export const MEMO_NETWORKS: ReadonlySet<NetworkId> = new Set(['ton']);

/** The payout as the user asked for it, checked locally. */
export interface PayoutDraft {
  amount: Decimal;
  currency: string;
  address: string;
  networkId: NetworkId;
  /** The network as the user named it (or as gw inferred it). */
  networkText: string;
  decimals: number;
  memo?: string;
  callbackUrl?: string;
  /** The description sent: the user's text and the reference, last. */
  description: string;
  reference: string;
  referenceGenerated: boolean;
}

export type BalanceCheck = { checked: true; balance: Decimal } | { checked: false; reason: string };

/** The draft checked against the gateway: what will be sent, and what the gateway publishes about it. */
export interface PayoutPlan extends PayoutDraft {
  /** The network as sent: the gateway's own name for it from its currency list. */
  network: string;
  fee: Decimal | null;
  minimum: Decimal | null;
  balance: BalanceCheck;
}

export interface PayoutInput {
  amount: string;
  currency: string;
  address: string;
  network?: string;
  memo?: string;
  callbackUrl?: string;
  description: string;
  reference: string;
  referenceGenerated: boolean;
  /** --sandbox: test-network address forms are taken (./payout-address.ts). */
  sandbox?: boolean;
}

/**
 * An amount of money to send, exactly as typed: ASCII digits with at most one point, positive. No
 * sign, exponent, comma, other digits or white space anywhere (" 12.5" is refused, not guessed at).
 */
export function parsePayoutAmount(text: string): Decimal | undefined {
  if (/\s/.test(text)) return undefined;
  const amount = Decimal.parseAmount(text);
  return amount?.isPositive === true ? amount : undefined;
}

/** Local checks: exact amount within the coin's decimals, a network gw knows for the coin, the address and memo for it. */
export function checkPayoutInput(input: PayoutInput): PayoutDraft {
  const amount = parsePayoutAmount(input.amount);
  if (amount === undefined) {
    throw new UsageError(`the amount must be a positive plain decimal such as 12.5 (got ${JSON.stringify(input.amount.slice(0, 40))}): nothing was sent`);
  }
  const currency = normalizeSymbol(input.currency);
  let networkId: NetworkId | undefined;
  if (input.network !== undefined) {
    networkId = matchNetwork(input.network, currency);
    if (networkId === undefined)
      throw new UsageError(`--network ${JSON.stringify(input.network.slice(0, 40))} is not a network gw knows for ${currency}: nothing was sent`);
  } else {
    const asset = resolveAsset('', currency);
    if (asset.kind !== 'native')
      throw new UsageError(`--network is required for ${currency}: name the network to send on (e.g. --network "Tron Network"); nothing was sent`);
    networkId = asset.network.id;
  }
  const networkName = NETWORKS[networkId].name;
  const decimals = assetDecimals(networkId, currency);
  if (decimals === undefined) {
    throw new UsageError(`gw does not know ${currency} on ${networkName} (its decimals): nothing can be checked, so nothing was sent`);
  }
  if (amount.fractionDigits > decimals) {
    throw new UsageError(
      `${currency} on ${networkName} has ${decimals} decimals; ${amount} has ${amount.fractionDigits}: it cannot be sent exactly; nothing was sent`,
    );
  }
  const address = input.address.trim();
  const check = validateAddress(networkId, address);
  if (!check.ok)
    throw new UsageError(
      `the address is not a ${networkName} address (it ${check.reason}): nothing was sent`,
      'check the address and the network: a payout to a wrong address is lost',
    );
  if (input.sandbox !== true && isTestNetworkAddress(networkId, address)) {
    throw new UsageError(
      `the address is a ${networkName} test-network address: the gateway pays on the main network; nothing was sent`,
      'test-network addresses are for the sandbox (--sandbox); check the address',
    );
  }
  if (input.memo !== undefined && !MEMO_NETWORKS.has(networkId)) {
    throw new UsageError(`${networkName} transfers carry no memo: --memo would be lost; nothing was sent`, 'leave --memo out, or check --network');
  }
  const draft: PayoutDraft = {
    amount,
    currency,
    address,
    networkId,
    networkText: input.network ?? networkName,
    decimals,
    description: input.description,
    reference: input.reference,
    referenceGenerated: input.referenceGenerated,
  };
  if (input.memo !== undefined) draft.memo = input.memo;
  if (input.callbackUrl !== undefined) draft.callbackUrl = input.callbackUrl;
  return draft;
}

/** The coin's entry and the network's in the gateway's currency list (docs/gateway.md §12), if listed. */
function networkEntry(
  list: Record<string, JsonValue>,
  draft: PayoutDraft,
): { coin: Record<string, JsonValue>; key: string; entry: Record<string, JsonValue> } | undefined {
  const coin = Object.entries(list).find(([symbol, value]) => {
    const named = isJsonObject(value) && typeof value.symbol === 'string' ? value.symbol : symbol;
    return asciiUpperCase(named.trim()) === draft.currency;
  })?.[1];
  if (!isJsonObject(coin) || !isJsonObject(coin.networks)) return undefined;
  for (const [key, entry] of Object.entries(coin.networks)) {
    if (!isJsonObject(entry)) continue;
    const keys = Array.isArray(entry.keys) ? entry.keys.filter((k): k is string => typeof k === 'string') : [];
    const names = [key, entry.network, entry.name, ...keys].filter((n): n is string => typeof n === 'string');
    if (names.some((n) => matchNetwork(n, draft.currency) === draft.networkId)) return { coin, key, entry };
  }
  return undefined;
}

/** A read-only request failed before the payout: nothing was sent. */
export function lookFailed(error: unknown, what: string): never {
  if (error instanceof GwError) throw error.with({ message: `${what} could not be read (${error.message}): nothing was sent` });
  throw error;
}

/** The versioned currency list only, whatever `api` says: its shape is the published one (docs/gateway.md §12), as the payout endpoints are versioned only. */
const V1_CURRENCIES = { ...SUPPORTED_CURRENCIES, endpoints: { v1: SUPPORTED_CURRENCIES.endpoints.v1 } };

/** The versioned balance only: it needs the general key (docs/gateway.md §8); the legacy one is not used here. */
const V1_BALANCE = { ...BALANCE, endpoints: { v1: BALANCE.endpoints.v1 } };

async function checkBalance(gateway: GatewayClient, draft: PayoutDraft, fee: Decimal | null): Promise<BalanceCheck> {
  let balances: Awaited<ReturnType<GatewayClient['balances']>>;
  try {
    balances = await gateway.perform(V1_BALANCE, { currency: draft.currency });
  } catch (error) {
    if (error instanceof ConfigError && /general API key/.test(error.message)) return { checked: false, reason: 'no general API key is configured' };
    if (error instanceof GwError && error.exitCode === ExitCode.NOPERM) return { checked: false, reason: 'the general API key was refused' };
    return lookFailed(error, 'the balance');
  }
  const line = balances.find((b) => asciiUpperCase(b.currency.raw().trim()) === draft.currency);
  if (line === undefined || line.amount === null) return { checked: false, reason: `the gateway's balance answer has no amount for ${draft.currency}` };
  const needed = fee === null ? draft.amount : draft.amount.plus(fee);
  if (needed.compare(line.amount) > 0) {
    throw new GwError(
      ExitCode.DATA,
      `the balance is ${line.amount} ${draft.currency}; this payout needs ${needed} ${draft.currency} (amount${fee === null ? '' : ' + published fee'}): nothing was sent`,
    );
  }
  return { checked: true, balance: line.amount };
}

/** The draft checked against what the gateway publishes: the coin and network listed, the minimum, the fee, the balance. */
export async function preparePayout(gateway: GatewayClient, draft: PayoutDraft): Promise<PayoutPlan> {
  let list: Record<string, JsonValue>;
  try {
    list = await gateway.perform(V1_CURRENCIES, {});
  } catch (error) {
    return lookFailed(error, "the gateway's currency list (fees and minimums)");
  }
  const found = networkEntry(list, draft);
  const networkName = NETWORKS[draft.networkId].name;
  if (found === undefined) throw new GwError(ExitCode.DATA, `the gateway's currency list has no ${draft.currency} on ${networkName}: nothing was sent`);
  if (found.coin.status === false) throw new GwError(ExitCode.DATA, `the gateway lists ${draft.currency} as disabled: nothing was sent`);
  const what = "the gateway's currency list";
  const fee = readDecimal(found.entry.withdraw_fee, 'withdraw_fee', what);
  const minimum = readDecimal(found.entry.withdraw_min, 'withdraw_min', what);
  if (minimum !== null && draft.amount.compare(minimum) < 0) {
    throw new GwError(
      ExitCode.DATA,
      `the gateway's minimum payout of ${draft.currency} on ${networkName} is ${minimum}; ${draft.amount} is below it: nothing was sent`,
    );
  }
  const balance = await checkBalance(gateway, draft, fee);
  const network = typeof found.entry.network === 'string' && found.entry.network.trim() !== '' ? found.entry.network : found.key;
  return { ...draft, network, fee, minimum, balance };
}
