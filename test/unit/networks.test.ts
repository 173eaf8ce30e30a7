// The gateway's network names and keys (docs/gateway.md §3) × plausible pay currencies:
// which chain matchNetwork picks, what resolveAsset makes of it, and the ambiguous keys (BNB,
// Binance, ETH, MATIC/POL, tickers) that the pay currency decides.

import { describe, expect, it } from 'vitest';
import { ExitCode, ProtocolError } from '../../src/errors.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { NETWORKS, buildPaymentUri, matchNetwork, resolveAsset, type AssetResolution, type NetworkId } from '../../src/payment-uri/index.js';

type Kind = AssetResolution['kind'];
type Row = [network: string, payCurrency: string, id: NetworkId | undefined, kind: Kind];

/** Every verbatim network name of the service's supported-networks list, with its coins. */
const VERBATIM_NAMES: Row[] = [
  ['Bitcoin Network', 'BTC', 'bitcoin', 'native'],
  ['Ethereum Network', 'ETH', 'ethereum', 'native'],
  ['Ethereum Network', 'USDT', 'ethereum', 'token'],
  ['Ethereum Network', 'USDC', 'ethereum', 'token'],
  ['Ethereum Network', 'SHIB', 'ethereum', 'unlisted'],
  ['Ethereum Network', 'POL', 'ethereum', 'unlisted'], // POL is also an ERC-20 on Ethereum
  ['Tron Network', 'TRX', 'tron', 'native'],
  ['Tron Network', 'USDT', 'tron', 'token'],
  ['Binance Smart Chain', 'BNB', 'bsc', 'native'],
  ['Binance Smart Chain', 'USDT', 'bsc', 'token'],
  ['Binance Smart Chain', 'USDC', 'bsc', 'token'],
  ['Binance Smart Chain', 'ETH', 'bsc', 'unlisted'], // Binance-Peg ETH: a BEP-20 token gw has no contract for
  ['Binance Smart Chain', 'SHIB', 'bsc', 'unlisted'],
  ['Dogecoin Network', 'DOGE', 'dogecoin', 'native'],
  ['Solana Network', 'SOL', 'solana', 'native'],
  ['Solana Network', 'USDT', 'solana', 'token'],
  ['Solana Network', 'USDC', 'solana', 'token'],
  ['Polygon Network', 'POL', 'polygon', 'native'],
  ['Polygon Network', 'MATIC', 'polygon', 'native'],
  ['Polygon Network', 'USDT', 'polygon', 'token'],
  ['Polygon Network', 'USDC', 'polygon', 'token'],
  ['Litecoin Network', 'LTC', 'litecoin', 'native'],
  ['DigiByte Network', 'DGB', 'digibyte', 'native'],
  ['Monero Network', 'XMR', 'monero', 'native'],
  ['TON Network', 'TON', 'ton', 'native'],
  ['TON Network', 'USDT', 'ton', 'token'],
  ['TON Network', 'NOT', 'ton', 'unlisted'],
  ['TON Network', 'DOGS', 'ton', 'unlisted'],
  ['Bitcoin Cash Network', 'BCH', 'bitcoin-cash', 'native'],
  ['Base', 'ETH', 'base', 'native'],
  ['Base', 'USDC', 'base', 'token'],
  ['Base Network', 'ETH', 'base', 'native'],
  ['Base Network', 'USDC', 'base', 'token'],
];

/** The short keys of the currency list, and merchant spellings seen in the wild. */
const KEYS: Row[] = [
  // Binance Smart Chain: BSC, BEP20, BNB, Binance.
  ...(['BSC', 'BEP20', 'BNB', 'Binance'] as const).flatMap((key): Row[] => [
    [key, 'BNB', 'bsc', 'native'],
    [key, 'USDT', 'bsc', 'token'],
    [key, 'USDC', 'bsc', 'token'],
  ]),
  // A chain name or standard is not second-guessed by the currency (Binance-Peg DOGE is a BEP-20)…
  ['BSC', 'DOGE', 'bsc', 'unlisted'],
  ['BEP20', 'DOGE', 'bsc', 'unlisted'],
  // …but the tickers BNB and Binance are: DOGE lives natively on Dogecoin only (see AMBIGUOUS).
  ['BNB', 'DOGE', undefined, 'native'],
  ['Binance', 'DOGE', undefined, 'native'],
  // Ethereum: Ethereum, ERC20, ETH.
  ...(['Ethereum', 'ERC20', 'ETH'] as const).flatMap((key): Row[] => [
    [key, 'ETH', 'ethereum', 'native'],
    [key, 'USDT', 'ethereum', 'token'],
    [key, 'USDC', 'ethereum', 'token'],
    [key, 'SHIB', 'ethereum', 'unlisted'],
    [key, 'MATIC', 'ethereum', 'unlisted'],
  ]),
  // Tron: Tron, TRC20, TRX.
  ...(['Tron', 'TRC20', 'TRX'] as const).flatMap((key): Row[] => [
    [key, 'TRX', 'tron', 'native'],
    [key, 'USDT', 'tron', 'token'],
  ]),
  // Bitcoin: Bitcoin, BTC.
  ['Bitcoin', 'BTC', 'bitcoin', 'native'],
  ['BTC', 'BTC', 'bitcoin', 'native'],
  ['BTC', 'USDT', 'bitcoin', 'unlisted'], // Omni USDT: no URI form, the address is still checked
  // Base: Base.
  ['Base', 'ETH', 'base', 'native'],
  // Merchant spellings.
  ['TRON', 'USDT', 'tron', 'token'],
  ['TRC20', 'USDT', 'tron', 'token'],
  ['trc20', 'USDT', 'tron', 'token'],
  ['erc20', 'USDT', 'ethereum', 'token'],
  ['bep20', 'USDT', 'bsc', 'token'],
  ['btc', 'BTC', 'bitcoin', 'native'],
  ['ltc', 'LTC', 'litecoin', 'native'],
  ['btc', 'btc', 'bitcoin', 'native'],
  // Other tickers used as keys.
  ['LTC', 'LTC', 'litecoin', 'native'],
  ['DOGE', 'DOGE', 'dogecoin', 'native'],
  ['BCH', 'BCH', 'bitcoin-cash', 'native'],
  ['XMR', 'XMR', 'monero', 'native'],
  ['DGB', 'DGB', 'digibyte', 'native'],
  ['DigiByte', 'DGB', 'digibyte', 'native'],
  ['SOL', 'SOL', 'solana', 'native'],
  ['SOL', 'USDC', 'solana', 'token'],
  ['TON', 'TON', 'ton', 'native'],
  ['TON', 'USDT', 'ton', 'token'],
  ['MATIC', 'POL', 'polygon', 'native'],
  ['MATIC', 'MATIC', 'polygon', 'native'],
  ['POL', 'POL', 'polygon', 'native'],
  ['POL', 'MATIC', 'polygon', 'native'],
  ['POL', 'USDT', 'polygon', 'token'],
  ['ARB', 'ETH', 'arbitrum', 'native'],
  ['Arbitrum', 'ETH', 'arbitrum', 'native'],
];

/**
 * Ambiguous keys: a ticker key whose pay currency is a coin living natively on ONE other chain
 * contradicts it and is not matched; resolveAsset then falls back to that coin's home chain as a
 * guess (kept only if the address is valid there), never for ETH from non-empty text.
 */
const AMBIGUOUS: Row[] = [
  ['BNB', 'BTC', undefined, 'native'], // → a Bitcoin guess, checked against the address
  ['Binance', 'BTC', undefined, 'native'],
  ['BNB', 'TRX', undefined, 'native'],
  ['BNB', 'ETH', undefined, 'unknown-network'], // ETH is never guessed from non-empty text
  ['BNB Network', 'SOL', undefined, 'native'],
  ['ETH', 'TRX', undefined, 'native'],
  ['ETH', 'BTC', undefined, 'native'],
  ['ETH', 'DGB', undefined, 'native'],
  ['BTC', 'ETH', undefined, 'unknown-network'],
  ['TRX', 'BTC', undefined, 'native'],
  ['MATIC', 'ETH', undefined, 'unknown-network'],
  ['POL', 'ETH', undefined, 'unknown-network'],
  ['SOL', 'TON', undefined, 'native'],
  ['TON', 'SOL', undefined, 'native'],
  // A chain's name (not a ticker) is not second-guessed by the currency.
  ['Binance Smart Chain', 'BTC', 'bsc', 'unlisted'],
  ['BSC', 'BTC', 'bsc', 'unlisted'],
  ['BEP20', 'ETH', 'bsc', 'unlisted'],
  ['Tron Network', 'BTC', 'tron', 'unlisted'],
  ['BNB Smart Chain (BEP20)', 'BTC', 'bsc', 'unlisted'],
  // ETH is also the native coin of Base and Arbitrum: a key naming the L2 wins; "ETH" names Ethereum.
  ['ETH', 'ETH', 'ethereum', 'native'],
  ['Base ETH', 'ETH', 'base', 'native'],
  ['ETH (Arbitrum)', 'ETH', 'arbitrum', 'native'],
  ['Base ETH', 'USDC', undefined, 'unknown-network'], // names two chains for a token
  // The other BNB chains are not BNB Smart Chain.
  ['BNB Beacon Chain', 'BNB', undefined, 'unknown-network'],
  ['BNB Beacon Chain (BEP2)', 'BNB', undefined, 'unknown-network'],
  ['BEP2', 'BNB', undefined, 'unknown-network'],
  ['BNB (BEP2)', 'BNB', undefined, 'unknown-network'],
  ['Binance Chain', 'BNB', undefined, 'unknown-network'],
  ['opBNB', 'BNB', undefined, 'unknown-network'],
  ['BNB Greenfield', 'BNB', undefined, 'unknown-network'],
  ['Polygon zkEVM', 'ETH', undefined, 'unknown-network'],
];

describe('matchNetwork and resolveAsset: the gateway names and keys', () => {
  it.each([...VERBATIM_NAMES, ...KEYS, ...AMBIGUOUS])('%j with %s → %s (%s)', (network, payCurrency, id, kind) => {
    expect(matchNetwork(network, payCurrency)).toBe(id);
    const asset = resolveAsset(network, payCurrency);
    expect(asset.kind).toBe(kind);
    if (id !== undefined && asset.kind !== 'unknown-network') expect(asset.network.id).toBe(id);
  });

  it('covers every verbatim name of docs/gateway.md §3', () => {
    const names = new Set(VERBATIM_NAMES.map(([network]) => network));
    for (const name of [
      'Bitcoin Network',
      'Ethereum Network',
      'Tron Network',
      'Binance Smart Chain',
      'Dogecoin Network',
      'Solana Network',
      'Polygon Network',
      'Litecoin Network',
      'DigiByte Network',
      'Monero Network',
      'TON Network',
      'Bitcoin Cash Network',
      'Base',
      'Base Network',
    ]) {
      expect(names.has(name)).toBe(true);
    }
  });

  it.each<[string, NetworkId]>([
    ['BNB', 'bsc'],
    ['Binance', 'bsc'],
    ['ETH', 'ethereum'],
    ['BTC', 'bitcoin'],
    ['TRX', 'tron'],
    ['MATIC', 'polygon'],
    ['DGB', 'digibyte'],
  ])('without a pay currency, the key %s names %s', (network, id) => {
    expect(matchNetwork(network)).toBe(id);
    expect(matchNetwork(network, '')).toBe(id);
  });

  it('is insensitive to case, spacing and punctuation, but not to unknown words', () => {
    expect(matchNetwork(' bnb ', 'usdt')).toBe('bsc');
    expect(matchNetwork('B.N.B.', 'USDT')).toBe('bsc'); // punctuation separates, the letters still spell the key
    expect(matchNetwork('BNB Plus', 'USDT')).toBeUndefined(); // an unknown word makes the text unknown
    expect(matchNetwork('BINANCE', 'bnb')).toBe('bsc');
    expect(matchNetwork('digibyte network', 'dgb')).toBe('digibyte');
    expect(matchNetwork('DigiByte (DGB)', 'DGB')).toBe('digibyte');
    expect(matchNetwork('DigiByte Network', 'BTC')).toBe('digibyte'); // a name, not a ticker: not second-guessed
  });

  it('the ETH guess from an EMPTY network text is Ethereum, as before', () => {
    const asset = resolveAsset('', 'ETH');
    expect(asset.kind === 'native' && asset.network.id).toBe('ethereum');
  });

  it('DigiByte is a full network: BIP-21 digibyte:, 8 decimals, inferred from DGB alone', () => {
    expect(NETWORKS.digibyte).toMatchObject({ uri: { kind: 'bip21', scheme: 'digibyte' }, nativeSymbol: 'DGB', nativeDecimals: 8 });
    const asset = resolveAsset('', 'DGB');
    expect(asset.kind === 'native' && asset.network.id).toBe('digibyte');
  });
});

describe('what the ambiguous keys do to the payment URI', () => {
  const evm = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

  it('"BNB" with USDT is a BEP-20 transfer on chain 56 (18 decimals)', () => {
    const uri = buildPaymentUri({ network: 'BNB', payCurrency: 'USDT', address: evm, payAmount: '2' });
    expect(uri.uri).toBe(`ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${evm}&uint256=2000000000000000000`);
    expect(buildPaymentUri({ network: 'Binance', payCurrency: 'BNB', address: evm, payAmount: '1' }).uri).toBe(`ethereum:${evm}@56?value=1000000000000000000`);
  });

  it('"BNB" with a BNB Beacon Chain (bnb1…) address is refused: that chain is gone', () => {
    let caught: unknown;
    try {
      buildPaymentUri({ network: 'BNB', payCurrency: 'BNB', address: 'bnb1grpf0955h0ykzq3ar5nmum7y6gdfl6lxfn46h2', payAmount: '1' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProtocolError);
    expect((caught as ProtocolError).exitCode).toBe(ExitCode.PROTOCOL);
    expect((caught as ProtocolError).message).toMatch(/not valid for BNB Smart Chain/);
  });

  it('"BNB" with BTC: a Bitcoin address makes a bitcoin: URI, an EVM address stays a bare address', () => {
    const btc = buildPaymentUri({ network: 'BNB', payCurrency: 'BTC', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', payAmount: '0.5' });
    expect(btc).toMatchObject({ kind: 'bip21', networkId: 'bitcoin', uri: 'bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa?amount=0.5' });
    const pegged = buildPaymentUri({ network: 'BNB', payCurrency: 'BTC', address: evm, payAmount: '0.5' });
    expect(pegged).toMatchObject({ kind: 'address-only', networkId: undefined, uri: evm, amountInUri: false });
  });

  it('"ETH" with ETH stays on chain 1; "Base" with ETH is chain 8453', () => {
    expect(buildPaymentUri({ network: 'ETH', payCurrency: 'ETH', address: evm, payAmount: '1' }).uri).toBe(`ethereum:${evm}@1?value=1000000000000000000`);
    expect(buildPaymentUri({ network: 'Base Network', payCurrency: 'ETH', address: evm, payAmount: '1' }).uri).toBe(
      `ethereum:${evm}@8453?value=1000000000000000000`,
    );
  });
});

describe('XRP: a listed symbol without a network name', () => {
  const classic = 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH';

  it.each(['', 'XRP', 'Ripple', 'XRP Ledger', 'XRPL', 'Ripple Network'])('XRP on %j → the bare address after the safety check', (network) => {
    expect(matchNetwork(network, 'XRP')).toBeUndefined();
    expect(resolveAsset(network, 'XRP').kind).toBe('unknown-network');
    const uri = buildPaymentUri({ network, payCurrency: 'XRP', address: classic, payAmount: '12.5' });
    expect(uri).toMatchObject({ uri: classic, kind: 'address-only', networkId: undefined, amountInUri: false, qr: true });
  });

  it.each([`${classic}?dt=1`, `${classic} `, `\u001b[31m${classic}`, `${classic}\u202e`, `xrpl:${classic}?`])('refuses a hostile XRP address %j', (address) => {
    let caught: unknown;
    try {
      buildPaymentUri({ network: 'XRP', payCurrency: 'XRP', address, payAmount: '1' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProtocolError);
  });
});

describe('sandbox offerings are unchanged by the new keys', () => {
  it('every sandbox network text still maps to its chain for its currency', () => {
    expect(matchNetwork('Binance Smart Chain', 'USDT')).toBe('bsc');
    expect(deriveSandboxAddress('digibyte', 'x')).toMatch(/^dgbt1q/);
  });
});
