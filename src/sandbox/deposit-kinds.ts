// How a simulated payment to a fixed address goes (`gw sandbox deposit`, static-addresses.ts): the
// whole amount, two short transfers, or the whole amount after its expiry. Its own small module so
// that the command line reads it without loading the sandbox.
export const DEPOSIT_KINDS = ['full', 'partial', 'late'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];
