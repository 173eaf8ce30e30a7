// Turns a white-label payment (the gateway's network text, payCurrency, address and payAmount)
// into the payment URI a payer's wallet reads from the QR code: BIP-21 for the Bitcoin family,
// EIP-681 for EVM chains, Solana Pay, TON transfer links, the Monero URI scheme, and the bare
// address where no scheme is agreed. The address is validated before anything is built, and the
// amount stays a decimal string / BigInt end to end: it is never rounded, never a JS number.
//
// A zero amount is left out of the URI (amountInUri false): asking a wallet to send 0 is never
// what a payment means, and an empty amount field makes the payer read the amount gw prints.
//
// A deposit memo (the `memo` of the newer API's white-label answer, empty for most coins) goes in
// the URI where the scheme has a field a wallet attaches to the transaction (TON `text`, Solana
// Pay `memo`). Where it has none, or the QR would hold only the address, the result says the QR
// is NOT safe to draw (`qr: false`): a payment sent without its memo cannot be attributed.

import { ProtocolError } from '../errors.js';
import { Untrusted } from '../output/untrusted.js';
import { TooManyDecimalsError, fromBaseUnits, toBaseUnits, toPlainDecimal } from '../money/decimal.js';
import { bitcoinCashUriAddress, checkAddressSafety, tonUriAddress, validateAddress } from './addresses.js';
import { resolveAsset, type AssetResolution, type NetworkId, type NetworkInfo, type TokenInfo } from './networks.js';

export interface PaymentUriInput {
  network: string;
  payCurrency: string;
  address: string;
  payAmount: string;
  /**
   * The deposit memo the gateway sent (newer API `memo`; for other networks also called tag or
   * comment). Absent, null or '' when the payment needs none. Text only: a memo the gateway sent as
   * a JSON number must be passed as its digits.
   */
  memo?: string | null | undefined;
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
  /** The memo the payer must attach, exactly as the gateway sent it; absent when there is none. */
  memo?: string;
  /** True when `uri` carries the memo (TON `text`, Solana Pay `memo`). */
  memoInUri: boolean;
  /**
   * False when neither the QR code nor `uri` may be offered to the payer: the payment needs a memo
   * that `uri` does not carry, so a wallet would pay without it. Show the address, amount and memo
   * as text instead, with `qrRefusal`. Always true when there is no memo.
   */
  qr: boolean;
  /** Why the QR must not be drawn, one line for the user (only when `qr` is false). */
  qrRefusal?: string;
}

/** A PaymentUri before the memo is settled. */
type BaseUri = Omit<PaymentUri, 'memo' | 'memoInUri' | 'qr' | 'qrRefusal'>;

/**
 * The query parameter each kind of URI has for a deposit memo, or undefined when it has none
 * (the table of docs/payment-uris.md lists the same, with sources):
 * - ton-transfer `text`: Tonkeeper wallet-api "Payment URLs" (github.com/tonkeeper/wallet-api,
 *   `ton://transfer/<address>?amount=<nanocoins>&text=<url-encoded-utf8-text>`) and docs.ton.org
 *   "Deep links" (`ton://transfer/<ADDRESS>?amount=<AMOUNT>&text=<TEXT>`): the text comment of the
 *   transfer, which is what TON deposit memos are.
 * - solana-pay `memo`: Solana Pay specification, transfer request (docs.solanapay.com/spec,
 *   "Memo": a URL-encoded UTF-8 string the wallet must put in an SPL Memo instruction of the
 *   payment transaction).
 * - bip21: none. BIP-21 `label` and `message` describe the payment to the payer; wallets do not
 *   attach them to the transaction, so they are not deposit memos and are never used as one.
 * - eip681-*: none. EIP-681 parameters are the transaction's value, gas and the called function's
 *   arguments; a `transfer` has no memo argument.
 * - monero: none. The Monero URI scheme (monero-project wallet2 `make_uri`/`parse_uri`) has
 *   `tx_payment_id`, a 16/64-hex-digit payment ID (standalone payment IDs were phased out of the
 *   reference wallet in 2019 for integrated addresses), and `tx_description`, a note for the
 *   payer; neither takes a free-text memo.
 * - address-only: none, by definition.
 */
const MEMO_PARAMETER: { readonly [kind in PaymentUri['kind']]: string | undefined } = {
  'ton-transfer': 'text',
  'solana-pay': 'memo',
  bip21: undefined,
  'eip681-native': undefined,
  'eip681-token': undefined,
  monero: undefined,
  'address-only': undefined,
};

/** Far longer than deposit memos and tags in use (digits, short codes); keeps the QR scannable. */
const MAX_MEMO_LENGTH = 256;

const UNKNOWN_NETWORK_NAME = 'unknown network';

/** The payAmount as a plain non-negative decimal string, or a ProtocolError. */
function parseAmount(payAmount: string): string {
  const plain = toPlainDecimal(payAmount);
  if (plain === undefined || plain.startsWith('-')) {
    throw new ProtocolError(
      `the gateway sent a payment amount that is not a non-negative decimal number (${JSON.stringify(Untrusted.of(payAmount).line(40))})`,
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
        `the gateway asked for ${Untrusted.of(amount).line(40)} ${symbol}, which has more decimal places than ${symbol} has (${decimals}); gw does not round payment amounts`,
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

function addressOnly(address: string, networkId: NetworkId | undefined, networkName: string): BaseUri {
  return { uri: address, kind: 'address-only', networkId, networkName, amountInUri: false };
}

/** A payment on a network gw does not know: only the generic safety check applies. */
function unknownNetworkUri(input: PaymentUriInput): BaseUri {
  const networkName = Untrusted.of(input.network).line(48) || UNKNOWN_NETWORK_NAME;
  const safety = checkAddressSafety(input.address);
  if (!safety.ok) throw invalidAddress(networkName, safety.reason);
  return addressOnly(input.address, undefined, networkName);
}

/** Builds the URI for a known network and an asset whose decimals are known. */
function assetUri(network: NetworkInfo, token: TokenInfo | undefined, address: string, units: bigint, decimals: number): BaseUri {
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

function badMemo(what: string): ProtocolError {
  return new ProtocolError(`the gateway sent a payment memo ${what}`, {
    hint: 'No payment URI or QR code was made for it. Check the payment with the gateway before anyone pays.',
  });
}

/**
 * The memo as it goes to the payer, or undefined for none (absent, null or ''). Refuses what a
 * payer could not see or type exactly, or a wallet not reproduce: control characters (C0, C1),
 * invisible format characters (bidi overrides, zero-width joiners and spaces, BOM), line and
 * paragraph separators, broken UTF-16, only spaces, and more than MAX_MEMO_LENGTH characters.
 * Error messages never quote the memo.
 */
function parseMemo(memo: unknown): string | undefined {
  if (memo === undefined || memo === null || memo === '') return undefined;
  if (typeof memo !== 'string') throw badMemo('that is not text');
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(memo)) throw badMemo('with control or invisible characters');
  if (/\p{Cs}/u.test(memo)) throw badMemo('that is not valid Unicode text');
  if (memo.trim() === '') throw badMemo('of only spaces, which a payer cannot enter');
  if ([...memo].length > MAX_MEMO_LENGTH) throw badMemo(`longer than ${MAX_MEMO_LENGTH} characters`);
  return memo;
}

/**
 * Percent-encodes UTF-8 text for a query value: every byte except RFC 3986 unreserved characters
 * (letters, digits, - . _ ~), so space is %20 and + is %2B. Both memo fields ask for URL-encoded
 * UTF-8, and this form decodes to the same text with decodeURIComponent and with form decoding
 * (URLSearchParams, which @solana/pay's parseURL uses, reads a raw + as a space).
 */
export function percentEncodeText(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The URI described for the user, for the reason a QR is withheld. */
function schemeLabel(base: BaseUri): string {
  const scheme = base.uri.slice(0, base.uri.indexOf(':') + 1);
  switch (base.kind) {
    case 'bip21':
      return `${scheme} payment URIs (BIP-21) have no field for it`;
    case 'eip681-native':
    case 'eip681-token':
      return 'ethereum: payment URIs (EIP-681) have no field for it';
    case 'monero':
      return 'monero: payment URIs have no field for it';
    default:
      return 'the QR code would hold only the address';
  }
}

/** Puts the memo in the URI where its scheme has a field for it, or withholds the QR. */
function settleMemo(base: BaseUri, memo: string | undefined): PaymentUri {
  if (memo === undefined) return { ...base, memoInUri: false, qr: true };
  const parameter = MEMO_PARAMETER[base.kind];
  if (parameter !== undefined) {
    const uri = `${base.uri}${base.uri.includes('?') ? '&' : '?'}${parameter}=${percentEncodeText(memo)}`;
    return { ...base, uri, memo, memoInUri: true, qr: true };
  }
  return {
    ...base,
    memo,
    memoInUri: false,
    qr: false,
    qrRefusal: `this payment needs a memo and ${schemeLabel(base)}: a wallet would pay without it and the payment could not be credited, so the payer must enter the address, amount and memo by hand`,
  };
}

/**
 * The payment URI for a white-label payment. Throws ProtocolError (exit 76) when the address is not
 * valid for the network, the amount is not a non-negative decimal, the amount has more decimal
 * places than the asset (it is never rounded), or the memo is not plain printable text. With a
 * memo, read `qr`: false means neither the QR nor `uri` may be offered to the payer.
 */
export function buildPaymentUri(input: PaymentUriInput): PaymentUri {
  for (const field of ['network', 'payCurrency', 'address', 'payAmount'] as const) {
    if (typeof input[field] !== 'string') throw new ProtocolError(`the gateway sent a payment whose ${field} is not text`);
  }
  const memo = parseMemo(input.memo);
  return settleMemo(buildBaseUri(input), memo);
}

function buildBaseUri(input: PaymentUriInput): BaseUri {
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
