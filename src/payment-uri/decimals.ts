// How many decimal places an amount of a coin can have, from the registry in networks.ts: a pay
// amount with more places cannot be sent exactly, so gw refuses it before creating a payment.
import { matchNetwork, NETWORK_IDS, NETWORKS, normalizeSymbol, TOKENS, type NetworkId } from './networks.js';

/** Decimals of `symbol` on `network`, or undefined when the registry does not know that asset. */
export function assetDecimals(networkId: NetworkId, symbol: string): number | undefined {
  const wanted = normalizeSymbol(symbol);
  const network = NETWORKS[networkId];
  if (network.nativeSymbol === wanted || network.nativeAliases.includes(wanted)) return network.nativeDecimals;
  return TOKENS.find((t) => t.networkId === networkId && t.symbol === wanted)?.decimals;
}

/**
 * The most decimal places an amount of `symbol` can have: on the named network when `networkText`
 * names one gw knows, else the largest over every network the registry lists the asset on (so an
 * amount is refused only when it is too precise everywhere). Undefined when gw does not know it.
 */
export function maxAssetDecimals(symbol: string, networkText?: string): number | undefined {
  const named = networkText === undefined ? undefined : matchNetwork(networkText, symbol);
  if (named !== undefined) return assetDecimals(named, symbol);
  if (networkText !== undefined && networkText.trim() !== '') return undefined;
  const known = NETWORK_IDS.map((id) => assetDecimals(id, symbol)).filter((d): d is number => d !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}
