// The embedded sandbox gateway started inside the test process (a real HTTP server on 127.0.0.1),
// plus the environment that points the gw binary at it.
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

export async function withSandbox(): Promise<RunningSandbox> {
  return startSandbox({ host: '127.0.0.1', port: 0 });
}

export function sandboxEnv(sandbox: RunningSandbox): Record<string, string> {
  return {
    GATEWAY_BASE_URL: sandbox.url,
    GATEWAY_MERCHANT_KEY: sandbox.merchantKey,
    GATEWAY_PAYOUT_KEY: sandbox.payoutKey,
  };
}

/** For each sandbox coin, an amount with as many decimals as the asset has, so no digit can be lost unnoticed. */
export const FULL_PRECISION_AMOUNTS: Record<string, string> = {
  BTC: '0.12345678',
  LTC: '0.12345678',
  DOGE: '12.34567891',
  BCH: '0.12345678',
  DASH: '0.12345678',
  ETH: '0.123456789012345678',
  BNB: '0.123456789012345678',
  POL: '1.123456789012345678',
  USDT: '12.345678',
  USDC: '12.345678',
  TRX: '12.345678',
  SOL: '1.123456789',
  TON: '1.123456789',
  XMR: '0.123456789012',
};
