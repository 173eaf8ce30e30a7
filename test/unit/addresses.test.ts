// Address validation against published vectors (EIP-55, BIP-173/BIP-350, CashAddr spec, DigiByte
// Core's key_io vectors, known mainnet addresses), hostile input, and the sandbox address derivation.

import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, base58xmr, base64, base64url, bech32, createBase58check } from '@scure/base';
import {
  bitcoinCashUriAddress,
  cashAddrChecksumOk,
  checkAddressSafety,
  crc16Xmodem,
  encodeCashAddr,
  parseCashAddr,
  toEip55,
  tonUriAddress,
  validateAddress,
} from '../../src/payment-uri/addresses.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { NETWORK_IDS, TOKENS, type NetworkId } from '../../src/payment-uri/networks.js';

const base58check = createBase58check(sha256);

const ok = (networkId: NetworkId, address: string): boolean => validateAddress(networkId, address).ok;

/** A base58check address with the given version byte over a fixed 20-byte hash. */
function legacy(version: number, fill = 7): string {
  return base58check.encode(Uint8Array.from([version, ...new Array<number>(20).fill(fill)]));
}

/** Changes one character of the string to another character of the same alphabet. */
function corrupt(address: string, index: number, alphabet: string): string {
  const ch = address.charAt(index);
  const replacement = alphabet.charAt((alphabet.indexOf(ch) + 1) % alphabet.length);
  return address.slice(0, index) + replacement + address.slice(index + 1);
}
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

describe('EVM addresses (EIP-55)', () => {
  // The test vectors listed in EIP-55 itself.
  const eip55Vectors = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(eip55Vectors)('accepts the EIP-55 vector %s', (address) => {
    expect(validateAddress('ethereum', address)).toEqual({ ok: true });
  });

  it.each(eip55Vectors.slice(4))('computes the EIP-55 checksum of %s from its lower-case form', (address) => {
    expect(toEip55(address.toLowerCase())).toBe(address);
  });

  it('refuses a mixed-case address with one letter case flipped', () => {
    const flipped = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'; // last d → D
    expect(validateAddress('ethereum', flipped)).toEqual({ ok: false, reason: expect.stringContaining('EIP-55') });
    expect(ok('ethereum', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });

  it('accepts all-lower and all-upper case (no checksum to verify)', () => {
    expect(ok('bsc', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(ok('polygon', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true);
  });

  it.each([
    ['too short', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['too long', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0'],
    ['no 0x', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00'],
    ['0X prefix', '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['non-hex', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg'],
  ])('refuses an address that is %s', (_label, address) => {
    expect(ok('ethereum', address)).toBe(false);
  });
});

describe('Bitcoin addresses', () => {
  // BIP-173 / BIP-350 valid segwit addresses.
  const validSegwit = [
    'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
    'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
    'BC1SW50QGDZ25J',
    'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
    'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
    'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
  ];
  it.each(validSegwit)('accepts the BIP-173/350 valid address %s', (address) => {
    expect(validateAddress('bitcoin', address)).toEqual({ ok: true });
  });

  // BIP-350 invalid addresses, with the reason the BIP gives.
  it.each([
    ['invalid human-readable part', 'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut'],
    ['bech32 instead of bech32m', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'],
    ['bech32 instead of bech32m (v2)', 'tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf'],
    ['bech32 instead of bech32m (v16)', 'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL'],
    ['bech32m instead of bech32 (v0)', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
    ['bech32m instead of bech32 (v0, testnet)', 'tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47'],
    ['invalid character in checksum', 'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4'],
    ['invalid witness version', 'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R'],
    ['invalid program length (1 byte)', 'bc1pw5dgrnzv'],
    ['invalid program length (41 bytes)', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav'],
    ['invalid program length for witness v0', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P'],
    ['mixed case', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq'],
    ['zero padding of more than 4 bits', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf'],
    ['non-zero padding in 8-to-5 conversion', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j'],
    ['empty data section', 'bc1gmk9yu'],
  ])('refuses a BIP-350 invalid address: %s', (_reason, address) => {
    expect(ok('bitcoin', address)).toBe(false);
  });

  it('accepts base58check P2PKH/P2SH on mainnet and testnet', () => {
    expect(ok('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true); // genesis block coinbase
    expect(ok('bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(true);
    for (const version of [0x00, 0x05, 0x6f, 0xc4]) expect(ok('bitcoin', legacy(version))).toBe(true);
    expect(legacy(0x6f)).toMatch(/^[mn]/);
    expect(legacy(0xc4)).toMatch(/^2/);
  });

  it('refuses a wrong checksum, a foreign version byte and another coin', () => {
    expect(ok('bitcoin', corrupt('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 33, BASE58))).toBe(false);
    expect(ok('bitcoin', legacy(0x30))).toBe(false); // Litecoin L…
    expect(ok('bitcoin', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9')).toBe(false);
    expect(ok('bitcoin', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });
});

describe('Litecoin, Dogecoin and Dash addresses', () => {
  const segwit = (hrp: string): string => bech32.encode(hrp, [0, ...bech32.toWords(new Uint8Array(20).fill(3))]);

  it('accepts Litecoin L/M/3, ltc1 and testnet m/n/Q/2, tltc1', () => {
    for (const version of [0x30, 0x32, 0x05, 0x6f, 0x3a, 0xc4]) expect(ok('litecoin', legacy(version))).toBe(true);
    expect(legacy(0x30)).toMatch(/^L/);
    expect(legacy(0x32)).toMatch(/^M/);
    expect(legacy(0x3a)).toMatch(/^Q/);
    expect(ok('litecoin', segwit('ltc'))).toBe(true);
    expect(ok('litecoin', segwit('tltc'))).toBe(true);
    expect(ok('litecoin', segwit('bc'))).toBe(false);
    expect(ok('litecoin', legacy(0x00))).toBe(false);
  });

  it('accepts Dogecoin D/A/9 and testnet n/2, and nothing segwit', () => {
    for (const version of [0x1e, 0x16, 0x71, 0xc4]) expect(ok('dogecoin', legacy(version))).toBe(true);
    expect(legacy(0x1e)).toMatch(/^D/);
    expect(legacy(0x16, 0)).toMatch(/^9/);
    expect(legacy(0x16, 255)).toMatch(/^A/);
    expect(legacy(0x71)).toMatch(/^n/);
    expect(ok('dogecoin', segwit('bc'))).toBe(false);
    expect(ok('dogecoin', legacy(0x00))).toBe(false);
  });

  it('accepts Dash X/7 and testnet y/8', () => {
    for (const version of [0x4c, 0x10, 0x8c, 0x13]) expect(ok('dash', legacy(version))).toBe(true);
    expect(legacy(0x4c)).toMatch(/^X/);
    expect(legacy(0x10)).toMatch(/^7/);
    expect(legacy(0x8c)).toMatch(/^y/);
    expect(legacy(0x13, 0)).toMatch(/^8/);
    expect(ok('dash', legacy(0x00))).toBe(false);
  });
});

describe('DigiByte addresses', () => {
  // DigiByte Core's own vectors: github.com/digibyte/digibyte (branch feature/8.22.0)
  // src/test/data/key_io_valid.json (public-key rows, main/test/signet) and
  // src/test/data/key_io_invalid.json (every row), added in commit 6d366241c.
  const valid: Array<[chain: string, address: string]> = [
    ['main', 'DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb'],
    ['main', 'SefNWSMmXAxc4N8sxHyg8hHXTTU9GojgzX'],
    ['main', 'DLcJt91uXayS59gHzqWDndxCf3FTFQQg9e'],
    ['main', 'SgoSBq4oN3PQVmRYEiDxNAaZZbyX1GJz4H'],
    ['main', 'DK9tEorcu8C8Z666gQc4jHhnUVSGpYEgYZ'],
    ['main', 'SY7oZueX3D5aDBoDDSiTvxMB8Tt1ngCpLa'],
    ['main', 'dgb1qhyz5jznu8rxjz6emktwwkz5m0m4gr9q9rvhegc'],
    ['main', 'dgb1qs6parp27xaccjznw4sruj9nrtuyl3wtraf58ml7nen522da2vxqql3zq6n'],
    ['main', 'dgb1pva0l3ng2q0gt2t3rqqpqxk5y57l4u0xyryxdslrt76k5u54rvpssjpmuhq'],
    ['main', 'dgb1zg9eqzn02yp'],
    ['main', 'dgb1qrgyfmq9pglmuu6jls8rv4r8n5qwe5kf0xzwjxa'],
    ['main', 'dgb1q6mtxsjp7ftpjqyaxhpz7eu7ar35608n20djpkl5ag75srq9pxslqlmmvkn'],
    ['main', 'dgb1pp9q7k3zg8qcgyk3flpngrspp56jgha4u9tpqkl0c7mldgkmg56cqkymwqf'],
    ['main', 'dgb1z876q950tem'],
    ['test', 'sxnDwNPKaPKZd5ZgJfVfom8cX4ZJkYr1zL'],
    ['test', 'yf4ztby3Z5cFgxjbTpnwzU2TNxn5oiorbW'],
    ['test', 'ssWFLqKGQUVxFFT24afLzeRqb5o9jxczwm'],
    ['test', 'yUn2MDBLqaBUJz28NvMdDy7txNkkQnjtrK'],
    ['test', 'szAFfvC6Zv1wkhz2botSbAD9N76XKjF2Z8'],
    ['test', 'yUG4JK2Z8bccu3E961s98jg2xoxMRWJHtq'],
    ['test', 'dgbt1qznyt7p9zln65ydpuzfq8ksuz4hkvcwdl9qtcty'],
    ['test', 'dgbt1qu2au468tx43wqwzkhgruhxzksgt2j785kekzsw0hymg7kyzgumtq02uk88'],
    ['test', 'dgbt1pykapk8r8wlwrl60zwz8rhfy5x3dc3k545utuea798ye2qk6vay9q3l9vt7'],
    ['test', 'dgbt1r3mj8zr2mx0qfnegalvxspmvj3v3srd47'],
    ['test', 'dgbt1q67cgvyr0pan5fg8ttu452f3whrppvp7rltkdfa'],
    ['signet', 't3RJSU3BGXUMgtUpbhjNX4w1BNsNJvnrG5'],
    ['signet', 'yY8GB7pMc18XSfewBPTp7UZEGgXqfMo3WT'],
    ['signet', 'dgbt1qxg8h2t6kct02fpd2k8j83d3lw90873pp2alg8z'],
  ];
  it.each(valid)('accepts the DigiByte Core %s vector %s', (_chain, address) => {
    expect(validateAddress('digibyte', address)).toEqual({ ok: true });
    expect(validateAddress('digibyte', address.toUpperCase()).ok).toBe(address.startsWith('dgb')); // bech32 may be all upper case
  });

  const invalid = [
    '',
    'x',
    'BuTpD3DhWkhqAbTwHsi1HoHMBnEt9FZjXvxoH7rZj69wk7TzaHe2UFNb9kXXn9BXpvsxX1uLe6e',
    'rwC3GPVK4945qFqKpUBgBsx5kcfUbBK45PvbSdwr7GibPenfTpQ69C3NwkCE5tSStcSwESJsEWK',
    'nYxto5SAr9Jg9jkNxY8ydPAAtou7qFSaG6gzhLvoWd3cXmMQAhX3z9rv9ps8iFhsM9ck7ShbQBt',
    'BXhDNzUAgn2BsLwcsosbhrEvWu7xSnxz2bcjL9JrQtoea2nAXGyAm',
    '56MLT7DyYXRDX2r5L81ii3cBJavX1xwojU7TxZPq21R9aWVckdm',
    'tc1qx0swud7273f46typschtse4guacfxv7slv2lzn',
    'dbt1p26sxm5fchngdq25akkqayhchtxycfmenejhh65e34qd5a5hq073qunpltt',
    'DGBT13YGUGUSAM9VR4VR8F08JCNVYK9JC4UPVVS5AV7TK6A5ZE7326PG8QEKZRQ5',
    'dgbrt1r2vz5eqx3',
    'dgb1099q62ngz0j7znrwpx2xe7694qkw5ejd0vp4gcfvg8mwpuahrznwrmjxlmkkm7a3qzqw6guce',
    'dgbt1dyelee',
    'dgbrt1qde05564xdgvxgxcsncn69ll0aq3vtk8vgrgq2f6y9u6sjyef7qcpn9qmhe',
    'dgb1wvzwq4',
    'dgbt1qrka9848gz38f76s943zec0kt53hhq63sxcvcmm8lxmx79j3x097sj8rrr9',
    'dgbrt1qxhsga52h5383es2ug8THED0j0k28r8vh4e53dw',
    'dgb1msjz9h',
    'DGBT1Q5JTCF3U0DWXJGQKM97HA0VV0T8TYCYJ0LE460L6H9XNXDSYYKRJQ6UVW0M',
    'dgbrt1qw7d4ycvmtc2q6sxds4hrk0hjl2p9en5g9cqly6',
    'dgb1p44dfrqf3v9gvu9dneuff0fcqnhwpy7clft9z6kmec20uctsar2wssl50qv',
    'dgbt1zhyn73w8ras4wrn52ejavvrdsxgded8gw',
    'dgbrt1s65aa9xkmtjskrxspnvt2zl3jwp73dmxrv2l90e',
    '2fqV3AG8xhoZrfzkkrVm2bwfCaM153jSXRR',
    '2NhjK4nqqHHVDwMBa8BXxmFxf4NPWYwQAVjRTQP8abX1hMTq5hp3yhyhoGc6P4Kfm1wh6er4ddG2',
    'niRaCRkBpH4wH6fkLa8ihVrZzrxcQhJ2BY6gTwxSs7FCFJ1eJ5xtLBZaqHSdLaoBPaRHJhKWkq7',
    'L4gTB4WAtVMUNJtfV4j7EAXnr78fquJudhwm8VqczBeZtSkLze3n',
    '7tX46qV2VV2ZXCdSnutKfvDgZZK3MuL45NoZgPrmW3T4GNxKXeXHgdbZiTAuNU58LRW1RzUahspTr',
    '4Duob4QkrvvZPEdzSq3ayoDxiL3UC3tMxRvrcedbh1inyqxCUh6Q2rgxDhYtZbH1njtQDvT4bwF29',
    '7tzCmvTsuRhdPMQVFdNzpuadsRzAic2ZDY7vUKE238JqgxAbXsdLE5rQEgzD8oBFU3FLBumFSV23K',
    'tc1qrxxgq0lmpqey6nzcgvuf8ylarjtm4v2hlesn2g',
    'dbt1pz2j7678fkc0qnmfn6024j4wllqsuzgzddrvgellzmu9ck7v2g58s3x8h08',
    'dgbt13zcljpcvgvcfcdnq82sg4yv9n0pwt99zum5rdrrhda65uwmsj24us650ff9',
    'dgbrt1rqqw8zctr',
    'dgbt1qjhfqjv0krcpssxcnzzkrchtq9g4ek03c',
    'dgbrt1qwyt2gn5r7lymvqe7ue83e9q3rku9pln4ck923m6l4np6pmg85yg3lx5rkw',
    'dgb1q64adegjwk720my5ppwccpygggsqr8d68v',
    'dgbt1qddl2536ekjgzlmzk9x36vdntp9lwqr3uraqd243cuaxtyujcnv4qtqpvcz',
    'dgbrt1q2gc5fejygxz8ND37mymh0rvdvqn7jkga3q8c68',
    'dgbt1qkp0f0e8za038h4p96nxpr7d5md30gkax7qzwznpjeyj8d6yzcjes4q586g',
    'dgbrt1qha74p52m6vscnm7nc0gv70uwv3yg749qde4emy',
    'dgb1ptpfqmr55jx2nc9h5emg84hqxmwune8gn04qg8t8ft3860ll59zrseq0q36',
    'DGBT1ZDF0D6M4ZZJ2QPMFPMTWL84HGDCRHN4WQ',
    'dgbrt1s58hhcrzwyqx73hfw7rtp0ws7cuk56lrqu53qkg',
    'PbqZ63SPSEVm664GwG3TnhqGTTdPpgoLS9b9oKasKx8fLzCJ3AvaLXPJQytntVzih5S6ZUGbQRn',
    'XXodePRAgBnqgq4JibSPeYSw84f28V1J5ohkJtXZQ12ufheQ15ns',
    '7uXAtffgcLYvQNG7NZg1i8oA8pm6iT2sGZGrdcHvEWVEd4p8Q6u8ykUfJ5giQghD6NbLnYPDHPkDz',
    'tc1q87mwrtzg66lf9duemsrkuaqxwj262mr6y87syd',
    'dbt1pwnacq6jkd68vc7m2w02q39rh98h2cxjr5uvfdg5jj9j6yzu40wzqgj4rhh',
    'DGBT13D37FN4M04G78L5CTLAEJJUM2MA5JW3JS3TT6PM4PP2TNMPJ7WFWQ7KP0US',
    'dgbrt1rac6t35s3',
    'dgb10t4efssru0fmfeyqnvqdvrd7n296y8q50elnnp8nhks6y9pwupea2n8xzwwujqlqt4g7q00yt',
    'dgbt1qv7eyettdmtwexcery8q8kc458ys2nkcg',
    'dgbrt1qydlhgsfu23wszgpdmw0zcxtvg3k4q9whnvzmz72076z7dxt8eetpjtj6e9',
    'dgb1qlaugnz34360w24na9nfdy2v8s5qsln6vg',
    'dgbt1qw2xv2msfun86vjwu9kalg6ek57h7dc2wzcru26scmmfdfdmcnw5sy977py',
    'dgbrt1qfa0eegl7wqmww4l80ha5WET0wxye7y3fregnxy',
    'dgb1q4yfp50zfadv46mcxjmp650q58dmy6n47y53v3f',
    'dgbt1qzemff4ep879kxjphsqc4sws92xw5fdajhzcy436zk0ek04qzcx6qh36dda',
    'DGBRT1QYAX7G65ZJHWTLRRHAN4ETG4TMC7VW5EACXVEG4',
    'dgb1ptntsze62cz75757sz3z7k620xn4gj4k5upzkqgkwlw6jwdw2a8tqu7tm9r',
    'dgbt1zkygxhnqzrvhzpua7jhaazfjzlgl3dfe8',
    'dgbrt1svdqjum35jgtqxxfnktr39j7rtk5pdlk8g23jkw',
    'SQzMBQJg5NkGASJr8TomStmVmTUy8uUjt6s',
    'yUg9YhoD5JbJumLyU7TDr5PipUb4Vr3XZ3s',
    '2WNEhMWCDn4rAcAaXFbyDLNB2wVaZaj4bwXahVbjMVtRuTGCCYPxhGPrJsasoNAxRXzSKGsmRish',
    'rtYieQyuPGvmcApn8DMcxB3GkBce53uDzKHoJJkeEozucpTQzDJikDFxV37bfKQaJ7ekAzjqq3W',
    '3HKSVVBUvJhetEwuq5UtJvPNAHg48ZGXgM',
  ];
  it.each(invalid.map((address) => [address]))('refuses the DigiByte Core invalid vector %j', (address) => {
    expect(ok('digibyte', address)).toBe(false);
  });

  it("refuses the old P2SH byte 5 (3…): DigiByte Core lists it as invalid and it is Bitcoin's P2SH", () => {
    expect(invalid).toContain('3HKSVVBUvJhetEwuq5UtJvPNAHg48ZGXgM');
    expect(base58check.decode('3HKSVVBUvJhetEwuq5UtJvPNAHg48ZGXgM')[0]).toBe(0x05); // checksum fine, byte refused
    expect(ok('digibyte', legacy(0x05))).toBe(false);
    expect(validateAddress('digibyte', legacy(0x05))).toEqual({ ok: false, reason: expect.stringContaining('version byte 0x05') });
  });

  it('accepts the chainparams version bytes: D (0x1e), S (0x3f), testnet s/t (0x7e), y (0x8c)', () => {
    for (const version of [0x1e, 0x3f, 0x7e, 0x8c]) expect(ok('digibyte', legacy(version))).toBe(true);
    expect(legacy(0x1e)).toMatch(/^D/);
    expect(legacy(0x3f)).toMatch(/^S/);
    expect(legacy(0x7e)).toMatch(/^[st]/);
    expect(legacy(0x8c)).toMatch(/^y/);
  });

  it('refuses a changed character (bad checksum) in every form', () => {
    expect(ok('digibyte', corrupt('DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb', 20, BASE58))).toBe(false);
    expect(ok('digibyte', corrupt('SefNWSMmXAxc4N8sxHyg8hHXTTU9GojgzX', 33, BASE58))).toBe(false);
    expect(ok('digibyte', corrupt('sxnDwNPKaPKZd5ZgJfVfom8cX4ZJkYr1zL', 5, BASE58))).toBe(false);
    const bech = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    expect(ok('digibyte', corrupt('dgb1qhyz5jznu8rxjz6emktwwkz5m0m4gr9q9rvhegc', 20, bech))).toBe(false);
    expect(ok('digibyte', corrupt('dgbt1qznyt7p9zln65ydpuzfq8ksuz4hkvcwdl9qtcty', 30, bech))).toBe(false);
  });

  it('refuses other coins and DigiByte regtest', () => {
    expect(ok('digibyte', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(false);
    expect(ok('digibyte', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(false);
    expect(ok('digibyte', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9')).toBe(false);
    expect(ok('digibyte', legacy(0x30))).toBe(false); // Litecoin L…
    expect(ok('digibyte', legacy(0x4c))).toBe(false); // Dash X…
    expect(ok('digibyte', 'dgbrt1qgmzq7xt3pkclw9d6emultxnhj4lumdldzeyypq')).toBe(false);
    // DigiByte mainnet addresses are no Bitcoin addresses either.
    expect(ok('bitcoin', 'DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb')).toBe(false);
    expect(ok('bitcoin', 'dgb1qhyz5jznu8rxjz6emktwwkz5m0m4gr9q9rvhegc')).toBe(false);
  });

  it('cannot tell a Dogecoin D… address from a DigiByte one: both chains use P2PKH byte 0x1e', () => {
    expect(ok('dogecoin', 'DSC6tGC2NvN6AHio2p8pU4seTbPKDi7KZb')).toBe(true);
    expect(ok('digibyte', legacy(0x1e))).toBe(ok('dogecoin', legacy(0x1e)));
  });
});

describe('Bitcoin Cash addresses (CashAddr)', () => {
  // Checksum vectors from the CashAddr spec (arbitrary payloads, valid checksums).
  it.each([
    'prefix:x64nx6hz',
    'p:gpf8m4h7',
    'bitcoincash:qpzry9x8gf2tvdw0s3jn54khce6mua7lcw20ayyn',
    'bchtest:testnetaddress4d6njnut',
    'bchreg:555555555555555555555555555555555555555555555udxmlmrz',
  ])('the polymod accepts the spec checksum vector %s', (vector) => {
    const [prefix = '', payload = ''] = vector.split(':');
    expect(cashAddrChecksumOk(prefix, payload)).toBe(true);
    expect(cashAddrChecksumOk(prefix, corrupt(payload, 0, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'))).toBe(false);
  });

  // Legacy ↔ CashAddr pairs from the CashAddr spec.
  const pairs = [
    ['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
    ['1KXrWXciRDZUpQwQmuM1DbwsKDLYAYsVLR', 'bitcoincash:qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy'],
    ['16w1D5WRVKJuZUsSRzdLp9w3YGcgoxDXb', 'bitcoincash:qqq3728yw0y47sqn6l2na30mcw6zm78dzqre909m2r'],
    ['3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC', 'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq'],
    ['3LDsS579y7sruadqu11beEJoTjdFiFCdX4', 'bitcoincash:pr95sy3j9xwd2ap32xkykttr4cvcu7as4yc93ky28e'],
    ['31nwvkZwyPdgzjBJZXfDmSWsC4ZLKpYyUw', 'bitcoincash:pqq3728yw0y47sqn6l2na30mcw6zm78dzq5ucqzc37'],
  ] as const;

  it.each(pairs)('accepts %s and %s, and converts the legacy one to the CashAddr', (legacyAddress, cashAddr) => {
    expect(ok('bitcoin-cash', legacyAddress)).toBe(true);
    expect(ok('bitcoin-cash', cashAddr)).toBe(true);
    expect(ok('bitcoin-cash', cashAddr.slice('bitcoincash:'.length))).toBe(true);
    expect(ok('bitcoin-cash', cashAddr.toUpperCase())).toBe(true);
    expect(bitcoinCashUriAddress(legacyAddress)).toBe(cashAddr);
    expect(bitcoinCashUriAddress(cashAddr.slice('bitcoincash:'.length))).toBe(cashAddr);
  });

  it('reads type and hash, and encodes them back', () => {
    const parsed = parseCashAddr('bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.prefix).toBe('bitcoincash');
    expect(parsed.value.type).toBe(1);
    expect(encodeCashAddr('bitcoincash', 1, parsed.value.hash)).toBe('bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq');
  });

  it('accepts bchtest: addresses and testnet legacy, and refuses broken ones', () => {
    const testnet = encodeCashAddr('bchtest', 0, new Uint8Array(20).fill(9));
    expect(ok('bitcoin-cash', testnet)).toBe(true);
    expect(ok('bitcoin-cash', testnet.slice('bchtest:'.length))).toBe(true);
    expect(bitcoinCashUriAddress(testnet.slice('bchtest:'.length))).toBe(testnet);
    expect(ok('bitcoin-cash', legacy(0x6f))).toBe(true);
    expect(bitcoinCashUriAddress(legacy(0x6f))).toMatch(/^bchtest:q/);
    // The checksum covers the prefix: a mainnet payload under bchtest: is wrong.
    expect(ok('bitcoin-cash', 'bchtest:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toBe(false);
    expect(ok('bitcoin-cash', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b')).toBe(false);
    expect(ok('bitcoin-cash', 'bitcoincash:QPM2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toBe(false); // mixed case
    expect(ok('bitcoin-cash', 'bitcoin:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toBe(false);
    expect(ok('bitcoin-cash', 'bitcoincash:bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toBe(false);
  });
});

describe('Tron addresses', () => {
  it('accepts the USDT TRC-20 contract address', () => {
    expect(validateAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toEqual({ ok: true });
  });

  it('refuses a changed character, a Bitcoin address, and hex form', () => {
    expect(ok('tron', corrupt('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 10, BASE58))).toBe(false);
    expect(ok('tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(false);
    expect(ok('tron', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(false);
  });
});

describe('TON addresses', () => {
  // TON Foundation's well-known address, user-friendly bounceable and raw forms; and the USDT jetton master.
  const friendly = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
  const raw = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';

  it('accepts known user-friendly and raw addresses, which are the same account', () => {
    expect(validateAddress('ton', friendly)).toEqual({ ok: true });
    expect(validateAddress('ton', raw)).toEqual({ ok: true });
    expect(validateAddress('ton', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs')).toEqual({ ok: true });
    const bytes = base64url.decode(friendly);
    expect(Buffer.from(bytes.subarray(2, 34)).toString('hex')).toBe(raw.slice(2));
  });

  function withFlag(address: string, flag: number): string {
    const bytes = base64url.decode(address);
    bytes[0] = flag;
    const crc = crc16Xmodem(bytes.subarray(0, 34));
    bytes[34] = crc >> 8;
    bytes[35] = crc & 0xff;
    return base64url.encode(bytes);
  }

  it('accepts bounceable, non-bounceable and testnet flags; refuses others', () => {
    expect(withFlag(friendly, 0x51)).toBe('UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI');
    for (const flag of [0x11, 0x51, 0x91, 0xd1]) expect(ok('ton', withFlag(friendly, flag))).toBe(true);
    expect(withFlag(friendly, 0xd1)).toMatch(/^0Q/);
    expect(withFlag(friendly, 0x91)).toMatch(/^kQ/);
    expect(ok('ton', withFlag(friendly, 0x12))).toBe(false);
  });

  it('accepts standard base64 and url-safe forms but not a mix, and refuses a bad CRC', () => {
    const standard = base64.encode(base64url.decode('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs'));
    expect(standard).toContain('/');
    expect(ok('ton', standard)).toBe(true);
    expect(tonUriAddress(standard)).toBe('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs');
    expect(ok('ton', 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_s+s')).toBe(false);
    expect(ok('ton', 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2O')).toBe(false);
    expect(ok('ton', '1:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8')).toBe(false);
    expect(ok('ton', '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a')).toBe(false);
  });
});

describe('Solana addresses', () => {
  it('accepts the USDT and USDC mints and the system program', () => {
    expect(ok('solana', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')).toBe(true);
    expect(ok('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(true);
    expect(ok('solana', '11111111111111111111111111111111')).toBe(true);
  });

  it('refuses what is not 32 bytes of base58', () => {
    expect(ok('solana', base58.encode(new Uint8Array(31).fill(200)))).toBe(false);
    expect(ok('solana', base58.encode(new Uint8Array(33).fill(200)))).toBe(false);
    expect(ok('solana', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNY0')).toBe(false); // 0 is not base58
    expect(ok('solana', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });
});

describe('Monero addresses', () => {
  // The Monero General Fund donation address (getmonero.org).
  const generalFund = '44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A';

  function moneroAddress(tag: number, extra = 0): string {
    const body = Uint8Array.from([tag, ...new Array<number>(64 + extra).fill(5)]);
    return base58xmr.encode(Uint8Array.from([...body, ...keccak_256(body).subarray(0, 4)]));
  }

  it('accepts a known mainnet address and refuses it with one character changed', () => {
    expect(validateAddress('monero', generalFund)).toEqual({ ok: true });
    expect(ok('monero', corrupt(generalFund, 50, BASE58))).toBe(false);
  });

  it('accepts mainnet, subaddress, stagenet, testnet and integrated forms', () => {
    const cases: Array<[number, number, RegExp]> = [
      [18, 0, /^4/],
      [42, 0, /^8/],
      [24, 0, /^5/],
      [36, 0, /^7/],
      [53, 0, /^9/],
      [63, 0, /^B/],
      [19, 8, /^4/],
      [25, 8, /^5/],
      [54, 8, /^A/],
    ];
    for (const [tag, extra, prefix] of cases) {
      const address = moneroAddress(tag, extra);
      expect(address).toMatch(prefix);
      expect(address).toHaveLength(extra ? 106 : 95);
      expect(ok('monero', address)).toBe(true);
    }
  });

  it('refuses an unknown tag and an integrated tag without a payment id', () => {
    expect(ok('monero', moneroAddress(17))).toBe(false);
    expect(ok('monero', moneroAddress(19))).toBe(false);
  });
});

describe('hostile addresses', () => {
  const good: { readonly [id in NetworkId]?: string } = {
    ethereum: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    bitcoin: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    digibyte: 'dgb1qhyz5jznu8rxjz6emktwwkz5m0m4gr9q9rvhegc',
    'bitcoin-cash': 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
    ton: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N',
  };
  const attacks = [
    (a: string) => `\u001b[31m${a}`,
    (a: string) => `${a}\u001b[0m`,
    (a: string) => `${a}?amount=0.0001`,
    (a: string) => `${a}&amount=1`,
    (a: string) => `${a}#x`,
    (a: string) => `${a}%3Famount%3D1`,
    (a: string) => ` ${a}`,
    (a: string) => `${a}\n`,
    (a: string) => `${a}\u200e`,
    (a: string) => `${a.slice(0, 5)}\u0000${a.slice(5)}`,
    (a: string) => `${a}/transfer`,
    (a: string) => `${a}=`,
    (a: string) => `${a}\u0430`, // Cyrillic a
  ];

  for (const [networkId, address] of Object.entries(good) as Array<[NetworkId, string]>) {
    it(`refuses injected characters around a valid ${networkId} address`, () => {
      expect(ok(networkId, address)).toBe(true);
      for (const attack of attacks) {
        const result = validateAddress(networkId, attack(address));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.reason).not.toContain(address); // reasons never quote the address
      }
    });
  }

  it('the generic safety check refuses the same and accepts plain address characters', () => {
    expect(checkAddressSafety('rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH').ok).toBe(true);
    expect(checkAddressSafety('').ok).toBe(false);
    expect(checkAddressSafety('a'.repeat(129)).ok).toBe(false);
    expect(checkAddressSafety('abc?amount=1').ok).toBe(false);
    expect(checkAddressSafety('abc\u001b[31m').ok).toBe(false);
    expect(checkAddressSafety('abc def').ok).toBe(false);
  });

  it('refuses an unknown network id at run time', () => {
    expect(validateAddress('dogechain' as NetworkId, 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L').ok).toBe(false);
  });
});

describe('token constants', () => {
  it.each(TOKENS.map((token) => [token.symbol, token.networkId, token.contract] as const))(
    '%s on %s: %s passes the network address check',
    (_symbol, networkId, contract) => {
      expect(validateAddress(networkId, contract)).toEqual({ ok: true });
    },
  );

  it('EVM token contracts are written in their EIP-55 checksummed form', () => {
    for (const token of TOKENS.filter((t) => t.contract.startsWith('0x'))) expect(token.contract).toBe(toEip55(token.contract));
  });
});

describe('deriveSandboxAddress', () => {
  const forms: { readonly [id in NetworkId]: RegExp } = {
    bitcoin: /^tb1q[02-9ac-hj-np-z]{38}$/,
    litecoin: /^tltc1q[02-9ac-hj-np-z]{38}$/,
    dogecoin: /^n[1-9A-HJ-NP-Za-km-z]{33}$/,
    'bitcoin-cash': /^bchtest:q[02-9ac-hj-np-z]{41}$/,
    dash: /^y[1-9A-HJ-NP-Za-km-z]{33}$/,
    digibyte: /^dgbt1q[02-9ac-hj-np-z]{38}$/,
    ethereum: /^0x[0-9a-fA-F]{40}$/,
    bsc: /^0x[0-9a-fA-F]{40}$/,
    polygon: /^0x[0-9a-fA-F]{40}$/,
    base: /^0x[0-9a-fA-F]{40}$/,
    arbitrum: /^0x[0-9a-fA-F]{40}$/,
    tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    ton: /^0Q[A-Za-z0-9_-]{46}$/,
    monero: /^5[1-9A-HJ-NP-Za-km-z]{94}$/,
  };

  it.each(NETWORK_IDS.map((id) => [id]))('derives a valid testnet-form %s address', (networkId) => {
    for (const seed of ['a', 'trk_123', 'pay-ÿ-seed', '']) {
      const address = deriveSandboxAddress(networkId, seed);
      expect(address).toMatch(forms[networkId]);
      expect(validateAddress(networkId, address)).toEqual({ ok: true });
      expect(deriveSandboxAddress(networkId, seed)).toBe(address);
    }
  });

  it('gives different addresses for different seeds', () => {
    for (const networkId of NETWORK_IDS) {
      const addresses = new Set(['1', '2', '3', 'trk_1', 'trk_2'].map((seed) => deriveSandboxAddress(networkId, seed)));
      expect(addresses.size).toBe(5);
    }
  });

  it('EVM sandbox addresses are EIP-55 mixed case', () => {
    const address = deriveSandboxAddress('ethereum', 'seed');
    expect(address).toBe(toEip55(address));
    expect(address.slice(2)).not.toBe(address.slice(2).toLowerCase());
  });
});
