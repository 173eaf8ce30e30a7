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
