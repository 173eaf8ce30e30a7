// Every failure gw reports is a GwError: a class carrying the exit code (sysexits.h) and what the
// gateway said, so the top level maps any failure to one line and one exit code in one place.

/** Exit codes, from sysexits.h. Documented in the README. */
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
  /** Interrupted by Ctrl-C (128 + SIGINT). */
  INTERRUPTED: 130,
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
  cause?: unknown;
}

export class GwError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly result: number | undefined;
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly key: string | undefined;

  constructor(exitCode: ExitCode, message: string, details: GwErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'GwError';
    this.exitCode = exitCode;
    this.hint = details.hint;
    this.result = details.result;
    this.status = details.status;
    this.type = details.type;
    this.key = details.key;
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
