// Every failure gw reports is a GwError: a class carrying the exit code (sysexits.h) and what the
// gateway said, so the top level maps any failure to one line and one exit code in one place.

/** Exit codes, from sysexits.h. Documented in docs/json-and-exit-codes.md. */
export const ExitCode = {
  OK: 0,
  /** The gateway refused for a reason not listed below (unknown result code). */
  REFUSED: 1,
  /** Bad arguments, bad amount, unknown command or option. */
  USAGE: 64,
  /** The gateway rejected the request's data. */
  DATA: 65,
  /** Gateway unreachable or failing (connection refused, DNS, 5xx, result 500). */
  UNAVAILABLE: 69,
  /** Temporary: timed out or rate-limited. */
  TEMPFAIL: 75,
  /** The response could not be understood (not JSON, wrong shape, invalid address). */
  PROTOCOL: 76,
  /** Key missing at the gateway or refused. */
  NOPERM: 77,
  /** Local configuration wrong or missing. */
  CONFIG: 78,
  /** A bug in gw itself (an unexpected exception). */
  SOFTWARE: 70,
  /** An output file (--qr-out) could not be written. */
  CANTCREAT: 73,
  /** The output could not be delivered (stdout refused the write: disk full, bad descriptor). */
  IOERR: 74,
  /** Interrupted by Ctrl-C (128 + SIGINT). */
  INTERRUPTED: 130,
  /** Ended by SIGTERM (128 + SIGTERM). */
  TERMINATED: 143,
  // How a payment ended, for `gw status` and `--wait` (0 is paid). See src/cmdutil/wait.ts.
  /** `gw status` without --wait: the payment is still open (new, waiting, confirming, or a status gw does not know). */
  STILL_OPEN: 8,
  /** The payment ended underpaid. */
  UNDERPAID: 10,
  /** The payment expired and nothing arrived for it (or it arrived already expired). */
  EXPIRED: 11,
  /** The payment failed, or was refunded, or (without --wait) a refund is under way. */
  FAILED: 12,
  /** Funds arrived for a payment that had expired (`late`): the merchant must accept or refund them. */
  LATE: 13,
  /** --wait gave up: --wait-timeout passed, or the payment's expiry plus the grace with no transaction seen. */
  WAIT_ENDED: 124,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface GwErrorDetails {
  /** A second line that tells the user what to do next. */
  hint?: string;
  /** Legacy envelope result code, when the gateway sent one. */
  result?: number;
  /** Versioned envelope status, or the HTTP status when there was no envelope. */
  status?: number;
  /** Versioned error object's type and key. */
  type?: string;
  key?: string;
  /** The payment this failure is about, when one was created or may have been. */
  trackId?: string;
  /** The order id of the payment that may have been created: what to look for (gw payments --order-id). */
  orderId?: string;
  /** Whether the payment the command was creating exists: a side effect the exit code must not hide. */
  payment?: PaymentExistence;
  cause?: unknown;
}

/** `created`: the gateway created it (the failure came after). `unknown`: it may have been created. */
export type PaymentExistence = 'created' | 'unknown';

export class GwError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly result: number | undefined;
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly key: string | undefined;
  readonly trackId: string | undefined;
  readonly orderId: string | undefined;
  readonly payment: PaymentExistence | undefined;

  constructor(exitCode: ExitCode, message: string, details: GwErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'GwError';
    this.exitCode = exitCode;
    this.hint = details.hint;
    this.result = details.result;
    this.status = details.status;
    this.type = details.type;
    this.key = details.key;
    this.trackId = details.trackId;
    this.orderId = details.orderId;
    this.payment = details.payment;
  }

  /** The details a script reads from a JSON error, each present only when known. */
  jsonFields(): Record<string, string | number> {
    const fields: Record<string, string | number> = {};
    if (this.result !== undefined) fields.result = this.result;
    if (this.status !== undefined) fields.status = this.status;
    if (this.type !== undefined) fields.type = this.type;
    if (this.key !== undefined) fields.key = this.key;
    if (this.payment !== undefined) fields.payment = this.payment;
    if (this.trackId !== undefined) fields.trackId = this.trackId;
    if (this.orderId !== undefined) fields.orderId = this.orderId;
    return fields;
  }

  /** The same failure with other or more details (a hint, the payment it concerns). */
  with(details: GwErrorDetails & { message?: string; exitCode?: ExitCode }): GwError {
    const error = new GwError(details.exitCode ?? this.exitCode, details.message ?? this.message, {
      ...this.details(),
      ...details,
    });
    return error;
  }

  details(): GwErrorDetails {
    const d: GwErrorDetails = {};
    if (this.hint !== undefined) d.hint = this.hint;
    if (this.result !== undefined) d.result = this.result;
    if (this.status !== undefined) d.status = this.status;
    if (this.type !== undefined) d.type = this.type;
    if (this.key !== undefined) d.key = this.key;
    if (this.trackId !== undefined) d.trackId = this.trackId;
    if (this.orderId !== undefined) d.orderId = this.orderId;
    if (this.payment !== undefined) d.payment = this.payment;
    return d;
  }
}

export class UsageError extends GwError {
  constructor(message: string, hint?: string) {
    super(ExitCode.USAGE, message, hint === undefined ? {} : { hint });
    this.name = 'UsageError';
  }
}

export class ConfigError extends GwError {
  constructor(message: string, hint?: string) {
    super(ExitCode.CONFIG, message, hint === undefined ? {} : { hint });
    this.name = 'ConfigError';
  }
}

/** The gateway's answer could not be understood or is unsafe to use (exit 76). */
export class ProtocolError extends GwError {
  constructor(message: string, details: GwErrorDetails = {}) {
    super(ExitCode.PROTOCOL, message, details);
    this.name = 'ProtocolError';
  }
}

/** Why the command's signal was aborted: Ctrl-C, SIGTERM, or the command's deadline. */
export function interrupted(): GwError {
  return new GwError(ExitCode.INTERRUPTED, 'interrupted');
}

export function terminated(): GwError {
  return new GwError(ExitCode.TERMINATED, 'terminated');
}

export function deadlinePassed(seconds: number): GwError {
  return new GwError(ExitCode.TEMPFAIL, `gw did not finish within the ${seconds} s timeout`, {
    hint: 'raise --timeout, or check the gateway, the network and the config files',
  });
}
