// Sending a payout, shared by `gw payout` and `gw refund`: money leaves the account and cannot be
// taken back, and the gateway has no idempotency key (docs/gateway.md §13), so:
//
// 1. everything that can be checked is checked before anything is sent (./payout-checks.ts): locally (checkPayoutInput:
//    amount exact and within the coin's decimals on that network, the network one gw knows for the
//    coin, the address valid for it, a memo only where the network takes one), then read-only
//    against the gateway (preparePayout: the coin and network in the gateway's currency list, the
//    amount at least the published minimum, the published fee, and amount + fee within the balance
//    where the general key can read it);
// 2. the user sees exactly what will be sent and confirms it (confirmPayout: y or yes on a
//    terminal; --yes without one; --dry-run stops here);
// 3. ONE request is sent, by a OneShotSender made once per invocation: a second send throws before
//    anything is written. The transport never re-sends a non-idempotent request that may have left;
// 4. a failure after the request may have reached the gateway (timeout, reset, 5xx, an answer gw
//    cannot read) is a PayoutError with `payout: "unknown"`: it says the payout MAY HAVE BEEN MADE,
//    that it was not sent again, and the command that finds it (by its reference, which every payout
//    carries in its description: ./payout-reference.ts).
import { ExitCode, GwError, type GwErrorDetails, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { CREATE_PAYOUT, type CreatedPayout, type PayoutRequest } from '../operations/create-payout.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import { Untrusted } from '../output/untrusted.js';
import { wrapLine } from '../output/wrap.js';
import type { Clock } from '../util/clock.js';
import { checkPayoutInput, type PayoutDraft, type PayoutInput, type PayoutPlan, preparePayout } from './payout-checks.js';
import { lookFirst } from './payout-find.js';
import { describeWithReference } from './payout-reference.js';

// ---------------------------------------------------------------------------------------------
// 2. What will be sent, and the confirmation

const orDash = (value: string | undefined): string => (value === undefined || value === '' ? '—' : value);

/** The plan as detail rows: exactly what will be sent. */
export function planRows(plan: PayoutPlan): { label: string; value: string }[] {
  const fee =
    plan.fee === null
      ? 'not published for this network'
      : `${plan.fee} ${plan.currency} (the gateway's published withdraw fee; whether it is added to the amount or taken from it is not published)`;
  const balance = plan.balance.checked ? `${plan.balance.balance} ${plan.currency}: amount + fee fit` : `not checked (${plan.balance.reason})`;
  return [
    { label: 'amount', value: `${plan.amount} ${plan.currency}` },
    { label: 'network', value: String(Untrusted.of(plan.network)) },
    { label: 'to', value: plan.address },
    { label: 'memo', value: orDash(plan.memo) },
    { label: 'fee', value: fee },
    ...(plan.minimum === null ? [] : [{ label: 'minimum', value: `${plan.minimum} ${plan.currency}` }]),
    { label: 'balance', value: balance },
    { label: 'reference', value: `${plan.reference}${plan.referenceGenerated ? ' (made by gw)' : ''}, in the description` },
    { label: 'description', value: String(Untrusted.of(plan.description)) },
    ...(plan.callbackUrl === undefined ? [] : [{ label: 'callback', value: String(Untrusted.of(plan.callbackUrl)) }]),
  ];
}

/** The plan in JSON (amounts as exact decimal strings). */
export function planJson(plan: PayoutPlan): Record<string, unknown> {
  return {
    amount: plan.amount,
    currency: plan.currency,
    network: plan.network,
    address: plan.address,
    memo: plan.memo ?? null,
    fee: plan.fee,
    minimum: plan.minimum,
    balance: plan.balance.checked ? { checked: true, amount: plan.balance.balance } : { checked: false, reason: plan.balance.reason },
    reference: plan.reference,
    description: plan.description,
    ...(plan.callbackUrl !== undefined && { callbackUrl: plan.callbackUrl }),
  };
}

export interface ConfirmOptions {
  yes: boolean;
  dryRun: boolean;
  /** Lifts the whole command's deadline while a person reads and answers (each request keeps its own). */
  releaseDeadline?: () => void;
  /** "payout" or "refund", for the words. */
  noun: string;
}

/**
 * Without a terminal to ask on, and without --yes or --dry-run: refused at once (exit 64), before
 * anything is read or sent, so nothing says the payout "will be sent".
 */
export function requireConfirmable(io: IOStreams, options: Pick<ConfirmOptions, 'yes' | 'dryRun' | 'noun'>): void {
  if (options.yes || options.dryRun || io.canPrompt()) return;
  throw new UsageError(`a ${options.noun} needs confirmation: run it on a terminal, or pass --yes; nothing was sent`);
}

/**
 * Shows what will be sent and asks. True: send. A dry run shows it and returns false. Without a
 * terminal and without --yes: a usage error (exit 64), nothing sent. Any answer but y or yes:
 * exit 1, nothing sent.
 */
export async function confirmPayout(io: IOStreams, plan: PayoutPlan, options: ConfirmOptions): Promise<boolean> {
  const rows = planRows(plan);
  // On a terminal a long value is wrapped at spaces under its column; a word (the address) is never
  // broken, so it can be copied whole (a line too narrow for it wraps it as the terminal does).
  // With --json the document is stdout's; what a person reads goes to stderr. So does it when the
  // question will be asked (on stderr) and stdout is not the terminal (`gw payout … > file`): the
  // person answering must see what they are confirming.
  const asking = !options.dryRun && !options.yes;
  const toStderr = io.json || (asking && !io.stdoutIsTTY);
  const onTerminal = toStderr ? io.stderrIsTTY : io.stdoutIsTTY;
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  const indent = ' '.repeat(2 + labelWidth + 2);
  const shown = rows.flatMap((r) => {
    const values = onTerminal ? wrapLine(r.value, Math.max(20, io.width() - 1 - indent.length)) : [r.value];
    return values.map((value, i) => `${i === 0 ? `  ${r.label.padEnd(labelWidth)}  ` : indent}${value}`.trimEnd());
  });
  const text = `${options.dryRun ? `Dry run: this ${options.noun} would be sent` : `This ${options.noun} will be sent — it cannot be undone`}:\n${shown.join('\n')}\n`;
  if (toStderr) io.err(text);
  else io.out(text);
  if (options.dryRun) return false;
  if (options.yes) return true;
  if (!io.canPrompt()) {
    throw new UsageError(`a ${options.noun} needs confirmation: run it on a terminal, or pass --yes; nothing was sent`);
  }
  options.releaseDeadline?.();
  let answer: string;
  try {
    answer = await (await io.prompter()).input({ message: `Send this ${options.noun}? Type y or yes to send, anything else cancels:` });
  } catch (error) {
    // Ctrl-C at the question: still 130, but the line says what became of the payout.
    if (error instanceof GwError && error.exitCode === ExitCode.INTERRUPTED) {
      throw new PayoutError(ExitCode.INTERRUPTED, `interrupted at the confirmation: the ${options.noun} was not sent`, {}, 'none', plan.reference);
    }
    throw error;
  }
  if (/^(y|yes)$/i.test(answer.trim())) return true;
  throw new PayoutError(ExitCode.REFUSED, `not confirmed: nothing was sent`, {}, 'none', plan.reference);
}

// ---------------------------------------------------------------------------------------------
// 3. One request

/**
 * Sends at most one payout. Made once per invocation (in the command's action): a second send()
 * throws before anything is written, whatever calls it.
 */
export class OneShotSender {
  #used = false;

  get used(): boolean {
    return this.#used;
  }

  send(gateway: GatewayClient, request: PayoutRequest): Promise<CreatedPayout> {
    if (this.#used) return Promise.reject(new Error('a second payout in one invocation: refused, nothing sent'));
    this.#used = true;
    return gateway.perform(CREATE_PAYOUT, request);
  }
}

/** The request sent for a plan. */
export function requestOf(plan: PayoutPlan): PayoutRequest {
  return {
    address: plan.address,
    currency: plan.currency,
    amount: plan.amount,
    network: plan.network,
    ...(plan.callbackUrl !== undefined && { callbackUrl: plan.callbackUrl }),
    ...(plan.memo !== undefined && { memo: plan.memo }),
    description: plan.description,
  };
}

// ---------------------------------------------------------------------------------------------
// 4. After a failure

/** `unknown`: the payout may have been made. `none`: it certainly was not. */
export type PayoutExistence = 'unknown' | 'none';

/** A payout failure: its JSON says whether the payout may exist and the reference that finds it. */
export class PayoutError extends GwError {
  constructor(
    exitCode: ExitCode,
    message: string,
    details: GwErrorDetails,
    readonly existence: PayoutExistence,
    readonly reference: string,
  ) {
    super(exitCode, message, details);
    this.name = 'PayoutError';
  }

  override jsonFields(): Record<string, string | number> {
    return { ...super.jsonFields(), payout: this.existence, reference: this.reference };
  }
}

/** A usage error before anything was sent (bad input, no terminal): still a usage error, and its JSON says the payout was not made. */
class NothingSentUsageError extends UsageError {
  constructor(
    source: UsageError,
    readonly reference: string,
  ) {
    super(source.message, source.hint);
  }

  override jsonFields(): Record<string, string | number> {
    return { ...super.jsonFields(), payout: 'none', reference: this.reference };
  }

  /** With more details (the usage line gw adds): still this error. */
  override with(details: Parameters<GwError['with']>[0]): GwError {
    if (details.exitCode !== undefined && details.exitCode !== this.exitCode) return super.with(details);
    return new NothingSentUsageError(new UsageError(details.message ?? this.message, details.hint ?? this.hint), this.reference);
  }
}

/**
 * Any failure of `gw payout` or `gw refund` before its payout request was sent (`sender` unused):
 * the same failure, whose JSON says `"payout": "none"` with the reference, so every failure says
 * what became of the payout. A failure once the request was sent is left as it is (it says so itself).
 */
export function failedBeforeSending(error: unknown, sender: OneShotSender, reference: string): unknown {
  if (sender.used || error instanceof PayoutError || error instanceof NothingSentUsageError || !(error instanceof GwError)) return error;
  if (error instanceof UsageError) return new NothingSentUsageError(error, reference);
  return new PayoutError(error.exitCode, error.message, error.details(), 'none', reference);
}

/**
 * The failure of the one payout request: a definite refusal (the gateway answered 4xx with its
 * error, or the request provably never left) says nothing was sent; anything else may have made
 * the payout, and says so, with the commands that find it (`findCommand`, `retryCommand`).
 */
export function payoutFailure(error: unknown, plan: PayoutPlan, commands: { find: string; retry: string }): PayoutError {
  const gw = error instanceof GwError ? error : new GwError(ExitCode.SOFTWARE, error instanceof Error ? error.message : String(error));
  const notSent = (gw as GwError & { delivery?: string }).delivery === 'not-sent';
  const failedInside = gw.status !== undefined && gw.status >= 500;
  const refused = !failedInside && (gw.type !== undefined || gw.result !== undefined || (gw.status !== undefined && gw.status >= 400 && gw.status < 500));
  const local = gw.exitCode === ExitCode.CONFIG || gw.exitCode === ExitCode.USAGE;
  if (notSent || refused || local) {
    return new PayoutError(gw.exitCode, `${gw.message}; the payout was not made: nothing was sent`, gw.details(), 'none', plan.reference);
  }
  return new PayoutError(
    gw.exitCode,
    `${gw.message}; the payout MAY HAVE BEEN MADE — it was not sent again`,
    { ...gw.details(), hint: `find it before anything else: ${commands.find} (or run ${commands.retry}, which looks before sending)` },
    'unknown',
    plan.reference,
  );
}

/** `gw payouts --reference R --address A` (+ --sandbox): the command that finds a payout. */
export function findPayoutCommand(plan: Pick<PayoutDraft, 'reference' | 'address'>, sandbox: boolean): string {
  return `gw payouts --reference ${shellQuote(plan.reference)} --address ${shellQuote(plan.address)}${sandbox ? ' --sandbox' : ''}`;
}

/** A created payout in JSON. */
export function createdJson(created: CreatedPayout, plan: PayoutPlan): Record<string, unknown> {
  return { trackId: created.trackId, status: created.status, gatewayStatus: created.gatewayStatus, ...planJson(plan) };
}

// ---------------------------------------------------------------------------------------------
// The whole flow

export interface ExecuteOptions {
  io: IOStreams;
  gateway: GatewayClient;
  sender: OneShotSender;
  draft: PayoutDraft;
  yes: boolean;
  dryRun: boolean;
  /** The user gave the reference: look for a payout already made with it first. */
  lookFirst: boolean;
  now: number;
  sandbox: boolean;
  noun: 'payout' | 'refund';
  /** Lifts the command's deadline while the question is open. */
  releaseDeadline?: () => void;
  /** The command that runs this again with its reference (it looks before sending). */
  retryCommand: string;
  /** More fields for the JSON document (a refund's payment). */
  extraJson?: Record<string, unknown>;
}

/** Looks (with a reference of the user's), checks, shows, confirms, sends once, reports. */
export async function executePayout(o: ExecuteOptions): Promise<void> {
  const { io, draft } = o;
  const find = findPayoutCommand(draft, o.sandbox);
  if (o.lookFirst) {
    const existing = await lookFirst(o.gateway, draft, o.now);
    if (existing !== undefined) {
      if (io.json) {
        io.printJson({
          ...o.extraJson,
          existing: true,
          trackId: existing.trackId,
          status: existing.status,
          gatewayStatus: existing.gatewayStatus,
          reference: draft.reference,
          sent: false,
        });
      } else {
        io.out(
          `A ${o.noun} with reference ${draft.reference} to ${draft.address} already exists: ${existing.trackId} (${existing.status}). Nothing was sent.\n`,
        );
        io.notice(`follow it: gw payout status ${existing.trackId} --wait${o.sandbox ? ' --sandbox' : ''}`);
      }
      return;
    }
  }
  const plan = await preparePayout(o.gateway, draft);
  io.sandboxBanner();
  const send = await confirmPayout(io, plan, { yes: o.yes, dryRun: o.dryRun, noun: o.noun, ...(o.releaseDeadline && { releaseDeadline: o.releaseDeadline }) });
  if (!send) {
    if (io.json) io.printJson({ ...o.extraJson, dryRun: true, sent: false, ...planJson(plan) });
    else io.out('Dry run: nothing was sent.\n');
    return;
  }
  let created: CreatedPayout;
  try {
    created = await o.sender.send(o.gateway, requestOf(plan));
  } catch (error) {
    throw payoutFailure(error, plan, { find, retry: o.retryCommand });
  }
  if (io.json) io.printJson({ ...o.extraJson, sent: true, ...createdJson(created, plan) });
  else
    io.out(
      `${o.noun === 'refund' ? 'Refund' : 'Payout'} ${created.trackId} sent: ${created.status === 'unknown' ? `the gateway says "${created.gatewayStatus?.line(30) ?? ''}"` : created.status}\n`,
    );
  // Refused at once (the answer's status is final and not confirmed): nothing left the account.
  if (created.status === 'canceled' || created.status === 'rejected') {
    throw new GwError(ExitCode.FAILED, `the gateway ${created.status} ${o.noun} ${created.trackId} at once: nothing was sent`);
  }
  io.notice(`follow it: gw payout status ${created.trackId} --wait${o.sandbox ? ' --sandbox' : ''}`);
}

// ---------------------------------------------------------------------------------------------
// What gw payout and gw refund share around the flow

/** The flags gw payout and gw refund both take. */
export interface PayoutCommandFlags {
  memo?: string;
  description?: string;
  callbackUrl?: string;
  reference?: string;
  yes?: boolean;
  dryRun?: boolean;
}

/** One invocation of gw payout or gw refund, as far as the shared flow needs it. */
export interface PayoutInvocation {
  io: IOStreams;
  /** Made once per invocation: at most one payout request. */
  sender: OneShotSender;
  clock: Clock;
  sandbox: boolean;
  /** Lifts the command's deadline while the confirmation is asked. */
  releaseDeadline?: () => void;
  flags: PayoutCommandFlags;
}

/** The checked draft (checkPayoutInput) of what the command found to send, with the shared flags and the reference. */
export function draftPayout(inv: PayoutInvocation, reference: string, what: Pick<PayoutInput, 'amount' | 'currency' | 'address' | 'network'>): PayoutDraft {
  const { flags } = inv;
  return checkPayoutInput({
    ...what,
    ...(flags.memo !== undefined && { memo: flags.memo }),
    ...(flags.callbackUrl !== undefined && { callbackUrl: flags.callbackUrl }),
    description: describeWithReference(reference, flags.description),
    reference,
    referenceGenerated: flags.reference === undefined,
    sandbox: inv.sandbox,
  });
}

export interface SendDraftOptions {
  noun: 'payout' | 'refund';
  /** The command's own words of the command that runs it again (`gw payout 12.5 USDT …`); the shared flags follow. */
  retryHead: string[];
  /** More fields for the JSON document (a refund's payment). */
  extraJson?: Record<string, unknown>;
}

/** Sends the draft through the whole flow (executePayout); the user's --reference makes it look first. */
export async function sendDraft(inv: PayoutInvocation, gateway: GatewayClient, draft: PayoutDraft, o: SendDraftOptions): Promise<void> {
  const { flags } = inv;
  const retry = [
    ...o.retryHead,
    // The same payout again: the same description and callback, so the look finds it and a send matches it.
    ...(flags.description === undefined ? [] : ['--description', shellQuote(flags.description)]),
    ...(flags.callbackUrl === undefined ? [] : ['--callback-url', shellQuote(flags.callbackUrl)]),
    '--reference',
    shellQuote(draft.reference),
    ...(inv.sandbox ? ['--sandbox'] : []),
  ].join(' ');
  await executePayout({
    io: inv.io,
    gateway,
    sender: inv.sender,
    draft,
    yes: flags.yes === true,
    dryRun: flags.dryRun === true,
    lookFirst: flags.reference !== undefined,
    now: inv.clock.now(),
    sandbox: inv.sandbox,
    noun: o.noun,
    retryCommand: retry,
    ...(inv.releaseDeadline && { releaseDeadline: inv.releaseDeadline }),
    ...(o.extraJson && { extraJson: o.extraJson }),
  });
}
