// What each gateway answer means for the user: ONE table of every legacy `result` code the gateway
// publishes (docs/gateway.md §2, "complete"), with its meaning, the exit code it earns
// (sysexits, see docs/json-and-exit-codes.md), whether it is a definite refusal or the gateway's own
// failure, and a hint where one helps. Versioned failures carry an HTTP-like status instead
// (exitCodeForStatus). Codes not in the table are shown with the gateway's message, exit 1.
//
// Decisions where the published facts leave a choice (each also in docs/decisions.md):
// - 104 (the key is locked to other IP addresses) stays exit 77: it is a permission problem
//   (EX_NOPERM), but its hint says the key itself is fine and names the real fix, the key's
//   allowed-IP list in the merchant panel.
// - 128 (transfer limit per transaction) is exit 65: the same request will be refused again, the
//   amount has to change. 129 (total daily transfer limit) is exit 75: the same request succeeds
//   once the daily total resets, which is what EX_TEMPFAIL means ("retry later").
// - 131 ("An error occurred.") and 500 (internal error) are the gateway failing, not refusing:
//   exit 69, and `isGenericFailure` is true, so a `pay` that got them must say the payment MAY
//   exist. A code the table does not know is a refusal (exit 1): the gateway answered deliberately
//   with a code; whether an unknown code could hide a created payment is not published.
// - 102/103 carry no hint here: the client adds the which-key hint, because it knows how the key
//   was configured (--merchant-key, environment, .gatewayrc); `key` says which key it is.
import { ExitCode } from '../errors.js';

/**
 * `refusal`: the gateway decided not to do it, nothing was created. `generic-failure`: the gateway
 * failed while handling the request, which may have been carried out. `success`: result 100.
 */
export type ResultKind = 'success' | 'refusal' | 'generic-failure';

export interface ResultCode {
  readonly code: number;
  /** What the code means, lower case, as shown after the gateway's own message. */
  readonly meaning: string;
  readonly exitCode: ExitCode;
  readonly kind: ResultKind;
  /** A second line telling the user what to do, when the code says more than the message. */
  readonly hint?: string;
  /** For a key refusal: which key the gateway refused. */
  readonly key?: 'merchant' | 'payout';
}

const { OK, DATA, NOPERM, TEMPFAIL, UNAVAILABLE } = ExitCode;

const refusal = (code: number, exitCode: ExitCode, meaning: string, hint?: string): ResultCode => ({
  code,
  meaning,
  exitCode,
  kind: 'refusal',
  ...(hint !== undefined && { hint }),
});

const LIFETIME_HINT = '--life-time is in minutes, 15 to 2880';
const UNDERPAID_HINT = '--under-paid-cover is a percentage, 0 to 60';
const RATE_PAIR_HINT = 'give two different coin symbols the gateway lists, e.g. gw rate BTC USDT';

/** Every code of docs/gateway.md §2, in code order. */
export const RESULT_CODES: readonly ResultCode[] = [
  { code: 100, meaning: 'success', exitCode: OK, kind: 'success' },
  // No hint for 101: the gateway's message is the only detail there is.
  refusal(101, DATA, 'validation problem'),
  { ...refusal(102, NOPERM, 'invalid merchant API key'), key: 'merchant' },
  { ...refusal(103, NOPERM, 'invalid payout API key'), key: 'payout' },
  refusal(
    104,
    NOPERM,
    'invalid IP address: the key is locked to other IP addresses',
    "the key is locked to other IP addresses: add this machine's IP to the key's allowed-IP list in the merchant panel (the key itself is fine)",
  ),
  refusal(105, DATA, 'invalid currency', 'use a currency symbol the gateway lists; gw currencies shows the coins this merchant accepts'),
  refusal(106, DATA, 'invalid network', 'give --network a network the gateway lists for that coin (e.g. "Tron Network"), or leave it out'),
  refusal(107, DATA, 'invalid callbackUrl', '--callback-url must be a public http(s) URL'),
  refusal(108, DATA, 'invalid returnUrl'),
  refusal(109, DATA, 'amount too low', "raise the amount: the gateway's minimum depends on the coin"),
  refusal(110, DATA, 'amount too high', 'lower the amount, or split the payment'),
  refusal(111, DATA, 'lifeTime too short (minimum 15 minutes)', LIFETIME_HINT),
  refusal(112, DATA, 'lifeTime too long (maximum 2880 minutes)', LIFETIME_HINT),
  refusal(113, DATA, 'underPaidCover below 0', UNDERPAID_HINT),
  refusal(114, DATA, 'underPaidCover above 60', UNDERPAID_HINT),
  refusal(115, DATA, 'invalid feePaidByPayer (0 or 1)', '--fee-paid-by-payer is 0 (the merchant pays the fee) or 1 (the payer does)'),
  refusal(116, DATA, 'invalid trackId', 'check the track id: the gateway knows no payment with it'),
  refusal(117, DATA, 'invalid address'),
  refusal(118, DATA, 'toAmount cannot be smaller than fromAmount', 'swap the amount bounds: the upper bound is below the lower one'),
  refusal(119, DATA, 'toDate cannot be earlier than fromDate', 'swap the date bounds: the end date is before the start date'),
  refusal(120, DATA, 'invalid payCurrency', '--pay-currency must be a coin the merchant accepts; gw currencies lists them'),
  refusal(121, DATA, 'invalid fromCurrency', RATE_PAIR_HINT),
  refusal(122, DATA, 'invalid toCurrency', RATE_PAIR_HINT),
  refusal(123, DATA, 'fromCurrency equals toCurrency', RATE_PAIR_HINT),
  refusal(124, TEMPFAIL, 'rate limit exceeded', 'the gateway is rate-limiting requests: try again later'),
  refusal(125, DATA, 'the receiver address belongs to the sender', 'send to an address outside this gateway account'),
  refusal(126, DATA, 'amount missing'),
  refusal(127, DATA, 'amount below minimum', "raise the amount: the gateway's minimum depends on the coin"),
  refusal(128, DATA, 'transfer limit per transaction exceeded', 'send a smaller amount, or raise the per-transaction limit in the merchant panel'),
  refusal(
    129,
    TEMPFAIL,
    'total daily transfer limit exceeded',
    'the daily transfer limit is used up: try again after it resets, or raise it in the merchant panel',
  ),
  refusal(130, DATA, 'insufficient balance', "the account's balance in that currency is too low: gw balance shows it"),
  {
    code: 131,
    meaning: "the gateway's generic failure",
    exitCode: UNAVAILABLE,
    kind: 'generic-failure',
    hint: "the gateway failed without saying why: try again later; if it persists, contact the gateway's support",
  },
  refusal(135, DATA, 'currency disabled on that network', 'choose another network (--network) or another coin'),
  { code: 500, meaning: 'internal error at the gateway', exitCode: UNAVAILABLE, kind: 'generic-failure', hint: 'the gateway is failing: try again later' },
];

const BY_CODE: ReadonlyMap<number, ResultCode> = new Map(RESULT_CODES.map((entry) => [entry.code, entry]));

/** The table entry of a result code, or undefined for a code the gateway does not publish. */
export function resultCode(result: number): ResultCode | undefined {
  return BY_CODE.get(result);
}

/** Meaning of each published code (derived from RESULT_CODES; no inherited keys). */
export const RESULT_MEANING: Readonly<Record<number, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<number, string>, Object.fromEntries(RESULT_CODES.map((entry) => [entry.code, entry.meaning]))),
);

/** Exit code for a legacy result code; 1 (REFUSED) for a code the table does not know. */
export function exitCodeForResult(result: number): ExitCode {
  return BY_CODE.get(result)?.exitCode ?? ExitCode.REFUSED;
}

/** The hint for a result code, if the table has one. */
export function hintForResult(result: number): string | undefined {
  return BY_CODE.get(result)?.hint;
}

/**
 * True when the result says the gateway failed while handling the request (131, 500) rather than
 * refusing it: a `pay` that got one MAY have created a payment. False for success, every definite
 * refusal, codes the table does not know, and no code at all.
 */
export function isGenericFailure(result: number | undefined): boolean {
  return result !== undefined && BY_CODE.get(result)?.kind === 'generic-failure';
}

/** For a versioned `status` or a bare HTTP status. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return ExitCode.DATA;
  if (status === 401 || status === 403) return ExitCode.NOPERM;
  if (status === 408 || status === 429) return ExitCode.TEMPFAIL;
  if (status >= 500) return ExitCode.UNAVAILABLE;
  return ExitCode.REFUSED;
}
