// A creation that failed after it may have reached the gateway (a payment link, gw invoice): the
// thing may exist. Say so, and how to recognise it; never send it again automatically. The rule of
// what counts as a definite refusal (mayHaveBeenCreated) is the one for payments too: gw pay's and
// gw counter's own wording, with --reuse-if-exists, is src/cmdutil/payment-request.ts ambiguousFailure.
import { ExitCode, type GwError } from '../errors.js';
import { isGenericFailure } from '../gateway/result-codes.js';
import { shellQuote } from '../output/sanitize.js';

/** Whether `error` leaves it open that the request reached the gateway and created something. */
export function mayHaveBeenCreated(error: GwError): boolean {
  if ((error as GwError & { delivery?: string }).delivery === 'not-sent') return false;
  // A definite refusal: the gateway answered with a result code or an error object, and not one
  // that says it failed inside (its generic failures 131 and 500, or a 5xx status).
  const failedInside = (error.result !== undefined && isGenericFailure(error.result)) || (error.status !== undefined && error.status >= 500);
  const refused = !failedInside && (error.result !== undefined || error.type !== undefined);
  const uncertainExit = (
    [ExitCode.UNAVAILABLE, ExitCode.TEMPFAIL, ExitCode.PROTOCOL, ExitCode.INTERRUPTED, ExitCode.TERMINATED, ExitCode.REFUSED] as number[]
  ).includes(error.exitCode);
  return !refused && (uncertainExit || failedInside);
}

export interface CreationAttempt {
  /** "invoice": what may have been created. */
  thing: string;
  orderId: string | undefined;
  /** "25 USD", for the hint when there is no order id. */
  amountWords: string;
  sandbox: boolean;
}

/** `error` as the failure it is when the creation may have happened; `error` itself when it surely did not. */
export function ambiguousCreation(error: GwError, attempt: CreationAttempt): GwError {
  if (!mayHaveBeenCreated(error)) return error;
  const sandbox = attempt.sandbox ? ' --sandbox' : '';
  const recognise =
    attempt.orderId !== undefined
      ? `look for order id "${attempt.orderId}" before trying again: gw payments --order-id ${shellQuote(attempt.orderId)}${sandbox}`
      : `look for an ${attempt.thing} of ${attempt.amountWords} created just now before trying again; give --order-id next time so it can be recognised`;
  return error.with({
    message: `${error.message}; the ${attempt.thing} MAY HAVE BEEN CREATED — it was not sent again`,
    hint: recognise,
    payment: 'unknown',
    ...(attempt.orderId !== undefined && { orderId: attempt.orderId }),
  });
}
