// What the payer's wallet gets: for every network the sandbox offers, the built gw creates a
// payment, and the URI it prints is checked digit for digit, the terminal QR is painted as a
// light-themed and a dark-themed screen and decoded (ZXing's reader, no inversion), and the PNG
// written by --qr-out decodes to the same URI.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runGw as gw } from '../support/cli.js';
import { tempDir } from '../support/gw.js';
import { decodePng, decodeTerminalQr } from '../support/qr-decode.js';
import { FULL_PRECISION_AMOUNTS as AMOUNTS, sandboxEnv, withSandbox } from '../support/sandbox.js';

const require = createRequire(import.meta.url);
const bip21 = require('bip21') as { decode(uri: string, scheme?: string): { address: string; options: Record<string, unknown> } };

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await withSandbox();
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

/** What the URI must be, given the payment's address and the amount sent. */
function expectedUri(payCurrency: string, network: string, address: string, amount: string): RegExp | string {
  const digits = amount.replace('.', '').replace(/^0+/, '');
  switch (`${payCurrency} ${network}`) {
    case 'BTC Bitcoin Network':
      return `bitcoin:${address}?amount=${amount}`;
    case 'LTC Litecoin Network':
      return `litecoin:${address}?amount=${amount}`;
    case 'DOGE Dogecoin Network':
      return `dogecoin:${address}?amount=${amount}`;
    case 'DASH Dash Network':
      return `dash:${address}?amount=${amount}`;
    case 'BCH Bitcoin Cash Network':
      return `${address}?amount=${amount}`; // the CashAddr prefix is the scheme, never doubled
    case 'ETH Ethereum Network':
      return `ethereum:${address}@1?value=${digits}`;
    case 'BNB Binance Smart Chain':
      return `ethereum:${address}@56?value=${digits}`;
    case 'POL Polygon Network':
      return `ethereum:${address}@137?value=${digits}`;
    case 'USDT Ethereum Network':
      return `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${address}&uint256=${digits}`;
    case 'USDC Ethereum Network':
      return `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${address}&uint256=${digits}`;
    case 'USDT Binance Smart Chain':
      // BEP-20 USDT has 18 decimals: 12.345678 → 12345678 followed by 12 zeros.
      return `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${address}&uint256=${digits}000000000000`;
    case 'SOL Solana Network':
      return `solana:${address}?amount=${amount}`;
    case 'TON TON Network':
      return new RegExp(`^ton://transfer/[A-Za-z0-9_-]{48}\\?amount=${digits}$`);
    case 'XMR Monero Network':
      return `monero:${address}?tx_amount=${amount}`;
    case 'USDT Tron Network':
    case 'TRX Tron Network':
      return address;
    default:
      throw new Error(`no expectation for ${payCurrency} on ${network}`);
  }
}

describe.each(SANDBOX_OFFERINGS.map((o) => [o.payCurrency, o.network] as const))('gw pay in %s on %s', (payCurrency, network) => {
  const amount = AMOUNTS[payCurrency] ?? '1';

  it('prints the exact URI, and the QR on a light and a dark screen decodes to it', async () => {
    const dir = tempDir();
    const png = path.join(dir, 'qr.png');
    const r = await gw(['pay', amount, payCurrency, '--network', network, '--qr', '--qr-out', png], { env: { ...env, FORCE_COLOR: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    const plain = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    const address = /^Address\s+(\S+)$/m.exec(plain)?.[1] ?? '';
    const uri = /^URI\s+(\S+)$/m.exec(plain)?.[1] ?? '';
    expect(plain).toMatch(new RegExp(`^Pay exactly\\s+${amount.replace('.', '\\.')} ${payCurrency}$`, 'm'));
    const expected = expectedUri(payCurrency, network, address, amount);
    if (typeof expected === 'string') expect(uri).toBe(expected);
    else expect(uri).toMatch(expected);

    expect(decodeTerminalQr(r.stdout, 'light')).toBe(uri);
    expect(decodeTerminalQr(r.stdout, 'dark')).toBe(uri);
    expect(decodePng(readFileSync(png))).toBe(uri);

    const qrLines = plain.split('\n').filter((l) => /^[█▀▄ ]{20,}$/.test(l));
    expect(qrLines.length).toBeGreaterThan(10);
    for (const line of qrLines) expect([...line].length).toBeLessThanOrEqual(80);

    if (uri === address) expect(plain).toMatch(/The QR code holds only the address\. The payer must enter the amount: \S+ \w+/);
  });
});

describe('reference decoders', () => {
  it('BIP-21: the bip21 package reads the address and amount gw printed', async () => {
    const r = await gw(['pay', '0.00038127', 'BTC', '--json'], { env });
    const doc = JSON.parse(r.stdout) as { uri: string; address: string; payAmount: string };
    const decoded = bip21.decode(doc.uri, 'bitcoin');
    expect(decoded.address).toBe(doc.address);
    expect(String(decoded.options.amount)).toBe('0.00038127');
  });

  it('EIP-681: value and uint256 are integers in base units, never exponents', async () => {
    const r = await gw(['pay', '25', 'USDT', '--network', 'Binance Smart Chain', '--json'], { env });
    const doc = JSON.parse(r.stdout) as { uri: string };
    expect(doc.uri).toMatch(/&uint256=25000000000000000000$/);
    const eth = JSON.parse((await gw(['pay', '1000000.000000000000000001', 'ETH', '--json'], { env })).stdout) as { uri: string };
    expect(eth.uri).toMatch(/\?value=1000000000000000000000001$/);
  });

  it('refuses an amount with more decimals than the asset has (19 on ETH) before creating anything: exit 64', async () => {
    const r = await gw(['pay', '0.1234567890123456789', 'ETH', '--qr'], { env });
    expect(r.exitCode).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/more decimal places/);
  });
});

describe('QR without colour', () => {
  it('draws glyphs that scan on a dark theme (NO_COLOR)', async () => {
    const r = await gw(['pay', '25', 'USDT', '--network', 'Ethereum Network', '--qr', '--no-color'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    const uri = /^URI\s+(\S+)$/m.exec(r.stdout)?.[1];
    expect(decodeTerminalQr(r.stdout, 'dark')).toBe(uri);
  });

  it('writes an SVG with --qr-out and keeps --json output pure', async () => {
    const dir = tempDir();
    const svg = path.join(dir, 'invoice.svg');
    const r = await gw(['pay', '25', 'BTC', '--json', '--qr', '--qr-out', svg], { env });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { uri: string };
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg|^<\?xml/);
    expect(decodeTerminalQr(r.stderr, 'dark')).toBe(doc.uri);
  });

  it('refuses an unknown image type before any request', async () => {
    const r = await gw(['pay', '25', 'BTC', '--qr-out', 'qr.jpg']);
    expect(r.exitCode).toBe(64);
  });
});

describe("the sandbox's QRCode link", () => {
  it.each([
    ['0.12345678', 'BTC', 'Bitcoin Network'],
    ['12.345678', 'USDT', 'Ethereum Network'],
    ['12.345678', 'USDT', 'Tron Network'],
  ])('gw pay %s %s on %s: the PNG it links to decodes to the payment URI', async (amount, payCurrency, network) => {
    const r = await gw(['pay', amount, payCurrency, '--network', network, '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { QRCode: string; uri: string; trackId: string };
    expect(doc.QRCode).toBe(`${sandbox.url}/qr/${doc.trackId}.png`);
    const image = await fetch(doc.QRCode, { signal: AbortSignal.timeout(5000) });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(decodePng(Buffer.from(await image.arrayBuffer()))).toBe(doc.uri);
    const missing = await fetch(`${sandbox.url}/qr/sbxnotapayment.png`, { signal: AbortSignal.timeout(5000) });
    expect(missing.status).toBe(404);
  });
});
