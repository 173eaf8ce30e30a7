// Test-network address forms. gw's address checks accept a network's test forms as well as its
// main ones (tb1…, m…/n…/2…, bchtest:…, a TON address with the test-only flag, Monero stagenet and
// testnet), because the sandbox hands them out (docs/sandbox.md). A payout is different: the real
// gateway pays on the main network, where a test-form address is refused at best and, for TON
// (whose test-only flag is advice to wallets, not a different account), paid to that account on the
// main network. So `gw payout` and `gw refund` take test forms only with --sandbox.
import { sha256 } from '@noble/hashes/sha2.js';
import { base58xmr, base64, base64url, createBase58check } from '@scure/base';
import { parseCashAddr } from '../payment-uri/addresses.js';
import { type AddressFormat, NETWORKS, type NetworkId } from '../payment-uri/networks.js';

const base58check = createBase58check(sha256);

/** Base58check version bytes of the test networks, from each coin's chainparams.cpp (the same tables as src/payment-uri/addresses.ts). */
const TEST_VERSIONS: Partial<Record<AddressFormat, ReadonlySet<number>>> = {
  bitcoin: new Set([0x6f, 0xc4]),
  'bitcoin-cash': new Set([0x6f, 0xc4]),
  litecoin: new Set([0x6f, 0x3a, 0xc4]),
  dogecoin: new Set([0x71, 0xc4]),
  dash: new Set([0x8c, 0x13]),
  digibyte: new Set([0x7e, 0x8c]),
};
/** Segwit human-readable parts of the test networks (testnet, signet, regtest). */
const TEST_HRPS: ReadonlySet<string> = new Set(['tb', 'bcrt', 'tltc', 'rltc', 'dgbt', 'dgbrt']);
/** Monero network tags that are not the main network: testnet 53/54/63, stagenet 24/25/36. */
const MONERO_TEST_TAGS: ReadonlySet<number> = new Set([53, 54, 63, 24, 25, 36]);
/** The TON user-friendly flag byte's test-only bit. */
const TON_TEST_ONLY = 0x80;

function decodes<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

/** Whether a VALID address of `networkId` is in a test network's form. */
export function isTestNetworkAddress(networkId: NetworkId, address: string): boolean {
  const format = NETWORKS[networkId].addressFormat;
  switch (format) {
    case 'bitcoin':
    case 'litecoin':
    case 'dogecoin':
    case 'dash':
    case 'digibyte':
    case 'bitcoin-cash': {
      if (format === 'bitcoin-cash' && (address.includes(':') || /^[qpzr]/i.test(address))) {
        const parsed = parseCashAddr(address);
        return parsed.ok && parsed.value.prefix !== 'bitcoincash';
      }
      // A valid address is base58check or segwit (whose data part has no "1": its prefix ends at the last one).
      const payload = decodes(() => base58check.decode(address));
      if (payload !== undefined) return TEST_VERSIONS[format]?.has(payload[0] ?? -1) ?? false;
      const separator = address.lastIndexOf('1');
      return separator > 0 && TEST_HRPS.has(address.slice(0, separator).toLowerCase());
    }
    case 'ton': {
      if (address.includes(':')) return false;
      const bytes = decodes(() => base64url.decode(address)) ?? decodes(() => base64.decode(address));
      return bytes !== undefined && ((bytes[0] ?? 0) & TON_TEST_ONLY) !== 0;
    }
    case 'monero': {
      const bytes = decodes(() => base58xmr.decode(address));
      return bytes !== undefined && MONERO_TEST_TAGS.has(bytes[0] ?? -1);
    }
    default:
      return false;
  }
}
