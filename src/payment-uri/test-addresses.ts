// Made-up addresses for tests and the sandbox: deterministic, valid for their network with passing
// checksums, and in the network's TESTNET form where it has one, so they can never be paid on mainnet.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, bech32 } from '@scure/base';
import { encodeBase58Check, encodeCashAddr, encodeMoneroAddress, encodeTonFriendly, MONERO_STAGENET_STANDARD_TAG, TON_FLAGS, toEip55 } from './addresses.js';
import { NETWORKS, type NetworkId } from './networks.js';

function keyMaterial(purpose: string, networkId: NetworkId, seed: string): Uint8Array {
  return sha256(utf8ToBytes(`gw-${purpose}\u0000${networkId}\u0000${seed}`));
}

/**
 * A deterministic made-up address (the sandbox's deposit addresses: purpose `sandbox-address`; the
 * payer's address in a test notification: `notification-sender`), in the network's TESTNET form
 * where it has one, so it can never be mistaken for (or paid on) mainnet: BTC `tb1q…`, LTC `tltc1q…`, DOGE `n…`,
 * BCH `bchtest:q…`, DASH `y…`, DGB `dgbt1q…`, TON testnet non-bounceable `0Q…`, XMR stagenet `5…`. Tron, EVM
 * chains and Solana have no testnet address form: Tron `T…`, EIP-55 `0x…`, Solana base58.
 * The key material is sha256 of the purpose, the network and the seed; it is no one's key.
 */
export function testNetworkAddress(purpose: string, networkId: NetworkId, seed: string): string {
  const material = keyMaterial(purpose, networkId, seed);
  const hash20 = material.subarray(0, 20);
  switch (NETWORKS[networkId].addressFormat) {
    case 'bitcoin':
      return bech32.encode('tb', [0, ...bech32.toWords(hash20)]);
    case 'litecoin':
      return bech32.encode('tltc', [0, ...bech32.toWords(hash20)]);
    case 'dogecoin':
      return encodeBase58Check(0x71, hash20);
    case 'bitcoin-cash':
      return encodeCashAddr('bchtest', 0, hash20);
    case 'dash':
      return encodeBase58Check(0x8c, hash20);
    case 'digibyte':
      return bech32.encode('dgbt', [0, ...bech32.toWords(hash20)]);
    case 'evm':
      return toEip55(`0x${bytesToHex(hash20)}`);
    case 'tron':
      return encodeBase58Check(0x41, hash20);
    case 'solana':
      return base58.encode(material);
    case 'ton':
      return encodeTonFriendly(TON_FLAGS.nonBounceable | TON_FLAGS.testOnly, 0, material);
    case 'monero':
      return encodeMoneroAddress(MONERO_STAGENET_STANDARD_TAG, material, sha256(material));
  }
}
