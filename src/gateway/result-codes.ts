// What each refusal means for the user, and the exit code it earns. Legacy result codes are from
// the gateway's public documentation (see gateway-public-facts.md); versioned failures carry an
// HTTP-like status.
import { ExitCode } from '../errors.js';

const DATA_CODES = new Set([101, ...range(105, 123), 126, 127, 130, 135]);

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export const RESULT_MEANING: Readonly<Record<number, string>> = {
  101: 'validation problem',
  102: 'invalid merchant API key',
  103: 'invalid payout API key',
  104: 'invalid IP address (the key is locked to other IPs)',
  105: 'invalid currency',
  106: 'invalid network',
  107: 'invalid callbackUrl',
  108: 'invalid returnUrl',
  109: 'amount too low',
  110: 'amount too high',
  111: 'lifeTime too short (minimum 15 minutes)',
  112: 'lifeTime too long (maximum 2880 minutes)',
  113: 'underPaidCover below 0',
  114: 'underPaidCover above 60',
  115: 'invalid feePaidByPayer (0 or 1)',
  116: 'invalid trackId',
  117: 'invalid address',
  120: 'invalid payCurrency',
  121: 'invalid fromCurrency',
  122: 'invalid toCurrency',
  123: 'fromCurrency equals toCurrency',
  124: 'rate limit exceeded',
  126: 'amount missing',
  127: 'amount below minimum',
  130: 'insufficient balance',
  131: 'an error occurred',
  135: 'currency disabled on that network',
  500: 'internal error at the gateway',
};

export function exitCodeForResult(result: number): ExitCode {
  if (result === 102 || result === 103 || result === 104) return ExitCode.NOPERM;
  if (result === 124) return ExitCode.TEMPFAIL;
  if (result === 500) return ExitCode.UNAVAILABLE;
  if (DATA_CODES.has(result)) return ExitCode.DATA;
  return ExitCode.REFUSED;
}

/** For a versioned `status` or a bare HTTP status. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return ExitCode.DATA;
  if (status === 401 || status === 403) return ExitCode.NOPERM;
  if (status === 408 || status === 429) return ExitCode.TEMPFAIL;
  if (status >= 500) return ExitCode.UNAVAILABLE;
  return ExitCode.REFUSED;
}

/**
 * The gateway's generic failures (131 "An error occurred", 500): closer to an HTTP 500 than to a
 * refusal, so a request that got one may have had its effect (a payment may exist).
 */
export function isGenericFailure(result: number): boolean {
  return result === 131 || result === 500;
}
