// A local stand-in for the payment gateway: all five operations, both envelope styles, keys checked
// exactly where the interface puts them. Importing this module is cheap; the HTTP server and the
// gateway logic load on the first startSandbox() call.

import type { RunningSandbox, SandboxOptions } from './options.js';

export { SANDBOX_GENERAL_KEY, SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY, sandboxJournalPath } from './options.js';
export type { RunningSandbox, SandboxOptions } from './options.js';

/** Starts the sandbox gateway and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { startSandboxServer } = await import('./server.js');
  return startSandboxServer(options);
}
