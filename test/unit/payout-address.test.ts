// Test-network address forms (src/cmdutil/payout-address.ts): gw payout and gw refund take them only
// with --sandbox. Each vector is a valid address of its network (checked), main or test form.
import { describe, expect, it } from 'vitest';
import { isTestNetworkAddress } from '../../src/cmdutil/payout-address.js';
import { encodeBase58Check, encodeMoneroAddress, encodeTonFriendly, TON_FLAGS, validateAddress } from '../../src/payment-uri/addresses.js';
import type { NetworkId } from '../../src/payment-uri/networks.js';

const hash20 = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const key32 = Uint8Array.from({ length: 32 }, (_, i) => 2 * i + 1);

const VECTORS: Array<[NetworkId, string, boolean]> = [
  ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', false],
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', false],
  ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', false],
  ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', true],
  ['bitcoin', encodeBase58Check(0x6f, hash20), true],
  ['bitcoin', encodeBase58Check(0xc4, hash20), true],
  ['litecoin', encodeBase58Check(0x30, hash20), false],
  ['litecoin', 'tltc1qxwqa76g4fg0vr4wmvn0j3xjjg67369nulm9uq0', true],
  ['dogecoin', encodeBase58Check(0x1e, hash20), false],
  ['dogecoin', encodeBase58Check(0x71, hash20), true],
  ['dash', encodeBase58Check(0x4c, hash20), false],
  ['dash', encodeBase58Check(0x8c, hash20), true],
  ['bitcoin-cash', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', false],
  ['bitcoin-cash', 'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', false],
  ['bitcoin-cash', 'bchtest:qzgxhnskuy9ty55mx5mpvyrvms7nd4mnnyugeukdgm', true],
  ['bitcoin-cash', encodeBase58Check(0x6f, hash20), true],
  ['ton', encodeTonFriendly(TON_FLAGS.bounceable, 0, key32), false],
  ['ton', encodeTonFriendly(TON_FLAGS.nonBounceable, 0, key32), false],
  ['ton', encodeTonFriendly(TON_FLAGS.nonBounceable | TON_FLAGS.testOnly, 0, key32), true],
  ['ton', `0:${'ab'.repeat(32)}`, false],
  ['monero', encodeMoneroAddress(18, key32, key32), false],
  ['monero', encodeMoneroAddress(24, key32, key32), true],
  ['monero', encodeMoneroAddress(53, key32, key32), true],
  ['tron', 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe', false],
  ['ethereum', '0x52908400098527886E0F7030069857D2E4169EE7', false],
];

describe('test-network address forms', () => {
  it.each(VECTORS)('%s %s: test form %s', (network, address, test) => {
    expect(validateAddress(network, address)).toEqual({ ok: true });
    expect(isTestNetworkAddress(network, address)).toBe(test);
  });
});
