// Address syntax and checksum validation for every network in networks.ts, and deterministic
// sandbox addresses. An address the gateway sends goes into a QR code that a payer's wallet acts on,
// so it is checked strictly (mainnet and testnet forms both accepted: the sandbox hands out testnet
// forms) and anything that could change the meaning of a URI or drive a terminal is refused first.
// Failure reasons never quote the address itself: it may contain hostile bytes.

import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, base58xmr, base64, base64url, bech32, bech32m, createBase58check } from '@scure/base';
import { NETWORKS, type AddressFormat, type NetworkId } from './networks.js';

export type AddressCheck = { ok: true } | { ok: false; reason: string };

const OK: AddressCheck = { ok: true };
const fail = (reason: string): AddressCheck => ({ ok: false, reason });

/** Longer than any address format here (a Monero integrated address is 106 characters). */
const MAX_ADDRESS_LENGTH = 128;

const base58check = createBase58check(sha256);

// ---------------------------------------------------------------------------------------------
// Safety: applies to every address, known network or not.

/**
 * Refuses what no address format here contains and what could break out of a URI or a terminal:
 * whitespace, control and non-ASCII characters, and every punctuation character except the few
 * that address formats use (`:` in CashAddr prefixes and raw TON addresses, `-` `_` `+` `/` in
 * TON's base64 forms; each format's own check then allows them only where they belong).
 */
export function checkAddressSafety(address: string): AddressCheck {
  if (typeof address !== 'string') return fail('is not a string');
  if (address.length === 0) return fail('is empty');
  if (address.length > MAX_ADDRESS_LENGTH) return fail(`is longer than ${MAX_ADDRESS_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(address)) return fail('contains control characters');
  if (/\s/.test(address)) return fail('contains whitespace');
  if (/[^\x21-\x7e]/.test(address)) return fail('contains non-ASCII characters');
  const bad = /[^A-Za-z0-9:+/_-]/.exec(address);
  if (bad) return fail(`contains the character ${JSON.stringify(bad[0])}, which no address has and which has a meaning in a URI`);
  return OK;
}

// ---------------------------------------------------------------------------------------------
// Bitcoin family: base58check (legacy P2PKH/P2SH) and bech32/bech32m segwit.

interface Base58Family {
  /** Version byte → what it is, for every version accepted. */
  readonly versions: ReadonlyMap<number, string>;
  /** Segwit human-readable parts (mainnet and testnet); empty when the coin has no segwit. */
  readonly segwitHrps: readonly string[];
}

// Version bytes from each coin's chainparams.cpp (base58Prefixes PUBKEY_ADDRESS / SCRIPT_ADDRESS).
const BITCOIN: Base58Family = {
  versions: new Map([
    [0x00, 'P2PKH (1…)'],
    [0x05, 'P2SH (3…)'],
    [0x6f, 'testnet P2PKH (m…/n…)'],
    [0xc4, 'testnet P2SH (2…)'],
  ]),
  segwitHrps: ['bc', 'tb'],
};
const LITECOIN: Base58Family = {
  versions: new Map([
    [0x30, 'P2PKH (L…)'],
    [0x32, 'P2SH (M…)'],
    [0x05, 'legacy P2SH (3…)'],
    [0x6f, 'testnet P2PKH (m…/n…)'],
    [0x3a, 'testnet P2SH (Q…)'],
    [0xc4, 'testnet legacy P2SH (2…)'],
  ]),
  segwitHrps: ['ltc', 'tltc'],
};
const DOGECOIN: Base58Family = {
  versions: new Map([
    [0x1e, 'P2PKH (D…)'],
    [0x16, 'P2SH (9…/A…)'],
    [0x71, 'testnet P2PKH (n…)'],
    [0xc4, 'testnet P2SH (2…)'],
  ]),
  segwitHrps: [],
};
const DASH: Base58Family = {
  versions: new Map([
    [0x4c, 'P2PKH (X…)'],
    [0x10, 'P2SH (7…)'],
    [0x8c, 'testnet P2PKH (y…)'],
    [0x13, 'testnet P2SH (8…/9…)'],
  ]),
  segwitHrps: [],
};
/**
 * DigiByte: github.com/DigiByte-Core/digibyte src/chainparams.cpp — main PUBKEY_ADDRESS 30 (0x1e,
 * D…), SCRIPT_ADDRESS 63 (0x3f, S…), bech32_hrp "dgb"; test PUBKEY_ADDRESS 126 (0x7e, s…/t…),
 * SCRIPT_ADDRESS 140 (0x8c, y…), bech32_hrp "dgbt" (signet shares them; regtest's "dgbrt" is not a
 * payment address). The old P2SH byte 5 (3…, SCRIPT_ADDRESS_OLD, used before 6.16) is NOT accepted:
 * DigiByte Core's DecodeDestination (src/key_io.cpp) decodes only PUBKEY_ADDRESS and
 * SCRIPT_ADDRESS, and its own test vectors list a checksum-valid 3… address as invalid
 * (src/test/data/key_io_invalid.json, commit 6d366241c), so a payer's wallet would refuse it and
 * it is also Bitcoin's P2SH prefix.
 */
const DIGIBYTE: Base58Family = {
  versions: new Map([
    [0x1e, 'P2PKH (D…)'],
    [0x3f, 'P2SH (S…)'],
    [0x7e, 'testnet P2PKH (s…/t…)'],
    [0x8c, 'testnet P2SH (y…)'],
  ]),
  segwitHrps: ['dgb', 'dgbt'],
};
/** Bitcoin Cash legacy addresses share Bitcoin's version bytes (CashAddr is handled separately). */
const BITCOIN_CASH_LEGACY: Base58Family = { versions: BITCOIN.versions, segwitHrps: [] };

const BASE58_ALPHABET = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** Decodes base58check (double-SHA256 checksum); undefined when the text or checksum is wrong. */
function decodeBase58check(address: string): Uint8Array | undefined {
  if (!BASE58_ALPHABET.test(address)) return undefined;
  try {
    return base58check.decode(address);
  } catch {
    return undefined;
  }
}

function checkBase58Family(family: Base58Family, address: string): AddressCheck {
  if (!BASE58_ALPHABET.test(address)) return fail('is not base58');
  const payload = decodeBase58check(address);
  if (payload === undefined) return fail('has a wrong base58check checksum');
  if (payload.length !== 21) return fail(`decodes to ${payload.length} bytes instead of 21`);
  const version = payload[0] ?? -1;
  if (!family.versions.has(version)) return fail(`has version byte 0x${version.toString(16).padStart(2, '0')}, not one of this network`);
  return OK;
}

/** BIP-173 (bech32, witness v0) and BIP-350 (bech32m, witness v1..16) segwit address check. */
export function checkSegwit(hrps: readonly string[], address: string): AddressCheck {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return fail('mixes upper and lower case');
  const separator = lower.lastIndexOf('1');
  if (separator < 1 || !hrps.includes(lower.slice(0, separator))) return fail('has a wrong human-readable part');
  const asBech32 = bech32.decodeUnsafe(lower);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) return fail('has a wrong bech32/bech32m checksum');
  const [version, ...programWords] = decoded.words;
  if (version === undefined || version > 16) return fail('has an invalid witness version');
  if (version === 0 && !asBech32) return fail('is witness version 0 but uses the bech32m checksum');
  if (version > 0 && !asBech32m) return fail('is witness version 1+ but uses the bech32 checksum');
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program) return fail('has invalid padding in its witness program');
  if (version === 0 && program.length !== 20 && program.length !== 32) return fail('has a witness v0 program that is neither 20 nor 32 bytes');
  if (program.length < 2 || program.length > 40) return fail('has a witness program outside 2..40 bytes');
  return OK;
}

function checkBitcoinLike(family: Base58Family, address: string): AddressCheck {
  const lower = address.toLowerCase();
  if (family.segwitHrps.some((hrp) => lower.startsWith(`${hrp}1`))) return checkSegwit(family.segwitHrps, address);
  return checkBase58Family(family, address);
}

// ---------------------------------------------------------------------------------------------
// Bitcoin Cash CashAddr (spec: github.com/bitcoincashorg/bitcoincash.org, spec/cashaddr.md).

const CASHADDR_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CASHADDR_GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];
const CASHADDR_PREFIXES = ['bitcoincash', 'bchtest'] as const;
export type CashAddrPrefix = (typeof CASHADDR_PREFIXES)[number];
/** Hash sizes in bytes by the version byte's size bits. */
const CASHADDR_HASH_BYTES = [20, 24, 28, 32, 40, 48, 56, 64];

/** The CashAddr BCH-code checksum (40-bit polymod); 0 for a valid prefix + 0 + payload sequence. */
export function cashAddrPolymod(values: readonly number[]): bigint {
  let c = 1n;
  for (const value of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(value);
    CASHADDR_GENERATORS.forEach((generator, i) => {
      if ((c0 >> BigInt(i)) & 1n) c ^= generator;
    });
  }
  return c ^ 1n;
}

function prefixValues(prefix: string): number[] {
  return [...prefix].map((ch) => ch.charCodeAt(0) & 0x1f);
}

/** True when `prefix:payload` (any case, not mixed) has a valid CashAddr checksum. */
export function cashAddrChecksumOk(prefix: string, payload: string): boolean {
  const values = [...payload.toLowerCase()].map((ch) => CASHADDR_CHARSET.indexOf(ch));
  if (values.length < 8 || values.some((v) => v < 0)) return false;
  return cashAddrPolymod([...prefixValues(prefix.toLowerCase()), 0, ...values]) === 0n;
}

export interface CashAddr {
  readonly prefix: CashAddrPrefix;
  /** 0 P2PKH, 1 P2SH, 2/3 their token-aware forms (CashTokens). */
  readonly type: number;
  readonly hash: Uint8Array;
}

type CashAddrResult = { ok: true; value: CashAddr } | { ok: false; reason: string };

/** Parses a CashAddr with or without its `bitcoincash:` / `bchtest:` prefix. */
export function parseCashAddr(address: string): CashAddrResult {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return { ok: false, reason: 'mixes upper and lower case' };
  const colon = lower.indexOf(':');
  const given = colon < 0 ? undefined : lower.slice(0, colon);
  const payload = colon < 0 ? lower : lower.slice(colon + 1);
  if (given !== undefined && !(CASHADDR_PREFIXES as readonly string[]).includes(given)) {
    return { ok: false, reason: 'has a prefix other than bitcoincash: or bchtest:' };
  }
  if (!/^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/.test(payload)) return { ok: false, reason: 'is not a CashAddr' };
  const prefix = CASHADDR_PREFIXES.find((p) => (given === undefined || given === p) && cashAddrChecksumOk(p, payload));
  if (prefix === undefined) return { ok: false, reason: 'has a wrong CashAddr checksum' };
  const words = [...payload.slice(0, -8)].map((ch) => CASHADDR_CHARSET.indexOf(ch));
  const data = bech32.fromWordsUnsafe(words);
  if (!data || data.length < 1) return { ok: false, reason: 'has an invalid CashAddr payload' };
  const version = data[0] ?? 0;
  const hash = data.slice(1);
  if (version & 0x80) return { ok: false, reason: 'has the reserved CashAddr version bit set' };
  const type = version >> 3;
  if (type > 3) return { ok: false, reason: `has unknown CashAddr type ${type}` };
  if (hash.length !== CASHADDR_HASH_BYTES[version & 0x07]) return { ok: false, reason: 'has a hash length that does not match its version byte' };
  return { ok: true, value: { prefix, type, hash } };
}

export function encodeCashAddr(prefix: CashAddrPrefix, type: number, hash: Uint8Array): string {
  const sizeCode = CASHADDR_HASH_BYTES.indexOf(hash.length);
  if (sizeCode < 0 || type < 0 || type > 15) throw new RangeError('bad CashAddr type or hash length');
  const words = bech32.toWords(Uint8Array.from([(type << 3) | sizeCode, ...hash]));
  const mod = cashAddrPolymod([...prefixValues(prefix), 0, ...words, 0, 0, 0, 0, 0, 0, 0, 0]);
  const checksum = Array.from({ length: 8 }, (_, i) => Number((mod >> BigInt(5 * (7 - i))) & 31n));
  return `${prefix}:${[...words, ...checksum].map((v) => CASHADDR_CHARSET.charAt(v)).join('')}`;
}

function checkBitcoinCash(address: string): AddressCheck {
  // Unprefixed CashAddr starts with its type character (q, p, z, r); legacy starts with 1, 3, m, n, 2.
  if (address.includes(':') || /^[qpzrQPZR]/.test(address)) {
    const parsed = parseCashAddr(address);
    return parsed.ok ? OK : fail(parsed.reason);
  }
  return checkBase58Family(BITCOIN_CASH_LEGACY, address);
}

/**
 * The CashAddr, with its prefix, to put in a `bitcoincash:`/`bchtest:` URI for a valid Bitcoin
 * Cash address: a prefixed CashAddr unchanged, an unprefixed one with the prefix its checksum was
 * computed for, a legacy base58 address converted to CashAddr (same hash, same type; per the
 * CashAddr spec the URI scheme IS the address prefix, so `bitcoincash:1…` is not a CashAddr URI).
 */
export function bitcoinCashUriAddress(address: string): string {
  if (address.includes(':')) return address;
  const parsed = parseCashAddr(address);
  if (parsed.ok) return encodeCashAddr(parsed.value.prefix, parsed.value.type, parsed.value.hash);
  const payload = decodeBase58check(address);
  const version = payload?.[0];
  if (payload === undefined || payload.length !== 21 || version === undefined || !BITCOIN.versions.has(version)) {
    throw new RangeError('not a valid Bitcoin Cash address');
  }
  const prefix: CashAddrPrefix = version === 0x00 || version === 0x05 ? 'bitcoincash' : 'bchtest';
  const type = version === 0x05 || version === 0xc4 ? 1 : 0;
  return encodeCashAddr(prefix, type, payload.slice(1));
}

// ---------------------------------------------------------------------------------------------
// EVM (EIP-55 mixed-case checksum).

/** The EIP-55 checksummed form of a 0x-prefixed 40-hex-digit address. */
export function toEip55(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i += 1) {
    const ch = hex.charAt(i);
    out += parseInt(hash.charAt(i), 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

function checkEvm(address: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return fail('is not 0x followed by 40 hexadecimal digits');
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return OK; // no checksum to verify
  return toEip55(address) === address ? OK : fail('has a wrong EIP-55 checksum (mixed case does not match)');
}

// ---------------------------------------------------------------------------------------------
// Tron: base58check of 0x41 + 20 bytes ("T…").

function checkTron(address: string): AddressCheck {
  if (!BASE58_ALPHABET.test(address)) return fail('is not base58');
  const payload = decodeBase58check(address);
  if (payload === undefined) return fail('has a wrong base58check checksum');
  if (payload.length !== 21) return fail(`decodes to ${payload.length} bytes instead of 21`);
  if (payload[0] !== 0x41) return fail('does not have the Tron version byte 0x41');
  return OK;
}

// ---------------------------------------------------------------------------------------------
// Solana: base58 of a 32-byte public key (no checksum exists).

function checkSolana(address: string): AddressCheck {
  if (address.length < 32 || address.length > 44 || !BASE58_ALPHABET.test(address)) return fail('is not a base58 string of 32 to 44 characters');
  const bytes = base58.decode(address);
  if (bytes.length !== 32) return fail(`decodes to ${bytes.length} bytes instead of 32`);
  return OK;
}

// ---------------------------------------------------------------------------------------------
// TON: raw `workchain:hex` and user-friendly base64/base64url with CRC16-XMODEM.
// Format: docs.ton.org "Smart contract addresses" (flag byte, workchain byte, 32-byte hash, CRC16).

const TON_BOUNCEABLE = 0x11;
const TON_NON_BOUNCEABLE = 0x51;
const TON_TEST_ONLY = 0x80;

export function crc16Xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The 36 bytes of a user-friendly TON address, or undefined when it is not one (any checksum). */
function decodeTonFriendly(address: string): Uint8Array | undefined {
  try {
    if (/^[A-Za-z0-9_-]{48}$/.test(address)) return base64url.decode(address);
    if (/^[A-Za-z0-9+/]{48}$/.test(address)) return base64.decode(address);
  } catch {
    return undefined;
  }
  return undefined;
}

function checkTon(address: string): AddressCheck {
  if (address.includes(':')) {
    return /^(?:0|-1):[0-9a-fA-F]{64}$/.test(address) ? OK : fail('is not a raw TON address (0: or -1: and 64 hex digits)');
  }
  const bytes = decodeTonFriendly(address);
  if (bytes === undefined || bytes.length !== 36) return fail('is not a 48-character base64 TON address');
  const flag = (bytes[0] ?? 0) & ~TON_TEST_ONLY;
  if (flag !== TON_BOUNCEABLE && flag !== TON_NON_BOUNCEABLE) return fail('has an unknown TON address flag byte');
  const workchain = bytes[1];
  if (workchain !== 0x00 && workchain !== 0xff) return fail('is not on the basechain or masterchain');
  const crc = ((bytes[34] ?? 0) << 8) | (bytes[35] ?? 0);
  return crc16Xmodem(bytes.subarray(0, 34)) === crc ? OK : fail('has a wrong CRC16 checksum');
}

/**
 * A valid TON address as it goes in the path of a `ton://transfer/` link: a standard-base64
 * user-friendly address is re-encoded URL-safe (same 36 bytes, so the same address and flags;
 * `/` and `+` would otherwise break the path); url-safe and raw forms are unchanged.
 */
export function tonUriAddress(address: string): string {
  if (!/[+/]/.test(address)) return address;
  const bytes = decodeTonFriendly(address);
  if (bytes === undefined) throw new RangeError('not a valid TON address');
  return base64url.encode(bytes);
}

// ---------------------------------------------------------------------------------------------
// Monero: base58xmr of varint network tag + spend key + view key (+ payment id) + keccak checksum.
// Tags from monero's cryptonote_config.h (CRYPTONOTE_PUBLIC_[INTEGRATED_|SUB]ADDRESS_BASE58_PREFIX).

const MONERO_STANDARD_TAGS: ReadonlyMap<number, string> = new Map([
  [18, 'mainnet (4…)'],
  [42, 'mainnet subaddress (8…)'],
  [53, 'testnet (9…)'],
  [63, 'testnet subaddress (B…)'],
  [24, 'stagenet (5…)'],
  [36, 'stagenet subaddress (7…)'],
]);
const MONERO_INTEGRATED_TAGS: ReadonlyMap<number, string> = new Map([
  [19, 'mainnet integrated (4…)'],
  [54, 'testnet integrated (A…)'],
  [25, 'stagenet integrated (5…)'],
]);
const MONERO_STAGENET_TAG = 24;

function moneroChecksum(body: Uint8Array): Uint8Array {
  return keccak_256(body).subarray(0, 4);
}

function checkMonero(address: string): AddressCheck {
  if ((address.length !== 95 && address.length !== 106) || !BASE58_ALPHABET.test(address)) {
    return fail('is not a 95- or 106-character Monero base58 address');
  }
  let bytes: Uint8Array;
  try {
    bytes = base58xmr.decode(address);
  } catch {
    return fail('is not valid Monero base58');
  }
  if (base58xmr.encode(bytes) !== address) return fail('is not canonical Monero base58');
  const tag = bytes[0] ?? -1;
  const expectedLength = MONERO_STANDARD_TAGS.has(tag) ? 69 : MONERO_INTEGRATED_TAGS.has(tag) ? 77 : undefined;
  if (expectedLength === undefined) return fail('has an unknown Monero network tag');
  if (bytes.length !== expectedLength) return fail('has the wrong length for its Monero address type');
  const body = bytes.subarray(0, bytes.length - 4);
  const checksum = bytes.subarray(bytes.length - 4);
  return bytesToHex(moneroChecksum(body)) === bytesToHex(checksum) ? OK : fail('has a wrong Keccak checksum');
}

// ---------------------------------------------------------------------------------------------

const FORMAT_CHECKS: { readonly [format in AddressFormat]: (address: string) => AddressCheck } = {
  bitcoin: (a) => checkBitcoinLike(BITCOIN, a),
  litecoin: (a) => checkBitcoinLike(LITECOIN, a),
  dogecoin: (a) => checkBitcoinLike(DOGECOIN, a),
  dash: (a) => checkBitcoinLike(DASH, a),
  digibyte: (a) => checkBitcoinLike(DIGIBYTE, a),
  'bitcoin-cash': checkBitcoinCash,
  evm: checkEvm,
  tron: checkTron,
  solana: checkSolana,
  ton: checkTon,
  monero: checkMonero,
};

/** Strict syntax and checksum check of an address for a network (mainnet and testnet forms). */
export function validateAddress(networkId: NetworkId, address: string): { ok: true } | { ok: false; reason: string } {
  if (!Object.hasOwn(NETWORKS, networkId)) return fail('belongs to a network gw does not know');
  const safety = checkAddressSafety(address);
  if (!safety.ok) return safety;
  return FORMAT_CHECKS[NETWORKS[networkId].addressFormat](address);
}

// ---------------------------------------------------------------------------------------------
// Encoders: the inverse of the checks above, for addresses gw makes itself (the sandbox's).

export function encodeBase58Check(version: number, hash20: Uint8Array): string {
  return base58check.encode(Uint8Array.from([version, ...hash20]));
}

export function encodeTonFriendly(flag: number, workchain: number, hash: Uint8Array): string {
  const body = Uint8Array.from([flag, workchain & 0xff, ...hash]);
  const crc = crc16Xmodem(body);
  return base64url.encode(Uint8Array.from([...body, crc >> 8, crc & 0xff]));
}

export function encodeMoneroAddress(tag: number, spendKey: Uint8Array, viewKey: Uint8Array): string {
  const body = Uint8Array.from([tag, ...spendKey, ...viewKey]);
  return base58xmr.encode(Uint8Array.from([...body, ...moneroChecksum(body)]));
}

/** TON friendly-address flags and the Monero stagenet tag, for testnet-form addresses. */
export const TON_FLAGS = { bounceable: TON_BOUNCEABLE, nonBounceable: TON_NON_BOUNCEABLE, testOnly: TON_TEST_ONLY } as const;
export const MONERO_STAGENET_STANDARD_TAG = MONERO_STAGENET_TAG;
