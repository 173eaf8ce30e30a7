// Turns a white-label payment (the gateway's network text, payCurrency, address and payAmount)
// into the payment URI a payer's wallet reads from the QR code: BIP-21 for the Bitcoin family,
// EIP-681 for EVM chains, Solana Pay, TON transfer links, the Monero URI scheme, and the bare
// address where no scheme is agreed. The address is validated before anything is built, and the
// amount stays a decimal string / BigInt end to end: it is never rounded, never a JS number.
//
// A zero amount is left out of the URI (amountInUri false): asking a wallet to send 0 is never
// what a payment means, and an empty amount field makes the payer read the amount gw prints.

import { ProtocolError } from '../errors.js';
import { oneLine } from '../output/sanitize.js';
import { TooManyDecimalsError, fromBaseUnits, toBaseUnits, toPlainDecimal } from '../money/decimal.js';
import { bitcoinCashUriAddress, checkAddressSafety, tonUriAddress, validateAddress } from './addresses.js';
import { resolveAsset, type AssetResolution, type NetworkId, type NetworkInfo, type TokenInfo } from './networks.js';

export interface PaymentUriInput {
  network: string;
  payCurrency: string;
  address: string;
  payAmount: string;
}

export interface PaymentUri {
  /** What goes in the QR code and in output (the bare address when there is no scheme). */
  uri: string;
  kind: 'bip21' | 'eip681-native' | 'eip681-token' | 'solana-pay' | 'ton-transfer' | 'monero' | 'address-only';
  /** undefined when the network is unknown. */
  networkId: NetworkId | undefined;
  /** Human display name, e.g. "Tron (TRC-20)". */
  networkName: string;
  /** False when the QR carries only the address: the CLI then shows the amount prominently. */
  amountInUri: boolean;
  /** Integer base units (decimal digits) when the URI carries them (wei, token units, nanoton). */
  baseUnits?: string;
}

const UNKNOWN_NETWORK_NAME = 'unknown network';

/** Gateway text made fit to show: no control or invisible characters, one line, bounded length. */
const displayText = (text: string, max = 48): string => oneLine(text, max);

/** The payAmount as a plain non-negative decimal string, or a ProtocolError. */
function parseAmount(payAmount: string): string {
  const plain = toPlainDecimal(payAmount);
  if (plain === undefined || plain.startsWith('-')) {
    throw new ProtocolError(
      `the gateway sent a payment amount that is not a non-negative decimal number (${JSON.stringify(displayText(payAmount, 40))})`,
    );
  }
  return plain;
}

/** Exact integer base units of `amount` for an asset with `decimals`; refuses to round. */
function toUnits(amount: string, decimals: number, symbol: string): bigint {
  try {
    return toBaseUnits(amount, decimals);
  } catch (error) {
    if (error instanceof TooManyDecimalsError) {
      throw new ProtocolError(
        `the gateway asked for ${displayText(amount, 40)} ${symbol}, which has more decimal places than ${symbol} has (${decimals}); gw does not round payment amounts`,
        { cause: error },
      );
    }
    throw error;
  }
}

function invalidAddress(networkName: string, reason: string): ProtocolError {
  return new ProtocolError(`the gateway sent an address that is not valid for ${networkName}: it ${reason}`, {
    hint: 'No payment URI or QR code was made for it. Check the payment with the gateway before anyone pays.',
  });
}

/** `base?k=v&k=v`, leaving out parameters whose value is undefined. */
function withQuery(base: string, params: ReadonlyArray<readonly [string, string | undefined]>): string {
  const query = params.flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${value}`])).join('&');
  return query === '' ? base : `${base}?${query}`;
}

function addressOnly(address: string, networkId: NetworkId | undefined, networkName: string): PaymentUri {
  return { uri: address, kind: 'address-only', networkId, networkName, amountInUri: false };
}

/** A payment on a network gw does not know: only the generic safety check applies. */
function unknownNetworkUri(input: PaymentUriInput): PaymentUri {
  const networkName = displayText(input.network) || UNKNOWN_NETWORK_NAME;
  const safety = checkAddressSafety(input.address);
  if (!safety.ok) throw invalidAddress(networkName, safety.reason);
  return addressOnly(input.address, undefined, networkName);
}

/** Builds the URI for a known network and an asset whose decimals are known. */
function assetUri(network: NetworkInfo, token: TokenInfo | undefined, address: string, units: bigint, decimals: number): PaymentUri {
  const common = { networkId: network.id, networkName: network.name };
  const hasAmount = units > 0n;
  const decimal = hasAmount ? fromBaseUnits(units, decimals) : undefined;
  const digits = hasAmount ? units.toString() : undefined;
  const scheme = network.uri;

  if (scheme.kind === 'eip681') {
    // EIP-681: the chain id is always given (even 1) so no wallet assumes a chain; amounts are
    // integer base units (wei for `value`, token units for `uint256`), written as plain digits.
    const result = token
      ? {
          uri: withQuery(`ethereum:${token.contract}@${scheme.chainId}/transfer`, [
            ['address', address],
            ['uint256', digits],
          ]),
          kind: 'eip681-token' as const,
        }
      : { uri: withQuery(`ethereum:${address}@${scheme.chainId}`, [['value', digits]]), kind: 'eip681-native' as const };
    return { ...result, ...common, amountInUri: hasAmount, ...(digits === undefined ? {} : { baseUnits: digits }) };
  }
  if (scheme.kind === 'solana-pay') {
    // Solana Pay transfer request: amount in token ("user") units, plain decimal, mint's precision.
    const uri = withQuery(`solana:${address}`, [
      ['amount', decimal],
      ['spl-token', token?.contract],
    ]);
    return { uri, kind: 'solana-pay', ...common, amountInUri: hasAmount };
  }
  if (token) return addressOnly(address, network.id, network.name); // jettons, TRC-20: no agreed URI form

  switch (scheme.kind) {
    case 'bip21': {
      // BIP-21: amount in coin units as a plain decimal. A CashAddr carries its own prefix, which
      // is the URI scheme (bitcoincash: or bchtest:), so it is never doubled.
      const base = scheme.scheme === 'bitcoincash' ? bitcoinCashUriAddress(address) : `${scheme.scheme}:${address}`;
      return { uri: withQuery(base, [['amount', decimal]]), kind: 'bip21', ...common, amountInUri: hasAmount };
    }
    case 'ton-transfer': {
      // TON transfer link: amount in nanotons.
      const uri = withQuery(`ton://transfer/${tonUriAddress(address)}`, [['amount', digits]]);
      return { uri, kind: 'ton-transfer', ...common, amountInUri: hasAmount, ...(digits === undefined ? {} : { baseUnits: digits }) };
    }
    case 'monero':
      // Monero URI scheme: tx_amount in XMR as a decimal.
      return { uri: withQuery(`monero:${address}`, [['tx_amount', decimal]]), kind: 'monero', ...common, amountInUri: hasAmount };
    case 'address-only':
      return addressOnly(address, network.id, network.name);
  }
}

/**
 * A network text gw did not recognise is only a guess from the payCurrency (see networks.ts); the
 * guess stands only if the address is valid on that chain, otherwise the network stays unknown.
 */
function settleGuess(asset: AssetResolution, address: string): AssetResolution {
  if (asset.kind === 'native' && asset.source === 'currency-guess' && !validateAddress(asset.network.id, address).ok) {
    return { kind: 'unknown-network', symbol: asset.symbol };
  }
  return asset;
}

/**
 * The payment URI for a white-label payment. Throws ProtocolError (exit 76) when the address is not
 * valid for the network, the amount is not a non-negative decimal, or the amount has more decimal
 * places than the asset (it is never rounded).
 */
export function buildPaymentUri(input: PaymentUriInput): PaymentUri {
  for (const field of ['network', 'payCurrency', 'address', 'payAmount'] as const) {
    if (typeof input[field] !== 'string') throw new ProtocolError(`the gateway sent a payment whose ${field} is not text`);
  }
  const amount = parseAmount(input.payAmount);
  const asset = settleGuess(resolveAsset(input.network, input.payCurrency), input.address);
  if (asset.kind === 'unknown-network') return unknownNetworkUri(input);

  const { network } = asset;
  const check = validateAddress(network.id, input.address);
  if (!check.ok) throw invalidAddress(network.name, check.reason);
  if (asset.kind === 'unlisted') return addressOnly(input.address, network.id, network.name);

  const token = asset.kind === 'token' ? asset.token : undefined;
  const decimals = asset.kind === 'token' ? asset.token.decimals : asset.decimals;
  const symbol = asset.kind === 'token' ? asset.token.symbol : asset.symbol;
  const units = toUnits(amount, decimals, symbol);
  return assetUri(network, token, input.address, units, decimals);
}
