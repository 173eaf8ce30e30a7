// Payment URIs: network text mapping, every sandbox offering and the extra chains, decoded with
// reference parsers (bip21, eth-url-parser) AND compared digit for digit, exactness of long
// amounts, and refusal of invalid or hostile gateway data.

import { createRequire } from 'node:module';
import { decode as decodeBip21 } from 'bip21';
import { describe, expect, it } from 'vitest';
import { ExitCode, ProtocolError } from '../../src/errors.js';
import { toPlainDecimal } from '../../src/money/decimal.js';
import { percentEncodeText } from '../../src/payment-uri/uri.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import {
  NETWORKS,
  TOKENS,
  buildPaymentUri,
  matchNetwork,
  resolveAsset,
  type NetworkId,
  type PaymentUri,
  type PaymentUriInput,
} from '../../src/payment-uri/index.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';

interface ParsedEthUrl {
  scheme: string;
  target_address: string;
  chain_id?: string;
  function_name?: string;
  parameters?: Record<string, string>;
}
// eth-url-parser ships no types; it is the reference EIP-681 parser for these tests.
const require = createRequire(import.meta.url);
const { parse: parseEthUrl } = require('eth-url-parser') as { parse: (uri: string) => ParsedEthUrl };

const EVM_PAYEE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function expectProtocolError(run: () => unknown, message?: RegExp): ProtocolError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ProtocolError);
  const error = caught as ProtocolError;
  expect(error.exitCode).toBe(ExitCode.PROTOCOL);
  expect(error.exitCode).toBe(76);
  if (message) expect(error.message).toMatch(message);
  return error;
}

/** The raw value of a query parameter, exactly as written in the URI (no number parsing). */
function rawParam(uri: string, key: string): string | undefined {
  const query = uri.split('?')[1] ?? '';
  return query
    .split('&')
    .map((pair) => pair.split('='))
    .find(([k]) => k === key)?.[1];
}

describe('network text mapping', () => {
  it.each<[string, NetworkId]>([
    ['Bitcoin Network', 'bitcoin'],
    ['Bitcoin', 'bitcoin'],
    ['BTC', 'bitcoin'],
    ['Ethereum Network', 'ethereum'],
    ['ERC20', 'ethereum'],
    ['ERC-20', 'ethereum'],
    ['Ethereum (ERC20)', 'ethereum'],
    ['ethereum mainnet', 'ethereum'],
    ['Tron Network', 'tron'],
    ['  tron  NETWORK ', 'tron'],
    ['TRON', 'tron'],
    ['TRC20', 'tron'],
    ['TRC-20', 'tron'],
    ['Tron (TRC-20)', 'tron'],
    ['Binance Smart Chain', 'bsc'],
    ['BSC', 'bsc'],
    ['BEP20', 'bsc'],
    ['bep20', 'bsc'],
    ['BNB Smart Chain', 'bsc'],
    ['BNB Smart Chain (BEP20)', 'bsc'],
    ['Polygon Network', 'polygon'],
    ['Polygon', 'polygon'],
    ['MATIC', 'polygon'],
    ['Polygon PoS', 'polygon'],
    ['Base', 'base'],
    ['Base Mainnet', 'base'],
    ['Arbitrum One', 'arbitrum'],
    ['arbitrum', 'arbitrum'],
    ['Solana Network', 'solana'],
    ['SOL', 'solana'],
    ['Solana (SPL)', 'solana'],
    ['TON Network', 'ton'],
    ['Toncoin', 'ton'],
    ['The Open Network', 'ton'],
    ['Monero Network', 'monero'],
    ['Litecoin Network', 'litecoin'],
    ['Dogecoin Network', 'dogecoin'],
    ['Bitcoin Cash Network', 'bitcoin-cash'],
    ['BCH', 'bitcoin-cash'],
    ['bitcoin-cash', 'bitcoin-cash'],
    ['Dash Network', 'dash'],
  ])('%j → %s', (text, id) => {
    expect(matchNetwork(text)).toBe(id);
  });

  it('finds the network when the text also names the currency', () => {
    expect(matchNetwork('USDT TRC20', 'USDT')).toBe('tron');
    expect(matchNetwork('USDT-ERC20', 'USDT')).toBe('ethereum');
  });

  it.each([
    'Arbitrum Nova',
    'Polygon zkEVM',
    'Avalanche C-Chain',
    'Optimism',
    'Lightning Network',
    'BNB Beacon Chain (BEP2)',
    'Ethereum (BEP20)', // names two chains
    'Bitcoin Cash SV',
    '',
    '   ',
    '\u001b[31m',
  ])('leaves %j unknown rather than guessing a neighbour', (text) => {
    expect(matchNetwork(text)).toBeUndefined();
  });
});

describe('resolveAsset', () => {
  it.each<[string, NetworkId]>([
    ['BTC', 'bitcoin'],
    ['LTC', 'litecoin'],
    ['DOGE', 'dogecoin'],
    ['BCH', 'bitcoin-cash'],
    ['DASH', 'dash'],
    ['XMR', 'monero'],
    ['TRX', 'tron'],
    ['TON', 'ton'],
    ['SOL', 'solana'],
    ['ETH', 'ethereum'],
  ])('infers the chain of the single-chain coin %s from an empty network', (symbol, id) => {
    const asset = resolveAsset('', symbol.toLowerCase());
    expect(asset.kind).toBe('native');
    if (asset.kind === 'native') {
      expect(asset.network.id).toBe(id);
      expect(asset.source).toBe('currency');
      expect(asset.decimals).toBe(NETWORKS[id].nativeDecimals);
    }
  });

  it('never guesses a chain for a token or for ETH on an unknown network', () => {
    expect(resolveAsset('', 'USDT').kind).toBe('unknown-network');
    expect(resolveAsset('Avalanche C-Chain', 'USDC').kind).toBe('unknown-network');
    expect(resolveAsset('Optimism', 'ETH').kind).toBe('unknown-network');
    expect(resolveAsset('Arbitrum Nova', 'ETH').kind).toBe('unknown-network');
  });

  it('knows native coins, aliases, tokens, and unlisted tokens', () => {
    const pol = resolveAsset('Polygon Network', 'MATIC');
    expect(pol.kind === 'native' && pol.symbol).toBe('POL');
    const eth = resolveAsset('Base', 'eth');
    expect(eth.kind === 'native' && eth.network.id).toBe('base');
    const usdt = resolveAsset('Binance Smart Chain', 'usdt');
    expect(usdt.kind === 'token' && usdt.token.decimals).toBe(18);
    expect(resolveAsset('BSC', 'DAI').kind).toBe('unlisted');
  });

  it('has the native decimals of the brief', () => {
    const decimals = Object.fromEntries(Object.values(NETWORKS).map((n) => [n.nativeSymbol, n.nativeDecimals]));
    expect(decimals).toEqual({ BTC: 8, LTC: 8, DOGE: 8, BCH: 8, DASH: 8, DGB: 8, ETH: 18, BNB: 18, POL: 18, TRX: 6, TON: 9, SOL: 9, XMR: 12 });
  });
});

describe('token table', () => {
  it('holds the expected contracts and decimals', () => {
    const table = TOKENS.map((t) => `${t.symbol}@${t.networkId}=${t.contract}/${t.decimals}`);
    expect(table).toEqual(
      expect.arrayContaining([
        'USDT@ethereum=0xdAC17F958D2ee523a2206206994597C13D831ec7/6',
        'USDC@ethereum=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/6',
        'USDT@bsc=0x55d398326f99059fF775485246999027B3197955/18',
        'USDC@bsc=0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d/18',
        'USDT@polygon=0xc2132D05D31c914a87C6611C10748AEb04B58e8F/6',
        'USDC@polygon=0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359/6',
        'USDC@base=0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913/6',
        'USDT@arbitrum=0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9/6',
        'USDC@arbitrum=0xaf88d065e77c8cC2239327C5EDb3A432268e5831/6',
        'USDT@solana=Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB/6',
        // Circle's published mint (the brief's EPjF…LU7Wc9 is not it).
        'USDC@solana=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v/6',
        'USDT@tron=TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t/6',
      ]),
    );
  });
});

describe('SANDBOX_OFFERINGS', () => {
  it('lists exactly the sandbox networks, defaults first', () => {
    expect(SANDBOX_OFFERINGS.map((o) => `${o.payCurrency}|${o.network}|${o.networkId}`)).toEqual([
      'BTC|Bitcoin Network|bitcoin',
      'ETH|Ethereum Network|ethereum',
      'USDT|Tron Network|tron',
      'USDT|Ethereum Network|ethereum',
      'USDT|Binance Smart Chain|bsc',
      'USDC|Ethereum Network|ethereum',
      'LTC|Litecoin Network|litecoin',
      'DOGE|Dogecoin Network|dogecoin',
      'TRX|Tron Network|tron',
      'BNB|Binance Smart Chain|bsc',
      'POL|Polygon Network|polygon',
      'SOL|Solana Network|solana',
      'TON|TON Network|ton',
      'XMR|Monero Network|monero',
      'BCH|Bitcoin Cash Network|bitcoin-cash',
      'DASH|Dash Network|dash',
    ]);
  });

  it.each(SANDBOX_OFFERINGS.map((o) => [o.payCurrency, o.network, o.networkId] as const))(
    '%s on %j maps back to %s with known decimals',
    (payCurrency, network, networkId) => {
      expect(matchNetwork(network, payCurrency)).toBe(networkId);
      const asset = resolveAsset(network, payCurrency);
      expect(['native', 'token']).toContain(asset.kind);
    },
  );
});

/** What each sandbox offering must produce for payAmount 12.5 (16 rows = SANDBOX_OFFERINGS). */
const SANDBOX_EXPECTATIONS: ReadonlyArray<{
  payCurrency: string;
  network: string;
  kind: PaymentUri['kind'];
  scheme?: string;
  chainId?: string;
  contract?: string;
  amount?: string; // decimal in the URI
  units?: string; // integer base units in the URI
}> = [
  { payCurrency: 'BTC', network: 'Bitcoin Network', kind: 'bip21', scheme: 'bitcoin', amount: '12.5' },
  { payCurrency: 'ETH', network: 'Ethereum Network', kind: 'eip681-native', chainId: '1', units: '12500000000000000000' },
  { payCurrency: 'USDT', network: 'Tron Network', kind: 'address-only' },
  {
    payCurrency: 'USDT',
    network: 'Ethereum Network',
    kind: 'eip681-token',
    chainId: '1',
    contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    units: '12500000',
  },
  {
    payCurrency: 'USDT',
    network: 'Binance Smart Chain',
    kind: 'eip681-token',
    chainId: '56',
    contract: '0x55d398326f99059fF775485246999027B3197955',
    units: '12500000000000000000',
  },
  {
    payCurrency: 'USDC',
    network: 'Ethereum Network',
    kind: 'eip681-token',
    chainId: '1',
    contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    units: '12500000',
  },
  { payCurrency: 'LTC', network: 'Litecoin Network', kind: 'bip21', scheme: 'litecoin', amount: '12.5' },
  { payCurrency: 'DOGE', network: 'Dogecoin Network', kind: 'bip21', scheme: 'dogecoin', amount: '12.5' },
  { payCurrency: 'TRX', network: 'Tron Network', kind: 'address-only' },
  { payCurrency: 'BNB', network: 'Binance Smart Chain', kind: 'eip681-native', chainId: '56', units: '12500000000000000000' },
  { payCurrency: 'POL', network: 'Polygon Network', kind: 'eip681-native', chainId: '137', units: '12500000000000000000' },
  { payCurrency: 'SOL', network: 'Solana Network', kind: 'solana-pay', amount: '12.5' },
  { payCurrency: 'TON', network: 'TON Network', kind: 'ton-transfer', units: '12500000000' },
  { payCurrency: 'XMR', network: 'Monero Network', kind: 'monero', amount: '12.5' },
  { payCurrency: 'BCH', network: 'Bitcoin Cash Network', kind: 'bip21', scheme: 'bchtest', amount: '12.5' },
  { payCurrency: 'DASH', network: 'Dash Network', kind: 'bip21', scheme: 'dash', amount: '12.5' },
];

describe('payment URIs for every sandbox offering', () => {
  it('covers every offering', () => {
    expect(SANDBOX_EXPECTATIONS.map((e) => `${e.payCurrency}|${e.network}`)).toEqual(SANDBOX_OFFERINGS.map((o) => `${o.payCurrency}|${o.network}`));
  });

  it.each(SANDBOX_EXPECTATIONS.map((e) => [`${e.payCurrency} on ${e.network}`, e] as const))('%s', (_label, expected) => {
    const offering = SANDBOX_OFFERINGS.find((o) => o.payCurrency === expected.payCurrency && o.network === expected.network);
    if (!offering) throw new Error('no such offering');
    const address = deriveSandboxAddress(offering.networkId, `trk_${offering.payCurrency}_${offering.networkId}`);
    const result = buildPaymentUri({ network: offering.network, payCurrency: offering.payCurrency, address, payAmount: '12.50' });

    expect(result.kind).toBe(expected.kind);
    expect(result.networkId).toBe(offering.networkId);
    expect(result.networkName).toBe(NETWORKS[offering.networkId].name);
    for (const key of ['amount', 'value', 'uint256', 'tx_amount']) {
      const value = rawParam(result.uri, key);
      if (value !== undefined) expect(value).toMatch(/^\d+(?:\.\d+)?$/); // never exponent notation
    }

    switch (expected.kind) {
      case 'address-only':
        expect(result.uri).toBe(address);
        expect(result.amountInUri).toBe(false);
        expect(result.baseUnits).toBeUndefined();
        break;
      case 'bip21': {
        const scheme = expected.scheme ?? '';
        const decoded = decodeBip21(result.uri, scheme);
        expect(decoded.address).toBe(address.replace(/^bchtest:/, ''));
        expect(decoded.options.amount).toBe(12.5); // the reference decoder's JS number…
        expect(rawParam(result.uri, 'amount')).toBe(expected.amount); // …and the exact digits
        expect(result.uri.startsWith(`${scheme}:`)).toBe(true);
        expect(result.uri.split(':')).toHaveLength(2); // a CashAddr prefix is never doubled
        expect(result.amountInUri).toBe(true);
        break;
      }
      case 'eip681-native': {
        const parsed = parseEthUrl(result.uri);
        expect(parsed.target_address).toBe(address);
        expect(parsed.chain_id).toBe(expected.chainId);
        expect(parsed.function_name).toBeUndefined();
        expect(toPlainDecimal(parsed.parameters?.value ?? '')).toBe(expected.units);
        expect(rawParam(result.uri, 'value')).toBe(expected.units);
        expect(result.baseUnits).toBe(expected.units);
        break;
      }
      case 'eip681-token': {
        const parsed = parseEthUrl(result.uri);
        expect(parsed.target_address).toBe(expected.contract);
        expect(parsed.chain_id).toBe(expected.chainId);
        expect(parsed.function_name).toBe('transfer');
        expect(parsed.parameters?.address).toBe(address);
        expect(toPlainDecimal(parsed.parameters?.uint256 ?? '')).toBe(expected.units);
        expect(rawParam(result.uri, 'uint256')).toBe(expected.units);
        expect(result.baseUnits).toBe(expected.units);
        break;
      }
      case 'solana-pay': {
        const url = new URL(result.uri);
        expect(url.protocol).toBe('solana:');
        expect(url.pathname).toBe(address);
        expect(url.searchParams.get('amount')).toBe(expected.amount);
        expect(url.searchParams.has('spl-token')).toBe(false);
        break;
      }
      case 'ton-transfer':
        expect(result.uri).toBe(`ton://transfer/${address}?amount=${expected.units}`);
        expect(result.baseUnits).toBe(expected.units);
        break;
      case 'monero':
        expect(result.uri).toBe(`monero:${address}?tx_amount=${expected.amount}`);
        break;
    }
  });

  it.each(SANDBOX_OFFERINGS.map((o) => [o.payCurrency, o.network, o.networkId] as const))(
    'refuses a hostile %s address on %j',
    (payCurrency, network, networkId) => {
      const address = deriveSandboxAddress(networkId, 'hostile');
      for (const hostile of [`${address}?amount=0.0001`, `\u001b[31m${address}`, `${address}&uint256=1`, `${address} `]) {
        const error = expectProtocolError(
          () => buildPaymentUri({ network, payCurrency, address: hostile, payAmount: '1' }),
          /the gateway sent an address that is not valid for/i,
        );
        expect(error.message).not.toContain('\u001b');
        expect(error.message).not.toContain('?amount=');
        expect(error.message).not.toContain(address);
      }
    },
  );
});

describe('EIP-681 exactness', () => {
  const eth = (payAmount: string, payCurrency = 'ETH', network = 'Ethereum Network'): PaymentUri =>
    buildPaymentUri({ network, payCurrency, address: EVM_PAYEE, payAmount });

  it('0.123456789012345678 ETH → value 123456789012345678 wei', () => {
    const result = eth('0.123456789012345678');
    expect(result.uri).toBe(`ethereum:${EVM_PAYEE}@1?value=123456789012345678`);
    expect(parseEthUrl(result.uri).parameters?.value).toBe('123456789012345678');
    expect(result.baseUnits).toBe('123456789012345678');
  });

  it('keeps every digit of an amount far beyond float precision', () => {
    const result = eth('123456789.123456789012345678');
    expect(rawParam(result.uri, 'value')).toBe('123456789123456789012345678');
    // The reference parser switches to exponent notation for big values; the digits still match.
    expect(toPlainDecimal(parseEthUrl(result.uri).parameters?.value ?? '')).toBe('123456789123456789012345678');
  });

  it('USDT on BSC 25 → uint256 25000000000000000000 (18 decimals)', () => {
    const result = eth('25', 'USDT', 'BSC');
    expect(result.uri).toBe(`ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${EVM_PAYEE}&uint256=25000000000000000000`);
    const parsed = parseEthUrl(result.uri);
    expect(parsed).toMatchObject({ chain_id: '56', function_name: 'transfer', parameters: { address: EVM_PAYEE, uint256: '25000000000000000000' } });
  });

  it('USDT on Ethereum 25 → uint256 25000000 (6 decimals), chain id 1 always written', () => {
    const result = eth('25', 'USDT', 'ERC-20');
    expect(result.uri).toBe(`ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${EVM_PAYEE}&uint256=25000000`);
    expect(parseEthUrl(result.uri)).toMatchObject({ chain_id: '1', parameters: { uint256: '25000000' } });
  });

  it.each<[string, string, string, string]>([
    ['Polygon', 'USDT', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', '137'],
    ['Polygon Network', 'USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', '137'],
    ['Base', 'USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '8453'],
    ['Arbitrum One', 'USDT', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', '42161'],
    ['Arbitrum One', 'USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', '42161'],
  ])('%s %s → token %s on chain %s', (network, payCurrency, contract, chainId) => {
    const result = eth('1.5', payCurrency, network);
    const parsed = parseEthUrl(result.uri);
    expect(parsed).toMatchObject({
      target_address: contract,
      chain_id: chainId,
      function_name: 'transfer',
      parameters: { address: EVM_PAYEE, uint256: '1500000' },
    });
  });

  it('native ETH on Base and Arbitrum, BNB on BSC, POL on Polygon carry their chain ids', () => {
    expect(parseEthUrl(eth('0.01', 'ETH', 'Base').uri).chain_id).toBe('8453');
    expect(parseEthUrl(eth('0.01', 'ETH', 'Arbitrum One').uri).chain_id).toBe('42161');
    expect(eth('0.05', 'BNB', 'BEP20').uri).toBe(`ethereum:${EVM_PAYEE}@56?value=50000000000000000`);
    expect(eth('2', 'MATIC', 'Polygon').uri).toBe(`ethereum:${EVM_PAYEE}@137?value=2000000000000000000`);
  });

  it('19 decimals on ETH → ProtocolError, never rounded', () => {
    expectProtocolError(() => eth('0.1234567890123456789'), /more decimal places than ETH has \(18\)/);
    expectProtocolError(() => eth('1.0000001', 'USDT', 'Ethereum Network'), /USDT has \(6\)/);
  });

  it('an exponent amount from the gateway becomes plain digits', () => {
    expect(rawParam(eth('2.5E+1', 'USDT').uri, 'uint256')).toBe('25000000');
    expect(rawParam(eth('1e-18').uri, 'value')).toBe('1');
  });

  it('an invalid EIP-55 checksum → ProtocolError exit 76 naming the network and the reason', () => {
    const bad = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    const error = expectProtocolError(
      () => buildPaymentUri({ network: 'Ethereum Network', payCurrency: 'USDT', address: bad, payAmount: '25' }),
      /not valid for Ethereum \(ERC-20\).*EIP-55/,
    );
    expect(error.message).not.toContain(bad);
  });
});

describe('BIP-21 family', () => {
  const btc = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
  const build = (payAmount: string, address = btc, network = 'Bitcoin Network', payCurrency = 'BTC'): PaymentUri =>
    buildPaymentUri({ network, payCurrency, address, payAmount });

  it('writes coin units as a plain decimal, trimming only trailing zeros', () => {
    expect(build('0.10000000').uri).toBe(`bitcoin:${btc}?amount=0.1`);
    expect(build('0.1000000000').uri).toBe(`bitcoin:${btc}?amount=0.1`); // zeros past 8 decimals lose nothing
    expect(build('1.5e-7').uri).toBe(`bitcoin:${btc}?amount=0.00000015`);
    expect(build('21000000').uri).toBe(`bitcoin:${btc}?amount=21000000`);
    const decoded = decodeBip21(build('0.00012345').uri);
    expect(decoded.options.amount).toBe(0.00012345);
    expect(rawParam(build('0.00012345').uri, 'amount')).toBe('0.00012345');
  });

  it('refuses a ninth decimal digit', () => {
    expectProtocolError(() => build('0.000000001'), /more decimal places than BTC has \(8\)/);
  });

  it('keeps a bech32 address as sent', () => {
    const address = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
    expect(build('0.5', address).uri).toBe(`bitcoin:${address}?amount=0.5`);
    expect(decodeBip21(build('0.5', address).uri).address).toBe(address);
  });

  it('Bitcoin Cash: the CashAddr prefix is the scheme and is never doubled', () => {
    const cash = 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a';
    const uri = build('0.25', cash, 'Bitcoin Cash Network', 'BCH').uri;
    expect(uri).toBe(`${cash}?amount=0.25`);
    expect(decodeBip21(uri, 'bitcoincash').address).toBe(cash.slice('bitcoincash:'.length));
    // Unprefixed CashAddr and legacy base58 become the prefixed CashAddr.
    expect(build('0.25', cash.slice('bitcoincash:'.length), 'BCH', 'BCH').uri).toBe(`${cash}?amount=0.25`);
    expect(build('0.25', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'BCH', 'BCH').uri).toBe(`${cash}?amount=0.25`);
    // A bchtest: address keeps its own prefix as the scheme.
    const testnet = deriveSandboxAddress('bitcoin-cash', 'x');
    expect(build('1', testnet, 'Bitcoin Cash', 'BCH').uri).toBe(`${testnet}?amount=1`);
  });

  it('uses litecoin:, dogecoin: and dash: schemes', () => {
    const ltc = deriveSandboxAddress('litecoin', 's');
    const doge = deriveSandboxAddress('dogecoin', 's');
    const dash = deriveSandboxAddress('dash', 's');
    expect(decodeBip21(build('3', ltc, 'LTC', 'LTC').uri, 'litecoin').address).toBe(ltc);
    expect(decodeBip21(build('3', doge, 'Dogecoin', 'DOGE').uri, 'dogecoin').options.amount).toBe(3);
    expect(build('0.00000001', dash, 'Dash', 'DASH').uri).toBe(`dash:${dash}?amount=0.00000001`);
  });

  it('DigiByte: digibyte:<address>?amount=<DGB>, as DigiByte Core writes and reads it', () => {
    // Addresses from DigiByte Core's src/test/data/key_io_valid.json; URI form from its
    // src/qt/test/uritests.cpp ("digibyte:<address>?amount=0.001").
    for (const address of ['DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb', 'SefNWSMmXAxc4N8sxHyg8hHXTTU9GojgzX', 'dgb1qhyz5jznu8rxjz6emktwwkz5m0m4gr9q9rvhegc']) {
      const result = build('12.50000000', address, 'DigiByte Network', 'DGB');
      expect(result).toMatchObject({ kind: 'bip21', networkId: 'digibyte', networkName: 'DigiByte', amountInUri: true });
      expect(result.uri).toBe(`digibyte:${address}?amount=12.5`);
      const decoded = decodeBip21(result.uri, 'digibyte');
      expect(decoded.address).toBe(address);
      expect(decoded.options.amount).toBe(12.5);
    }
    expect(build('0.001', 'DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb', 'DGB', 'dgb').uri).toBe('digibyte:DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb?amount=0.001');
    const testnet = deriveSandboxAddress('digibyte', 'trk_1');
    expect(build('1', testnet, 'DigiByte', 'DGB').uri).toBe(`digibyte:${testnet}?amount=1`);
    expectProtocolError(() => build('0.000000001', 'DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb', 'DigiByte Network', 'DGB'), /DGB has \(8\)/);
    expectProtocolError(() => build('1', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'DigiByte Network', 'DGB'), /not valid for DigiByte/);
    expectProtocolError(() => build('1', '3HKSVVBUvJhetEwuq5UtJvPNAHg48ZGXgM', 'DigiByte Network', 'DGB'), /version byte 0x05/);
  });

  it('leaves a zero amount out of the URI', () => {
    const result = build('0');
    expect(result.uri).toBe(`bitcoin:${btc}`);
    expect(result.amountInUri).toBe(false);
    const eth = buildPaymentUri({ network: 'Ethereum', payCurrency: 'ETH', address: EVM_PAYEE, payAmount: '0.000' });
    expect(eth.uri).toBe(`ethereum:${EVM_PAYEE}@1`);
    expect(eth.amountInUri).toBe(false);
    expect(eth.baseUnits).toBeUndefined();
  });
});

describe('Solana Pay, TON and Monero', () => {
  const sol = deriveSandboxAddress('solana', 'merchant');

  it('Solana Pay: SOL amount in SOL; SPL tokens add spl-token=<mint>', () => {
    expect(buildPaymentUri({ network: 'Solana', payCurrency: 'SOL', address: sol, payAmount: '0.000000001' }).uri).toBe(`solana:${sol}?amount=0.000000001`);
    const usdc = buildPaymentUri({ network: 'SOL', payCurrency: 'USDC', address: sol, payAmount: '10.250000' });
    expect(usdc.uri).toBe(`solana:${sol}?amount=10.25&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
    const url = new URL(usdc.uri);
    expect(url.searchParams.get('spl-token')).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    const usdt = buildPaymentUri({ network: 'Solana Network', payCurrency: 'USDT', address: sol, payAmount: '5' });
    expect(usdt.uri).toBe(`solana:${sol}?amount=5&spl-token=Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB`);
    expectProtocolError(() => buildPaymentUri({ network: 'Solana', payCurrency: 'USDC', address: sol, payAmount: '0.0000001' }));
  });

  it('TON: ton://transfer/<address>?amount=<nanotons>', () => {
    const address = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
    const result = buildPaymentUri({ network: 'Toncoin', payCurrency: 'TON', address, payAmount: '1.5' });
    expect(result).toEqual({
      uri: `ton://transfer/${address}?amount=1500000000`,
      kind: 'ton-transfer',
      networkId: 'ton',
      networkName: 'TON',
      amountInUri: true,
      baseUnits: '1500000000',
      memoInUri: false,
      qr: true,
    });
    const raw = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
    expect(buildPaymentUri({ network: 'TON', payCurrency: 'TON', address: raw, payAmount: '1' }).uri).toBe(`ton://transfer/${raw}?amount=1000000000`);
  });

  it('TON: a standard-base64 address goes into the link path URL-safe', () => {
    const standard = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id/sDs';
    const result = buildPaymentUri({ network: 'TON', payCurrency: 'TON', address: standard, payAmount: '2' });
    expect(result.uri).toBe('ton://transfer/EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs?amount=2000000000');
  });

  it('TON: a jetton (USDT on TON) has no agreed link form → address-only', () => {
    const address = deriveSandboxAddress('ton', 'jetton');
    const result = buildPaymentUri({ network: 'TON Network', payCurrency: 'USDT', address, payAmount: '10' });
    expect(result).toEqual({ uri: address, kind: 'address-only', networkId: 'ton', networkName: 'TON', amountInUri: false, memoInUri: false, qr: true });
  });

  it('Monero: tx_amount in XMR with up to 12 decimals', () => {
    const address = '44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A';
    const result = buildPaymentUri({ network: 'Monero', payCurrency: 'XMR', address, payAmount: '0.000000000001' });
    expect(result.uri).toBe(`monero:${address}?tx_amount=0.000000000001`);
    expect(result.kind).toBe('monero');
    expectProtocolError(() => buildPaymentUri({ network: 'Monero', payCurrency: 'XMR', address, payAmount: '0.0000000000001' }));
  });
});

describe('address-only cases', () => {
  it('Tron: TRX and TRC-20 USDT carry only the address; decimals are still enforced', () => {
    const address = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(buildPaymentUri({ network: 'TRC-20', payCurrency: 'USDT', address, payAmount: '25.123456' })).toEqual({
      uri: address,
      kind: 'address-only',
      networkId: 'tron',
      networkName: 'Tron (TRC-20)',
      amountInUri: false,
      memoInUri: false,
      qr: true,
    });
    expectProtocolError(() => buildPaymentUri({ network: 'Tron', payCurrency: 'USDT', address, payAmount: '25.1234567' }), /USDT has \(6\)/);
    expectProtocolError(() => buildPaymentUri({ network: 'Tron', payCurrency: 'USDT', address: EVM_PAYEE, payAmount: '1' }), /Tron/);
  });

  it('a token on an unknown network → the bare address, no chain guessed', () => {
    const result = buildPaymentUri({ network: 'Avalanche C-Chain', payCurrency: 'USDT', address: EVM_PAYEE, payAmount: '25' });
    expect(result).toEqual({
      uri: EVM_PAYEE,
      kind: 'address-only',
      networkId: undefined,
      networkName: 'Avalanche C-Chain',
      amountInUri: false,
      memoInUri: false,
      qr: true,
    });
    const empty = buildPaymentUri({ network: '', payCurrency: 'USDC', address: EVM_PAYEE, payAmount: '25' });
    expect(empty).toMatchObject({ uri: EVM_PAYEE, kind: 'address-only', networkId: undefined, networkName: 'unknown network' });
  });

  it('ETH on an unrecognised network (maybe a layer 2) is not put on chain 1', () => {
    const result = buildPaymentUri({ network: 'Optimism', payCurrency: 'ETH', address: EVM_PAYEE, payAmount: '1' });
    expect(result.kind).toBe('address-only');
    expect(result.networkId).toBeUndefined();
    expect(buildPaymentUri({ network: '', payCurrency: 'ETH', address: EVM_PAYEE, payAmount: '1' }).uri).toBe(
      `ethereum:${EVM_PAYEE}@1?value=1000000000000000000`,
    );
  });

  it('a guessed chain stands only when the address is valid on it (BTC over Lightning stays address-only)', () => {
    const invoice = 'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq';
    const lightning = buildPaymentUri({ network: 'Lightning Network', payCurrency: 'BTC', address: invoice, payAmount: '0.001' });
    expect(lightning).toMatchObject({ kind: 'address-only', networkId: undefined, uri: invoice });
    const guessed = buildPaymentUri({ network: 'BTC (SegWit)', payCurrency: 'BTC', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', payAmount: '0.001' });
    expect(guessed.uri).toBe('bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa?amount=0.001');
  });

  it('an unlisted token on a known network is address-only but the address is still checked', () => {
    expect(buildPaymentUri({ network: 'BSC', payCurrency: 'DAI', address: EVM_PAYEE, payAmount: '3' })).toMatchObject({
      kind: 'address-only',
      networkId: 'bsc',
      uri: EVM_PAYEE,
    });
    expectProtocolError(() => buildPaymentUri({ network: 'BSC', payCurrency: 'DAI', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', payAmount: '3' }));
  });

  it('hostile text in an unknown network name is not shown raw; hostile addresses are refused there too', () => {
    const result = buildPaymentUri({ network: 'Evil\u001b[2J\u202eChain', payCurrency: 'USDT', address: EVM_PAYEE, payAmount: '1' });
    expect(result.networkName).not.toMatch(/[\u001b\u202e]/);
    const error = expectProtocolError(() => buildPaymentUri({ network: 'Avalanche', payCurrency: 'USDT', address: `${EVM_PAYEE}?amount=1`, payAmount: '1' }));
    expect(error.message).not.toContain('?amount=');
  });
});

describe('payAmount validation', () => {
  const input = (payAmount: string): PaymentUriInput => ({ network: 'Bitcoin', payCurrency: 'BTC', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', payAmount });

  it.each(['-1', '-0.5', 'abc', '', '1,5', 'NaN', 'Infinity', '0x10', '1.2.3', '.5', '+1', '1 000'])('refuses %j', (payAmount) => {
    expectProtocolError(() => buildPaymentUri(input(payAmount)), /not a non-negative decimal number/);
  });

  it('refuses a field that is not text (a JSON number where a string belongs)', () => {
    expectProtocolError(() => buildPaymentUri({ ...input('1'), payAmount: 1 as unknown as string }), /payAmount is not text/);
    expectProtocolError(() => buildPaymentUri({ ...input('1'), address: null as unknown as string }), /address is not text/);
  });

  it('does not echo control characters from a bad amount', () => {
    const error = expectProtocolError(() => buildPaymentUri(input('1\u001b[31m')));
    expect(error.message).not.toContain('\u001b');
  });
});

describe('deposit memo', () => {
  const ton = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
  const sol = 'mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN'; // the Solana Pay specification's example recipient
  const memos = ['ABC123', '104857600', 'order 42', 'a+b=c&d', 'Zürich 東京 😀', "it's (ok)*!", '100%', '#tag?x/y', ' padded ', 'x'.repeat(256)];

  /** The raw value of a query parameter, still percent-encoded. */
  const rawValue = (uri: string, key: string): string | undefined => rawParam(uri, key);

  it.each(memos.map((memo) => [memo]))('TON: %j goes in text=, strictly percent-encoded, and decodes back', (memo) => {
    const result = buildPaymentUri({ network: 'TON Network', payCurrency: 'TON', address: ton, payAmount: '1.5', memo });
    expect(result).toMatchObject({ kind: 'ton-transfer', memo, memoInUri: true, qr: true, amountInUri: true });
    expect(result.qrRefusal).toBeUndefined();
    expect(result.uri.startsWith(`ton://transfer/${ton}?amount=1500000000&text=`)).toBe(true);
    const raw = rawValue(result.uri, 'text') ?? '';
    expect(raw).toMatch(/^(?:[A-Za-z0-9._~-]|%[0-9A-F]{2})+$/); // only unreserved characters and %XX
    expect(decodeURIComponent(raw)).toBe(memo);
    const url = new URL(result.uri);
    expect(url.protocol).toBe('ton:');
    expect(url.host).toBe('transfer');
    expect(url.pathname).toBe(`/${ton}`);
    expect(url.searchParams.get('text')).toBe(memo); // form decoding too: a + would have become a space
    expect(url.searchParams.get('amount')).toBe('1500000000');
  });

  it.each(memos.map((memo) => [memo]))('Solana Pay: %j goes in memo=, after amount and spl-token, and decodes back', (memo) => {
    for (const [payCurrency, mint] of [
      ['SOL', undefined],
      ['USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ] as const) {
      const result = buildPaymentUri({ network: 'Solana Network', payCurrency, address: sol, payAmount: '1', memo });
      expect(result).toMatchObject({ kind: 'solana-pay', memo, memoInUri: true, qr: true });
      const url = new URL(result.uri);
      expect(url.protocol).toBe('solana:');
      expect(url.pathname).toBe(sol);
      expect(url.searchParams.get('memo')).toBe(memo);
      expect(url.searchParams.get('amount')).toBe('1');
      expect(url.searchParams.get('spl-token')).toBe(mint ?? null);
      expect([...url.searchParams.keys()]).toEqual(mint ? ['amount', 'spl-token', 'memo'] : ['amount', 'memo']);
      expect(decodeURIComponent(rawValue(result.uri, 'memo') ?? '')).toBe(memo);
    }
  });

  it('matches the published forms: Solana Pay spec memo=OrderId12345, TON text=Hello%20TON', () => {
    // Solana Pay spec example: solana:mvines9i…?amount=1&label=Michael&message=…&memo=OrderId12345
    // (gw writes no label or message).
    expect(buildPaymentUri({ network: 'Solana', payCurrency: 'SOL', address: sol, payAmount: '1', memo: 'OrderId12345' }).uri).toBe(
      `solana:${sol}?amount=1&memo=OrderId12345`,
    );
    // TON deep links: ton://transfer/<address>?amount=<nanotons>&text=<url-encoded-utf8-text>.
    expect(buildPaymentUri({ network: 'TON', payCurrency: 'TON', address: ton, payAmount: '1', memo: 'Hello TON' }).uri).toBe(
      `ton://transfer/${ton}?amount=1000000000&text=Hello%20TON`,
    );
  });

  it('a memo with no amount still goes in the link', () => {
    expect(buildPaymentUri({ network: 'TON', payCurrency: 'TON', address: ton, payAmount: '0', memo: 'm 1' }).uri).toBe(`ton://transfer/${ton}?text=m%201`);
    expect(buildPaymentUri({ network: 'Solana', payCurrency: 'SOL', address: sol, payAmount: '0', memo: 'm' }).uri).toBe(`solana:${sol}?memo=m`);
  });

  // Every scheme without a memo field, and every address-only QR: the QR must not be drawn.
  it.each<[string, PaymentUriInput, PaymentUri['kind'], RegExp]>([
    [
      'BIP-21 bitcoin:',
      { network: 'Bitcoin Network', payCurrency: 'BTC', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', payAmount: '0.1' },
      'bip21',
      /bitcoin: payment URIs \(BIP-21\)/,
    ],
    [
      'BIP-21 litecoin:',
      { network: 'Litecoin Network', payCurrency: 'LTC', address: deriveSandboxAddress('litecoin', 'm'), payAmount: '1' },
      'bip21',
      /litecoin: payment URIs/,
    ],
    [
      'BIP-21 dogecoin:',
      { network: 'Dogecoin Network', payCurrency: 'DOGE', address: deriveSandboxAddress('dogecoin', 'm'), payAmount: '1' },
      'bip21',
      /dogecoin:/,
    ],
    [
      'BIP-21 bitcoincash:',
      { network: 'Bitcoin Cash Network', payCurrency: 'BCH', address: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', payAmount: '1' },
      'bip21',
      /bitcoincash:/,
    ],
    ['BIP-21 dash:', { network: 'Dash', payCurrency: 'DASH', address: deriveSandboxAddress('dash', 'm'), payAmount: '1' }, 'bip21', /dash:/],
    [
      'BIP-21 digibyte:',
      { network: 'DigiByte Network', payCurrency: 'DGB', address: 'DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb', payAmount: '1' },
      'bip21',
      /digibyte:/,
    ],
    ['EIP-681 native', { network: 'Ethereum Network', payCurrency: 'ETH', address: EVM_PAYEE, payAmount: '1' }, 'eip681-native', /EIP-681/],
    ['EIP-681 token', { network: 'BSC', payCurrency: 'USDT', address: EVM_PAYEE, payAmount: '1' }, 'eip681-token', /EIP-681/],
    ['Monero', { network: 'Monero', payCurrency: 'XMR', address: deriveSandboxAddress('monero', 'm'), payAmount: '1' }, 'monero', /monero:/],
    [
      'Tron (address only)',
      { network: 'Tron Network', payCurrency: 'USDT', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', payAmount: '1' },
      'address-only',
      /only the address/,
    ],
    ['TON jetton (address only)', { network: 'TON Network', payCurrency: 'USDT', address: ton, payAmount: '1' }, 'address-only', /only the address/],
    ['Solana unlisted token (address only)', { network: 'Solana', payCurrency: 'BONK', address: sol, payAmount: '1' }, 'address-only', /only the address/],
    [
      'XRP, unknown network (destination tag)',
      { network: 'XRP', payCurrency: 'XRP', address: 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH', payAmount: '1' },
      'address-only',
      /only the address/,
    ],
  ])('%s + memo → not drawable, with the reason; the URI does not pretend to carry it', (_label, input, kind, scheme) => {
    const memo = '2975168049';
    const plain = buildPaymentUri(input);
    expect(plain).toMatchObject({ kind, qr: true, memoInUri: false });
    expect(plain.memo).toBeUndefined();
    const result = buildPaymentUri({ ...input, memo });
    expect(result).toMatchObject({ kind, memo, memoInUri: false, qr: false });
    expect(result.uri).toBe(plain.uri); // unchanged: no label=, message=, tx_payment_id=… standing in for the memo
    expect(result.uri).not.toContain(memo);
    expect(result.uri).not.toMatch(/[?&](?:label|message|memo|text|tx_payment_id|tx_description)=/);
    expect(result.qrRefusal).toMatch(scheme);
    expect(result.qrRefusal).toMatch(/needs a memo/);
    expect(result.qrRefusal).toMatch(/could not be credited/);
    expect(result.qrRefusal).not.toContain(memo);
    expect(result.qrRefusal).not.toMatch(/\n/);
  });

  it.each([undefined, null, ''])('no memo (%j) → drawable, no memo fields', (memo) => {
    const result = buildPaymentUri({ network: 'Bitcoin', payCurrency: 'BTC', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', payAmount: '1', memo });
    expect(result).toMatchObject({ qr: true, memoInUri: false });
    expect('memo' in result).toBe(false);
    expect('qrRefusal' in result).toBe(false);
  });

  it.each<[string, unknown]>([
    ['NUL', 'a\u0000b'],
    ['newline', '123\n456'],
    ['carriage return', '123\r'],
    ['tab', '1\t2'],
    ['escape sequence', '\u001b[31m42'],
    ['DEL', '42\u007f'],
    ['C1 NEL', '42\u0085'],
    ['C1 CSI', '\u009b31m42'],
    ['bidi override', 'abc\u202edef'],
    ['zero-width space', '42\u200b'],
    ['byte-order mark', '\ufeff42'],
    ['line separator', '4\u20282'],
    ['paragraph separator', '4\u20292'],
    ['lone surrogate', 'a\ud800b'],
    ['only spaces', '   '],
    ['too long', 'x'.repeat(257)],
    ['a number', 2975168049],
    ['an object', { tag: 1 }],
  ])('refuses a memo with %s (ProtocolError, exit 76, memo not echoed)', (_label, memo) => {
    for (const network of ['TON', 'Bitcoin']) {
      const input =
        network === 'TON'
          ? { network, payCurrency: 'TON', address: ton, payAmount: '1' }
          : { network, payCurrency: 'BTC', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', payAmount: '1' };
      const error = expectProtocolError(() => buildPaymentUri({ ...input, memo: memo as string }), /memo/);
      if (typeof memo === 'string' && memo.trim() !== '') expect(error.message).not.toContain(memo);
      expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    }
  });
});

describe('percentEncodeText', () => {
  it('keeps only RFC 3986 unreserved characters and round-trips every printable ASCII character', () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    const encoded = percentEncodeText(ascii);
    expect(encoded).toMatch(/^(?:[A-Za-z0-9._~-]|%[0-9A-F]{2})+$/);
    expect(decodeURIComponent(encoded)).toBe(ascii);
    expect(new URLSearchParams(`x=${encoded}`).get('x')).toBe(ascii);
    expect(percentEncodeText(' +&=?#/%')).toBe('%20%2B%26%3D%3F%23%2F%25');
    expect(percentEncodeText("!'()*")).toBe('%21%27%28%29%2A');
    expect(percentEncodeText('é😀')).toBe('%C3%A9%F0%9F%98%80');
  });
});
