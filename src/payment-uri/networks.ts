// The registry of networks and assets gw can build a payment URI for, and the mapping from the
// gateway's free-text `network` + `payCurrency` to an entry of it. The gateway does not document
// its network strings, so matching is tolerant of case, spacing, punctuation and common aliases,
// but never lenient about which chain is meant: text that names an unknown chain (for example
// "Arbitrum Nova" or "Polygon zkEVM") stays unknown rather than being matched to a near neighbour,
// and a token on an unknown network is never guessed onto a chain.
import { asciiLowerCase, asciiUpperCase } from '../util/ascii.js';

export type NetworkId =
  | 'bitcoin'
  | 'litecoin'
  | 'dogecoin'
  | 'bitcoin-cash'
  | 'dash'
  | 'digibyte'
  | 'ethereum'
  | 'bsc'
  | 'polygon'
  | 'base'
  | 'arbitrum'
  | 'tron'
  | 'solana'
  | 'ton'
  | 'monero';

/** How a payment on the network is put in a URI (the table of docs/payment-uris.md gives the source of each). */
export type UriScheme =
  | { readonly kind: 'bip21'; readonly scheme: 'bitcoin' | 'litecoin' | 'dogecoin' | 'bitcoincash' | 'dash' | 'digibyte' }
  | { readonly kind: 'eip681'; readonly chainId: number }
  | { readonly kind: 'solana-pay' }
  | { readonly kind: 'ton-transfer' }
  | { readonly kind: 'monero' }
  | { readonly kind: 'address-only' };

/** The syntax (and checksum) an address of the network has; see addresses.ts. */
export type AddressFormat = 'bitcoin' | 'litecoin' | 'dogecoin' | 'bitcoin-cash' | 'dash' | 'digibyte' | 'evm' | 'tron' | 'solana' | 'ton' | 'monero';

export interface NetworkInfo {
  readonly id: NetworkId;
  /** Human display name, shown to the payer. */
  readonly name: string;
  readonly uri: UriScheme;
  /** Symbol of the coin that pays fees on the network. */
  readonly nativeSymbol: string;
  /** Other symbols the gateway may use for the native coin (e.g. MATIC for POL). */
  readonly nativeAliases: readonly string[];
  readonly nativeDecimals: number;
  readonly addressFormat: AddressFormat;
  /** Network texts, normalized by `networkKey` (lower-case letters and digits only). */
  readonly aliases: readonly string[];
}

export interface TokenInfo {
  readonly symbol: string;
  readonly networkId: NetworkId;
  readonly standard: 'ERC-20' | 'BEP-20' | 'SPL' | 'TRC-20' | 'Jetton';
  /** Contract address (EVM, Tron), mint (Solana) or jetton master (TON). */
  readonly contract: string;
  readonly decimals: number;
}

export const NETWORKS: { readonly [id in NetworkId]: NetworkInfo } = {
  bitcoin: {
    id: 'bitcoin',
    name: 'Bitcoin',
    uri: { kind: 'bip21', scheme: 'bitcoin' },
    nativeSymbol: 'BTC',
    nativeAliases: [],
    nativeDecimals: 8,
    addressFormat: 'bitcoin',
    aliases: ['bitcoin', 'btc'],
  },
  litecoin: {
    id: 'litecoin',
    name: 'Litecoin',
    uri: { kind: 'bip21', scheme: 'litecoin' },
    nativeSymbol: 'LTC',
    nativeAliases: [],
    nativeDecimals: 8,
    addressFormat: 'litecoin',
    aliases: ['litecoin', 'ltc'],
  },
  dogecoin: {
    id: 'dogecoin',
    name: 'Dogecoin',
    uri: { kind: 'bip21', scheme: 'dogecoin' },
    nativeSymbol: 'DOGE',
    nativeAliases: [],
    nativeDecimals: 8,
    addressFormat: 'dogecoin',
    aliases: ['dogecoin', 'doge'],
  },
  'bitcoin-cash': {
    id: 'bitcoin-cash',
    name: 'Bitcoin Cash',
    uri: { kind: 'bip21', scheme: 'bitcoincash' },
    nativeSymbol: 'BCH',
    nativeAliases: [],
    nativeDecimals: 8,
    addressFormat: 'bitcoin-cash',
    aliases: ['bitcoincash', 'bch'],
  },
  dash: {
    id: 'dash',
    name: 'Dash',
    uri: { kind: 'bip21', scheme: 'dash' },
    nativeSymbol: 'DASH',
    nativeAliases: [],
    nativeDecimals: 8,
    addressFormat: 'dash',
    aliases: ['dash'],
  },
  digibyte: {
    id: 'digibyte',
    name: 'DigiByte',
    // BIP-21 with the `digibyte:` scheme, as DigiByte Core's wallet writes and reads it
    // (github.com/DigiByte-Core/digibyte src/qt/guiutil.cpp formatDigiByteURI / parseDigiByteURI,
    // src/qt/test/uritests.cpp). 8 decimals: src/amount.h COIN = 100000000.
    uri: { kind: 'bip21', scheme: 'digibyte' },
    nativeSymbol: 'DGB',
    nativeAliases: [],
    nativeDecimals: 8,
    addressFormat: 'digibyte',
    aliases: ['digibyte', 'dgb'],
  },
  ethereum: {
    id: 'ethereum',
    name: 'Ethereum (ERC-20)',
    uri: { kind: 'eip681', chainId: 1 },
    nativeSymbol: 'ETH',
    nativeAliases: [],
    nativeDecimals: 18,
    addressFormat: 'evm',
    aliases: ['ethereum', 'eth', 'erc20', 'ether'],
  },
  bsc: {
    id: 'bsc',
    name: 'BNB Smart Chain (BEP-20)',
    uri: { kind: 'eip681', chainId: 56 },
    nativeSymbol: 'BNB',
    nativeAliases: [],
    nativeDecimals: 18,
    addressFormat: 'evm',
    // The gateway's own keys for it (docs/gateway.md §3) include BNB and Binance. Not "binancechain",
    // "bep2" or "bnbbeaconchain": that was the separate BNB Beacon Chain (shut down in 2024), and
    // not "opbnb", a layer 2 with its own chain id.
    aliases: ['binancesmartchain', 'bnbsmartchain', 'bsc', 'bep20', 'bnbchain', 'bnb', 'binance'],
  },
  polygon: {
    id: 'polygon',
    name: 'Polygon PoS',
    uri: { kind: 'eip681', chainId: 137 },
    nativeSymbol: 'POL',
    nativeAliases: ['MATIC'],
    nativeDecimals: 18,
    addressFormat: 'evm',
    aliases: ['polygon', 'polygonpos', 'matic', 'pol'],
  },
  base: {
    id: 'base',
    name: 'Base',
    uri: { kind: 'eip681', chainId: 8453 },
    nativeSymbol: 'ETH',
    nativeAliases: [],
    nativeDecimals: 18,
    addressFormat: 'evm',
    aliases: ['base'],
  },
  arbitrum: {
    id: 'arbitrum',
    name: 'Arbitrum One',
    uri: { kind: 'eip681', chainId: 42161 },
    nativeSymbol: 'ETH',
    nativeAliases: [],
    nativeDecimals: 18,
    addressFormat: 'evm',
    aliases: ['arbitrum', 'arbitrumone', 'arb', 'arb1'],
  },
  tron: {
    id: 'tron',
    name: 'Tron (TRC-20)',
    // Tron has no payment URI scheme that wallets agree on: the QR carries the bare address.
    uri: { kind: 'address-only' },
    nativeSymbol: 'TRX',
    nativeAliases: [],
    nativeDecimals: 6,
    addressFormat: 'tron',
    aliases: ['tron', 'trx', 'trc20'],
  },
  solana: {
    id: 'solana',
    name: 'Solana',
    uri: { kind: 'solana-pay' },
    nativeSymbol: 'SOL',
    nativeAliases: [],
    nativeDecimals: 9,
    addressFormat: 'solana',
    aliases: ['solana', 'sol', 'spl'],
  },
  ton: {
    id: 'ton',
    name: 'TON',
    uri: { kind: 'ton-transfer' },
    nativeSymbol: 'TON',
    nativeAliases: [],
    nativeDecimals: 9,
    addressFormat: 'ton',
    aliases: ['ton', 'toncoin', 'theopennetwork'],
  },
  monero: {
    id: 'monero',
    name: 'Monero',
    uri: { kind: 'monero' },
    nativeSymbol: 'XMR',
    nativeAliases: [],
    nativeDecimals: 12,
    addressFormat: 'monero',
    aliases: ['monero', 'xmr'],
  },
};

export const NETWORK_IDS = Object.keys(NETWORKS) as readonly NetworkId[];

/**
 * Tokens gw knows the contract and decimals of. A token missing here is still accepted, but its
 * QR code carries only the address (the amount is shown next to it instead).
 * Sources: Tether's "Supported protocols" page (tether.to/en/supported-protocols) for USDT,
 * Circle's "USDC contract addresses" page (developers.circle.com/stablecoins/usdc-contract-addresses)
 * for USDC, and the chain's block explorer token page (decimals) for each; the EVM constants are
 * EIP-55 checksummed and the test suite checks every constant with addresses.ts.
 */
export const TOKENS: readonly TokenInfo[] = [
  // Ethereum. USDT: Tether supported protocols; etherscan.io/token/0xdac17f958d2ee523a2206206994597c13d831ec7 (6 decimals).
  { symbol: 'USDT', networkId: 'ethereum', standard: 'ERC-20', contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
  // USDC: Circle contract addresses; etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48 (6 decimals).
  { symbol: 'USDC', networkId: 'ethereum', standard: 'ERC-20', contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
  // BNB Smart Chain: Binance-Peg tokens, bscscan.com/token/0x55d398326f99059ff775485246999027b3197955 and
  // bscscan.com/token/0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d — both 18 decimals, unlike on other chains.
  { symbol: 'USDT', networkId: 'bsc', standard: 'BEP-20', contract: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
  { symbol: 'USDC', networkId: 'bsc', standard: 'BEP-20', contract: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
  // Polygon PoS. USDT: Tether supported protocols; polygonscan.com/token/0xc2132d05d31c914a87c6611c10748aeb04b58e8f (6).
  { symbol: 'USDT', networkId: 'polygon', standard: 'ERC-20', contract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
  // USDC (native, not the bridged USDC.e): Circle contract addresses (6 decimals).
  { symbol: 'USDC', networkId: 'polygon', standard: 'ERC-20', contract: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6 },
  // Base. USDC: Circle contract addresses (6 decimals).
  { symbol: 'USDC', networkId: 'base', standard: 'ERC-20', contract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
  // Arbitrum One. USDT (USD₮0): Tether supported protocols; arbiscan.io/token/0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9 (6).
  { symbol: 'USDT', networkId: 'arbitrum', standard: 'ERC-20', contract: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6 },
  // USDC (native, not the bridged USDC.e): Circle contract addresses (6 decimals).
  { symbol: 'USDC', networkId: 'arbitrum', standard: 'ERC-20', contract: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', decimals: 6 },
  // Solana. USDT mint: Tether supported protocols; solscan.io/token/Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB (6).
  { symbol: 'USDT', networkId: 'solana', standard: 'SPL', contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
  // USDC mint: Circle contract addresses; solscan.io/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v (6).
  { symbol: 'USDC', networkId: 'solana', standard: 'SPL', contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 },
  // Tron. USDT: Tether supported protocols; tronscan.org/#/token20/TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t (6).
  // Tron has no payment URI scheme, so this entry only fixes the decimals the amount is checked against.
  { symbol: 'USDT', networkId: 'tron', standard: 'TRC-20', contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
  // TON. USDT jetton master: Tether supported protocols; tonviewer.com (6 decimals). No agreed
  // transfer-link form exists for jettons, so the QR carries the address only.
  { symbol: 'USDT', networkId: 'ton', standard: 'Jetton', contract: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', decimals: 6 },
];

/**
 * Coins that live on one native chain, so an empty network text can be filled in from the
 * payCurrency alone. Tokens are never here: USDT on an unknown network stays unknown.
 */
const NATIVE_HOME: { readonly [symbol: string]: NetworkId } = {
  BTC: 'bitcoin',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  BCH: 'bitcoin-cash',
  DASH: 'dash',
  DGB: 'digibyte',
  XMR: 'monero',
  TRX: 'tron',
  TON: 'ton',
  SOL: 'solana',
  ETH: 'ethereum',
};

/**
 * ETH is also the native coin of many layer-2 chains (Base, Arbitrum, Optimism, zkSync…): a network
 * text gw does not recognise may well be one of them, so ETH is inferred only from an EMPTY text.
 */
const MULTI_CHAIN_NATIVES: ReadonlySet<string> = new Set(['ETH']);

/** Words that say nothing about which chain is meant. */
const FILLER_WORDS: ReadonlySet<string> = new Set(['network', 'mainnet', 'main', 'blockchain']);

const MAX_NETWORK_WORDS = 12;

const ALIAS_TO_NETWORK: ReadonlyMap<string, NetworkId> = new Map(NETWORK_IDS.flatMap((id) => NETWORKS[id].aliases.map((alias) => [alias, id] as const)));

/** Lower-case words of letters and digits; everything else (spaces, punctuation, brackets) separates. */
export function networkWords(text: string): string[] {
  return asciiLowerCase(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Normalized form of a network text, as used in the alias lists: "TRC-20" → "trc20". */
export function networkKey(text: string): string {
  return networkWords(text).join('');
}

/**
 * The networks that a split of `words` into consecutive alias-matching groups can name: every
 * word must belong to some alias ("Ethereum (ERC20)" → ethereum + erc20), so a word gw does not
 * know ("Nova" in "Arbitrum Nova") makes the whole text unknown.
 */
function networksOfPartitions(words: readonly string[], from = 0): Set<NetworkId> | undefined {
  if (from === words.length) return new Set();
  let found: Set<NetworkId> | undefined;
  for (let to = words.length; to > from; to -= 1) {
    const id = ALIAS_TO_NETWORK.get(words.slice(from, to).join(''));
    if (id === undefined) continue;
    const rest = networksOfPartitions(words, to);
    if (rest === undefined) continue;
    found ??= new Set();
    found.add(id);
    for (const other of rest) found.add(other);
  }
  return found;
}

function singleNetwork(words: readonly string[]): NetworkId | undefined {
  if (words.length === 0 || words.length > MAX_NETWORK_WORDS) return undefined;
  const ids = networksOfPartitions(words);
  if (ids === undefined || ids.size !== 1) return undefined; // unknown, or names two chains
  const [id] = ids;
  return id;
}

/**
 * Network keys that are also a coin's ticker, or, for "binance", a brand that also named the BNB
 * Beacon Chain. The gateway uses them as keys of the chain whose native coin they are (docs/gateway.md §3:
 * BNB and Binance for BNB Smart Chain, ETH for Ethereum, TRX for Tron, BTC for Bitcoin), but a
 * ticker may also just be a coin's name. So when the whole text is such keys and the payCurrency
 * is a coin that lives natively on ONE other chain only (BTC, TRX, SOL, ETH, … — see NATIVE_HOME),
 * text and currency contradict each other and the text decides nothing: "BNB" with BTC is not
 * matched (resolveAsset then falls back to the payCurrency, which stands only if the address is
 * valid on its chain, and never for ETH from non-empty text). A token (USDT, USDC, SHIB…) or the
 * chain's own coin confirms the key: "BNB" with USDT or BNB is BNB Smart Chain.
 */
const TICKER_KEYS: ReadonlySet<string> = new Set([
  'btc',
  'ltc',
  'doge',
  'bch',
  'dash',
  'dgb',
  'eth',
  'bnb',
  'binance',
  'matic',
  'pol',
  'arb',
  'trx',
  'sol',
  'ton',
  'xmr',
]);

/** True when the payCurrency is a single-home native coin whose home is not `id`. */
function currencyLivesElsewhere(id: NetworkId, symbol: string): boolean {
  const home = Object.hasOwn(NATIVE_HOME, symbol) ? NATIVE_HOME[symbol] : undefined;
  if (home === undefined || home === id) return false;
  const network = NETWORKS[id];
  return network.nativeSymbol !== symbol && !network.nativeAliases.includes(symbol);
}

/**
 * Maps the gateway's network text to a network, or undefined when it is empty, unknown, names
 * more than one chain, or is only coin tickers that the payCurrency contradicts (TICKER_KEYS).
 * `payCurrency`, when given, may appear in the text ("USDT TRC20").
 */
export function matchNetwork(networkText: string, payCurrency = ''): NetworkId | undefined {
  const words = networkWords(networkText);
  const meaningful = words.filter((word) => !FILLER_WORDS.has(word));
  const symbol = normalizeSymbol(payCurrency);
  const lower = asciiLowerCase(symbol);
  const withoutSymbol = meaningful.filter((word) => word !== lower);
  for (const candidate of [words, meaningful, withoutSymbol]) {
    const id = singleNetwork(candidate);
    if (id === undefined) continue;
    const onlyTickers = candidate.every((word) => TICKER_KEYS.has(word));
    return onlyTickers && currencyLivesElsewhere(id, symbol) ? undefined : id;
  }
  return undefined;
}

/**
 * The payCurrency as gw compares it: trimmed and upper-cased by ASCII rules. A character outside
 * ASCII stays as it is, so such a symbol matches no coin: Unicode folding would make
 * "uſdt" (long s), "ＵＳＤＴ" (full width) or "ﬅ" (a ligature) into a real symbol.
 */
export function normalizeSymbol(payCurrency: string): string {
  return asciiUpperCase(payCurrency.trim());
}

export function findToken(networkId: NetworkId, symbol: string): TokenInfo | undefined {
  const wanted = normalizeSymbol(symbol);
  return TOKENS.find((token) => token.networkId === networkId && token.symbol === wanted);
}

/** How the network of a payment was decided. */
export type NetworkSource =
  /** From the gateway's network text. */
  | 'network'
  /** The text was empty: inferred from a single-chain native payCurrency. */
  | 'currency'
  /**
   * The text was not recognised: a guess from a single-chain native payCurrency, to be used only
   * if the address is valid on that chain (a Lightning invoice with BTC must not become bitcoin:).
   */
  | 'currency-guess';

export type AssetResolution =
  | {
      readonly kind: 'native';
      readonly network: NetworkInfo;
      readonly source: NetworkSource;
      readonly symbol: string;
      readonly decimals: number;
    }
  | { readonly kind: 'token'; readonly network: NetworkInfo; readonly token: TokenInfo }
  /** A known network, but an asset gw has no contract and decimals for. */
  | { readonly kind: 'unlisted'; readonly network: NetworkInfo; readonly symbol: string }
  | { readonly kind: 'unknown-network'; readonly symbol: string };

function isNative(network: NetworkInfo, symbol: string): boolean {
  return network.nativeSymbol === symbol || network.nativeAliases.includes(symbol);
}

/** Decides the network and asset of a payment from the gateway's `network` and `payCurrency`. */
export function resolveAsset(networkText: string, payCurrency: string): AssetResolution {
  const symbol = normalizeSymbol(payCurrency);
  const matched = matchNetwork(networkText, symbol);
  if (matched !== undefined) {
    const network = NETWORKS[matched];
    if (isNative(network, symbol)) {
      return { kind: 'native', network, source: 'network', symbol: network.nativeSymbol, decimals: network.nativeDecimals };
    }
    const token = findToken(matched, symbol);
    return token ? { kind: 'token', network, token } : { kind: 'unlisted', network, symbol };
  }
  const home = Object.hasOwn(NATIVE_HOME, symbol) ? NATIVE_HOME[symbol] : undefined;
  const textIsEmpty = networkWords(networkText).length === 0;
  if (home !== undefined && (textIsEmpty || !MULTI_CHAIN_NATIVES.has(symbol))) {
    const network = NETWORKS[home];
    return {
      kind: 'native',
      network,
      source: textIsEmpty ? 'currency' : 'currency-guess',
      symbol: network.nativeSymbol,
      decimals: network.nativeDecimals,
    };
  }
  return { kind: 'unknown-network', symbol };
}
