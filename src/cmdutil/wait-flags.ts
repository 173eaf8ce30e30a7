// --wait and --wait-timeout, as gw status, gw pay, gw invoice and gw payout status take them
// (--wait-timeout implies --wait; its value is a duration: ./time-args.ts), and what a command
// that may wait takes from the factory.
import type { GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import type { Clock } from '../util/clock.js';
import type { Factory } from './factory.js';
import { parseDuration } from './time-args.js';

export interface WaitFlags {
  wait?: boolean;
  waitTimeout?: string;
}

export interface WaitChoice {
  /** Follow it until it ends. */
  wait: boolean;
  /** --wait-timeout in ms. */
  waitTimeoutMs: number | undefined;
}

/** --wait and --wait-timeout parsed: a bad duration is a usage error naming --wait-timeout. */
export function waitChoice(flags: WaitFlags): WaitChoice {
  return {
    wait: flags.wait === true || flags.waitTimeout !== undefined,
    waitTimeoutMs: flags.waitTimeout === undefined ? undefined : parseDuration(flags.waitTimeout, '--wait-timeout'),
  };
}

/** What a command that may wait takes from the factory. */
export interface WaitContext {
  io: IOStreams;
  gateway: () => Promise<GatewayClient>;
  clock: Clock;
  /** Ends a wait (Ctrl-C). */
  signal: AbortSignal;
  /** Lifts the whole-command deadline for the wait (each request keeps its own). */
  releaseDeadline: () => void;
}

export function waitContext(f: Factory): WaitContext {
  return { io: f.io, gateway: () => f.gateway(), clock: f.clock, signal: f.signal, releaseDeadline: () => f.releaseDeadline() };
}
