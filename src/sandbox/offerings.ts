// What the embedded sandbox sells: each coin and network it accepts, with the network text it
// sends as the real gateway does (docs/gateway.md §3).
import type { NetworkId } from '../payment-uri/networks.js';

/**
 * The networks the embedded sandbox gateway offers, with the network text it sends. The first
 * entry for a payCurrency is that currency's default network.
 */
export const SANDBOX_OFFERINGS: ReadonlyArray<{ payCurrency: string; network: string; networkId: NetworkId }> = [
  { payCurrency: 'BTC', network: 'Bitcoin Network', networkId: 'bitcoin' },
  { payCurrency: 'ETH', network: 'Ethereum Network', networkId: 'ethereum' },
  { payCurrency: 'USDT', network: 'Tron Network', networkId: 'tron' },
  { payCurrency: 'USDT', network: 'Ethereum Network', networkId: 'ethereum' },
  { payCurrency: 'USDT', network: 'Binance Smart Chain', networkId: 'bsc' },
  { payCurrency: 'USDC', network: 'Ethereum Network', networkId: 'ethereum' },
  { payCurrency: 'LTC', network: 'Litecoin Network', networkId: 'litecoin' },
  { payCurrency: 'DOGE', network: 'Dogecoin Network', networkId: 'dogecoin' },
  { payCurrency: 'TRX', network: 'Tron Network', networkId: 'tron' },
  { payCurrency: 'BNB', network: 'Binance Smart Chain', networkId: 'bsc' },
  { payCurrency: 'POL', network: 'Polygon Network', networkId: 'polygon' },
  { payCurrency: 'SOL', network: 'Solana Network', networkId: 'solana' },
  { payCurrency: 'TON', network: 'TON Network', networkId: 'ton' },
  { payCurrency: 'XMR', network: 'Monero Network', networkId: 'monero' },
  { payCurrency: 'BCH', network: 'Bitcoin Cash Network', networkId: 'bitcoin-cash' },
  { payCurrency: 'DASH', network: 'Dash Network', networkId: 'dash' },
];
