// Sending a payout, shared by `gw payout` and `gw refund`: money leaves the account and cannot be
// taken back, and the gateway has no idempotency key (docs/gateway.md §13), so:
//
// 1. everything that can be checked is checked before anything is sent: locally (checkPayoutInput:
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
import { payoutCounts } from '../domain/payout-status.js';
import { ConfigError, ExitCode, GwError, type GwErrorDetails, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { Decimal } from '../money/decimal.js';
import { BALANCE } from '../operations/balance.js';
import { CREATE_PAYOUT, type CreatedPayout, type PayoutRequest } from '../operations/create-payout.js';
import { PAYOUT_HISTORY } from '../operations/payout-history.js';
import type { Payout } from '../operations/payout-info.js';
import { readDecimal } from '../operations/read.js';
import { SUPPORTED_CURRENCIES } from '../operations/reference-data.js';
import type { IOStreams } from '../output/iostreams.js';
import { shellQuote } from '../output/sanitize.js';
import { renderDetails } from '../output/table.js';
import { Untrusted } from '../output/untrusted.js';
import { assetDecimals } from '../payment-uri/decimals.js';
import { validateAddress } from '../payment-uri/index.js';
import { matchNetwork, NETWORKS, type NetworkId, normalizeSymbol, resolveAsset } from '../payment-uri/networks.js';
import { asciiUpperCase } from '../util/ascii.js';
import { isJsonObject, type JsonValue } from '../util/json.js';
import { referenceOf } from './payout-reference.js';

/** Networks where a transfer carries a memo (a TON comment); elsewhere a memo would be lost. */
export const MEMO_NETWORKS: ReadonlySet<NetworkId> = new Set(['ton']);

/** How far back gw looks for a payout by its reference (history from_date). */
export const LOOKBACK_DAYS = 90;
/** Pages of 200 gw reads at most when looking; more is "could not look through it all". */
export const MAX_LOOK_PAGES = 25;

/** The payout as the user asked for it, checked locally. */
export interface PayoutDraft {
  amount: Decimal;
  currency: string;
  address: string;
  networkId: NetworkId;
  /** The network as the user named it (or as gw inferred it). */
  networkText: string;
  decimals: number;
  memo?: string;
  callbackUrl?: string;
  /** The description sent: the user's text and the reference, last. */
  description: string;
  reference: string;
  referenceGenerated: boolean;
}

export type BalanceCheck = { checked: true; balance: Decimal } | { checked: false; reason: string };

/** The draft checked against the gateway: what will be sent, and what the gateway publishes about it. */
export interface PayoutPlan extends PayoutDraft {
  /** The network as sent: the gateway's own name for it from its currency list. */
  network: string;
  fee: Decimal | null;
  minimum: Decimal | null;
  balance: BalanceCheck;
}

export interface PayoutInput {
  amount: string;
  currency: string;
  address: string;
  network?: string;
  memo?: string;
  callbackUrl?: string;
  description: string;
  reference: string;
  referenceGenerated: boolean;
}

// ---------------------------------------------------------------------------------------------
// 1. Checks

/** Local checks: exact amount within the coin's decimals, a network gw knows for the coin, the address and memo for it. */
export function checkPayoutInput(input: PayoutInput): PayoutDraft {
  const amount = Decimal.parseAmount(input.amount.trim());
  if (amount === undefined || !amount.isPositive) {
    throw new UsageError(`the amount must be a positive plain decimal such as 12.5 (got ${JSON.stringify(input.amount.slice(0, 40))})`);
  }
  const currency = normalizeSymbol(input.currency);
  let networkId: NetworkId | undefined;
  if (input.network !== undefined) {
    networkId = matchNetwork(input.network, currency);
    if (networkId === undefined) throw new UsageError(`--network ${JSON.stringify(input.network.slice(0, 40))} is not a network gw knows for ${currency}`);
  } else {
    const asset = resolveAsset('', currency);
    if (asset.kind !== 'native') throw new UsageError(`--network is required for ${currency}: name the network to send on (e.g. --network "Tron Network")`);
    networkId = asset.network.id;
  }
  const networkName = NETWORKS[networkId].name;
  const decimals = assetDecimals(networkId, currency);
  if (decimals === undefined) {
    throw new UsageError(`gw does not know ${currency} on ${networkName} (its decimals): nothing can be checked, so nothing is sent`);
  }
  if (amount.fractionDigits > decimals) {
    throw new UsageError(`${currency} on ${networkName} has ${decimals} decimals; ${amount} has ${amount.fractionDigits}: it cannot be sent exactly`);
  }
  const address = input.address.trim();
  const check = validateAddress(networkId, address);
  if (!check.ok)
    throw new UsageError(
      `the address is not a ${networkName} address (it ${check.reason}): nothing was sent`,
      'check the address and the network: a payout to a wrong address is lost',
    );
  if (input.memo !== undefined && !MEMO_NETWORKS.has(networkId)) {
    throw new UsageError(`${networkName} transfers carry no memo: --memo would be lost`, 'leave --memo out, or check --network');
  }
  const draft: PayoutDraft = {
    amount,
    currency,
    address,
    networkId,
    networkText: input.network ?? networkName,
    decimals,
    description: input.description,
    reference: input.reference,
    referenceGenerated: input.referenceGenerated,
  };
  if (input.memo !== undefined) draft.memo = input.memo;
  if (input.callbackUrl !== undefined) draft.callbackUrl = input.callbackUrl;
  return draft;
}

/** The coin's entry and the network's in the gateway's currency list (docs/gateway.md §12), if listed. */
function networkEntry(
  list: Record<string, JsonValue>,
  draft: PayoutDraft,
): { coin: Record<string, JsonValue>; key: string; entry: Record<string, JsonValue> } | undefined {
  const coin = Object.entries(list).find(([symbol, value]) => {
    const named = isJsonObject(value) && typeof value.symbol === 'string' ? value.symbol : symbol;
    return asciiUpperCase(named.trim()) === draft.currency;
  })?.[1];
  if (!isJsonObject(coin) || !isJsonObject(coin.networks)) return undefined;
  for (const [key, entry] of Object.entries(coin.networks)) {
    if (!isJsonObject(entry)) continue;
    const keys = Array.isArray(entry.keys) ? entry.keys.filter((k): k is string => typeof k === 'string') : [];
    const names = [key, entry.network, entry.name, ...keys].filter((n): n is string => typeof n === 'string');
    if (names.some((n) => matchNetwork(n, draft.currency) === draft.networkId)) return { coin, key, entry };
  }
  return undefined;
}

/** A read-only request failed before the payout: nothing was sent. */
function lookFailed(error: unknown, what: string): never {
  if (error instanceof GwError) throw error.with({ message: `${what} could not be read (${error.message}): nothing was sent` });
  throw error;
}

/** The versioned currency list only, whatever `api` says: its shape is the published one (docs/gateway.md §12), as the payout endpoints are versioned only. */
const V1_CURRENCIES = { ...SUPPORTED_CURRENCIES, endpoints: { v1: SUPPORTED_CURRENCIES.endpoints.v1 } };

/** The versioned balance only: it needs the general key (docs/gateway.md §8); the legacy one is not used here. */
const V1_BALANCE = { ...BALANCE, endpoints: { v1: BALANCE.endpoints.v1 } };

async function checkBalance(gateway: GatewayClient, draft: PayoutDraft, fee: Decimal | null): Promise<BalanceCheck> {
  let balances: Awaited<ReturnType<GatewayClient['balances']>>;
  try {
    balances = await gateway.perform(V1_BALANCE, { currency: draft.currency });
  } catch (error) {
    if (error instanceof ConfigError && /general API key/.test(error.message)) return { checked: false, reason: 'no general API key is configured' };
    if (error instanceof GwError && error.exitCode === ExitCode.NOPERM) return { checked: false, reason: 'the general API key was refused' };
    return lookFailed(error, 'the balance');
  }
  const line = balances.find((b) => asciiUpperCase(b.currency.raw().trim()) === draft.currency);
  if (line === undefined || line.amount === null) return { checked: false, reason: `the gateway's balance answer has no amount for ${draft.currency}` };
  const needed = fee === null ? draft.amount : draft.amount.plus(fee);
  if (needed.compare(line.amount) > 0) {
    throw new GwError(
      ExitCode.DATA,
      `the balance is ${line.amount} ${draft.currency}; this payout needs ${needed} ${draft.currency} (amount${fee === null ? '' : ' + published fee'}): nothing was sent`,
    );
  }
  return { checked: true, balance: line.amount };
}

/** The draft checked against what the gateway publishes: the coin and network listed, the minimum, the fee, the balance. */
export async function preparePayout(gateway: GatewayClient, draft: PayoutDraft): Promise<PayoutPlan> {
  let list: Record<string, JsonValue>;
  try {
    list = await gateway.perform(V1_CURRENCIES, {});
  } catch (error) {
    return lookFailed(error, "the gateway's currency list (fees and minimums)");
  }
  const found = networkEntry(list, draft);
  const networkName = NETWORKS[draft.networkId].name;
  if (found === undefined) throw new GwError(ExitCode.DATA, `the gateway's currency list has no ${draft.currency} on ${networkName}: nothing was sent`);
  if (found.coin.status === false) throw new GwError(ExitCode.DATA, `the gateway lists ${draft.currency} as disabled: nothing was sent`);
  const what = "the gateway's currency list";
  const fee = readDecimal(found.entry.withdraw_fee, 'withdraw_fee', what);
  const minimum = readDecimal(found.entry.withdraw_min, 'withdraw_min', what);
  if (minimum !== null && draft.amount.compare(minimum) < 0) {
    throw new GwError(
      ExitCode.DATA,
      `the gateway's minimum payout of ${draft.currency} on ${networkName} is ${minimum}; ${draft.amount} is below it: nothing was sent`,
    );
  }
  const balance = await checkBalance(gateway, draft, fee);
  const network = typeof found.entry.network === 'string' && found.entry.network.trim() !== '' ? found.entry.network : found.key;
  return { ...draft, network, fee, minimum, balance };
}

// ---------------------------------------------------------------------------------------------
// Finding payouts again: the history listed over a window, matched by gw

export interface PayoutQuery {
  /** The reference, exactly (the description's last word). */
  reference?: string;
  /** Or every reference starting with this (a payment's refunds). */
  referencePrefix?: string;
  address?: string;
  currency?: string;
  since: Date;
}

/** Payouts whose description carries the reference (and to the address, when given), newest first. */
export async function findPayouts(gateway: GatewayClient, query: PayoutQuery): Promise<Payout[]> {
  const found: Payout[] = [];
  for (let page = 1; ; page++) {
    const answer = await gateway.perform(PAYOUT_HISTORY, {
      from: query.since,
      size: 200,
      page,
      ...(query.currency !== undefined && { currency: query.currency }),
    });
    for (const payout of answer.payouts) {
      const reference = referenceOf(payout.description?.raw());
      if (reference === undefined) continue;
      if (query.reference !== undefined && reference !== query.reference) continue;
      if (query.referencePrefix !== undefined && !reference.startsWith(query.referencePrefix)) continue;
      if (query.address !== undefined && payout.address?.raw().trim() !== query.address) continue;
      found.push(payout);
    }
    if (answer.payouts.length === 0 || page >= answer.pages) return found;
    if (page >= MAX_LOOK_PAGES) {
      throw new GwError(
        ExitCode.UNAVAILABLE,
        `the payout history since ${query.since.toISOString().slice(0, 10)} has more than ${MAX_LOOK_PAGES} pages: gw could not look through it all`,
      );
    }
  }
}

/** Before sending with a reference the user gave: a payout already made with it (not rejected or canceled), if any. A failed look sends nothing. */
export async function lookFirst(gateway: GatewayClient, plan: PayoutDraft, now: number): Promise<Payout | undefined> {
  let found: Payout[];
  try {
    found = await findPayouts(gateway, {
      reference: plan.reference,
      address: plan.address,
      currency: plan.currency,
      since: new Date(now - LOOKBACK_DAYS * 86_400_000),
    });
  } catch (error) {
    return lookFailed(error, `the payout history (looking for reference ${plan.reference})`);
  }
  return found.find((p) => payoutCounts(p.status));
}

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
 * Shows what will be sent and asks. True: send. A dry run shows it and returns false. Without a
 * terminal and without --yes: a usage error (exit 64), nothing sent. Any answer but y or yes:
 * exit 1, nothing sent.
 */
export async function confirmPayout(io: IOStreams, plan: PayoutPlan, options: ConfirmOptions): Promise<boolean> {
  const text = `${options.dryRun ? `Dry run: this ${options.noun} would be sent` : `This ${options.noun} will be sent — it cannot be undone`}:\n${renderDetails(
    planRows(plan),
  )
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n')}`;
  // With --json the document is stdout's; what a person reads goes to stderr.
  if (io.json) io.err(text);
  else io.out(text);
  if (options.dryRun) return false;
  if (options.yes) return true;
  if (!io.canPrompt()) {
    throw new UsageError(`a ${options.noun} needs confirmation: run it on a terminal, or pass --yes; nothing was sent`);
  }
  options.releaseDeadline?.();
  const answer = await (await io.prompter()).input({ message: `Send this ${options.noun}? Type y or yes to send, anything else cancels:` });
  if (/^(y|yes)$/i.test(answer.trim())) return true;
  throw new GwError(ExitCode.REFUSED, `not confirmed: nothing was sent`);
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
  if (io.json) return io.printJson({ ...o.extraJson, sent: true, ...createdJson(created, plan) });
  io.out(
    `${o.noun === 'refund' ? 'Refund' : 'Payout'} ${created.trackId} sent: ${created.status === 'unknown' ? `the gateway says "${created.gatewayStatus?.line(30) ?? ''}"` : created.status}\n`,
  );
  io.notice(`follow it: gw payout status ${created.trackId} --wait${o.sandbox ? ' --sandbox' : ''}`);
}
