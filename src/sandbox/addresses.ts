// The sandbox's deposit addresses: made-up, in the network's testnet form (src/payment-uri/test-addresses.ts).
import type { NetworkId } from '../payment-uri/networks.js';
import { testNetworkAddress } from '../payment-uri/test-addresses.js';

/** A deterministic address for the embedded sandbox's payment `seed` (a track id). */
export function deriveSandboxAddress(networkId: NetworkId, seed: string): string {
  return testNetworkAddress('sandbox-address', networkId, seed);
}
