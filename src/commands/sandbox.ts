// gw sandbox [--port <n>] [--host <addr>] [--settle <seconds>] [--tls [--tls-ca <file>]]: serve the embedded sandbox gateway
// until interrupted, its payments moving to a final state on a compressed clock and notifications
// delivered to each payment's callbackUrl (one log line per attempt).
// gw sandbox trigger <trackId> <state> / gw sandbox resend <trackId>: drive a running sandbox over
// its control routes (/_sandbox/…): move a payment to a state (its notification goes out), or send
// its latest notification again.
// gw sandbox deposit <address> [full|partial|late]: a payment to a fixed address of a running
// sandbox (gw address new), of type static address, with the notification the gateway would send.
import path from 'node:path';
import { Command } from 'commander';
import { parseHttpUrl, parsePort, parseSymbol } from '../cmdutil/args.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { parseSeconds } from '../cmdutil/time-args.js';
import { ConfigError, ExitCode, GwError, ProtocolError, UsageError } from '../errors.js';
import type { IOStreams } from '../output/iostreams.js';
import { toJson } from '../output/json.js';
import { Untrusted } from '../output/untrusted.js';
import { SANDBOX_MERCHANT_KEY, sandboxJournalPath, type SandboxOptions } from '../sandbox/index.js';
import type { JsonValue } from '../util/json.js';
import type { DeliveryLogEntry } from '../sandbox/notify.js';
import { bindFailure } from '../cmdutil/bind-failure.js';
import { DEFAULT_SETTLE_SECONDS, SETTLE_SECONDS } from '../sandbox/options.js';
import { parseTriggerState, TRIGGER_STATES, type TriggerState } from '../sandbox/lifecycle.js';
import { DEPOSIT_KINDS, type DepositKind } from '../sandbox/deposit-kinds.js';

export interface SandboxCommandOptions {
  io: IOStreams;
  signal: AbortSignal;
  releaseDeadline: () => void;
  server: SandboxOptions & { port: number; host: string };
}

interface SandboxFlags {
  port?: string;
  settle?: string;
  host: string;
  merchantKey?: string;
  payoutKey?: string;
  generalKey?: string;
  deliverAnywhere?: boolean;
  dropNotifications?: string;
  notifyRetries: string;
  notifyTimeout: string;
  tls?: boolean;
  tlsCa?: string;
}

/** --drop-notifications: a whole number from 0 to 10000. */
function parseDropCount(text: string): number {
  const n = /^\s*\d{1,5}\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 0 && n <= 10_000)) throw new UsageError(`--drop-notifications must be a whole number from 0 to 10000 (got "${text.slice(0, 20)}")`);
  return n;
}

/** The sandbox's retry waits by default, in seconds: the gateway's 1 min, 3 min, 30 min, 3 h as seconds. */
const DEFAULT_RETRIES = '1,3,30,180';

export interface SandboxControlOptions {
  io: IOStreams;
  signal: AbortSignal;
  /** The running sandbox's base URL and the merchant key it takes. */
  target: () => Promise<{ url: URL; merchantKey: string }>;
  action:
    | { kind: 'trigger'; trackId: string; state: TriggerState }
    | { kind: 'resend'; trackId: string }
    | { kind: 'deposit'; address: string; deposit: DepositKind; amount?: string; currency?: string; coin?: string };
  /** --verbose: one line for the request. */
  log?: (line: string) => void;
}

export function newCmdSandbox(
  f: Factory,
  runF: (opts: SandboxCommandOptions) => Promise<void> = sandboxRun,
  controlF: (opts: SandboxControlOptions) => Promise<void> = sandboxControlRun,
): Command {
  const command = new Command('sandbox')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option(
      '--settle <seconds>',
      `seconds from a payment's creation to its final state, ${SETTLE_SECONDS.min}–${SETTLE_SECONDS.max} (default ${DEFAULT_SETTLE_SECONDS})`,
    )
    .option('--deliver-anywhere', 'deliver notifications to any callbackUrl, not only to this machine (127.0.0.1, ::1, localhost)')
    .option(
      '--notify-retries <seconds,…>',
      "waits before each retry when a receiver does not answer HTTP 200 ok (the gateway's 1 min, 3 min, 30 min, 3 h as seconds)",
      DEFAULT_RETRIES,
    )
    .option('--notify-timeout <seconds>', 'how long a receiver may take to answer one notification', '5')
    .option('--drop-notifications <n>', 'lose the next n notifications on purpose (never sent), to try gw listen --catch-up and gw webhook replay')
    .option('--tls', 'serve HTTPS, with a certificate made at start for 127.0.0.1, ::1 and localhost, signed by a CA made for this run')
    .option('--tls-ca <file>', 'with --tls: where to write that CA certificate for clients to trust (default: sandbox-ca.pem in the state folder)')
    .action((_flags: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<SandboxFlags>();
      if (flags.tlsCa !== undefined && flags.tls !== true) throw new UsageError('--tls-ca goes with --tls');
      const caFile =
        flags.tls !== true
          ? undefined
          : flags.tlsCa !== undefined
            ? path.resolve(f.origin.cwd, flags.tlsCa)
            : path.join(path.dirname(sandboxJournalPath(f.env, f.origin.home)), 'sandbox-ca.pem');
      const retryDelaysMs = parseRetries(flags.notifyRetries);
      const timeoutMs = parseSeconds(flags.notifyTimeout, '--notify-timeout', 60);
      return runF({
        io: f.io,
        signal: f.signal,
        releaseDeadline: () => f.releaseDeadline(),
        server: {
          port: parsePort(flags.port),
          host: flags.host,
          ...(flags.settle !== undefined && { settleSeconds: parseSettle(flags.settle) }),
          ...(flags.merchantKey !== undefined && { merchantKey: flags.merchantKey }),
          ...(flags.payoutKey !== undefined && { payoutKey: flags.payoutKey }),
          ...(flags.generalKey !== undefined && { generalKey: flags.generalKey }),
          ...(caFile !== undefined && { tls: { caFile } }),
          notifications: {
            retryDelaysMs,
            timeoutMs,
            deliverAnywhere: flags.deliverAnywhere === true,
            ...(flags.dropNotifications !== undefined && { dropNotifications: parseDropCount(flags.dropNotifications) }),
            // Deliveries go out as every request of gw does: proxies from the environment, --verbose lines.
            proxyEnv: f.env,
            ...(f.globals.verbose === true && { httpLog: (line: string) => f.io.err(`${line}\n`) }),
          },
        },
      });
    });
  withHelp(command, {
    examples: [
      'gw sandbox',
      'gw sandbox --port 8080',
      'gw sandbox --settle 60',
      'gw sandbox --json',
      'gw sandbox --notify-retries 1,1,1,1',
      'gw sandbox --tls',
    ],
    json: '{"url": "http://127.0.0.1:8080", "merchantKey", "payoutKey", "generalKey", "sandbox": true, "caFile" (with --tls)} (one line), then one line per notification attempt: {"event": "delivery", "trackId", "status", "url", "attempt", "attempts", "result", "httpStatus", "answer", "error", "nextRetryMs"}',
  });

  const url = '--url <url>';
  const urlHelp = 'the running sandbox (default: the configured base URL, when it is on this machine)';
  const trigger = new Command('trigger')
    .description("move a payment of a running sandbox to a state; its notification goes to the payment's callbackUrl")
    .argument('<trackId>', 'the payment')
    .argument(
      '<state>',
      `${TRIGGER_STATES.slice(0, -1).join(', ')} or ${TRIGGER_STATES.at(-1)} (the gateway's words; paying = confirming; late = expired, with the full amount received after the expiry)`,
    )
    .option(url, urlHelp)
    .action((trackId: string, stateText: string, flags: { url?: string }, cmd: Command) => {
      const state = parseTriggerState(stateText);
      if (state === undefined) throw new UsageError(`<state> must be one of ${TRIGGER_STATES.join(', ')} (got "${stateText.slice(0, 30)}")`);
      refuseEmbedded(cmd, `trigger ${parseTrackId(trackId)} ${state}`);
      const target = flags.url === undefined ? undefined : loopbackUrl(flags.url);
      return controlF({
        io: f.io,
        signal: f.signal,
        target: () => controlTarget(f, target),
        action: { kind: 'trigger', trackId: parseTrackId(trackId), state },
        ...controlTransport(f),
      });
    });
  withHelp(trigger, {
    examples: ['gw sandbox trigger 184729305 paid', 'gw sandbox trigger 184729305 confirming --url http://127.0.0.1:8080'],
    json: '{"ok": true, "trackId", "status", "callbackUrl", "notification": {"url", "attempt", "result", "httpStatus", "answer", "error", "nextRetryMs"} | null}',
  });
  const resend = new Command('resend')
    .description("send a payment's latest notification again (same body, same signature)")
    .argument('<trackId>', 'the payment')
    .option(url, urlHelp)
    .action((trackId: string, flags: { url?: string }, cmd: Command) => {
      refuseEmbedded(cmd, `resend ${parseTrackId(trackId)}`);
      const target = flags.url === undefined ? undefined : loopbackUrl(flags.url);
      return controlF({
        io: f.io,
        signal: f.signal,
        target: () => controlTarget(f, target),
        action: { kind: 'resend', trackId: parseTrackId(trackId) },
        ...controlTransport(f),
      });
    });
  withHelp(resend, {
    examples: ['gw sandbox resend 184729305'],
    json: '{"ok": true, "trackId", "notification": {"url", "attempt", "result", "httpStatus", "answer", "error", "nextRetryMs"}}',
  });
  const deposit = new Command('deposit')
    .description('a payment to a fixed address of a running sandbox (gw address new): type static address, notified to its callback URL')
    .argument('<address>', 'the fixed address')
    .argument('[how]', `${DEPOSIT_KINDS.join(', ')}: the whole amount; two transfers, 90 % in all (underpaid); or the whole amount after its expiry`, 'full')
    .option('--amount <amount>', 'what the payment is worth (default 25 USD)')
    .option('--currency <sym>', 'the currency of --amount (default: the coin paid)')
    .option('--coin <sym>', "the coin paid (default: the network's first coin in the sandbox)")
    .option(url, urlHelp)
    .action((address: string, how: string, flags: { amount?: string; currency?: string; coin?: string; url?: string }, cmd: Command) => {
      const kind = DEPOSIT_KINDS.find((k) => k === how.trim().toLowerCase());
      if (kind === undefined) throw new UsageError(`[how] must be one of ${DEPOSIT_KINDS.join(', ')} (got "${how.slice(0, 30)}")`);
      const where = address.trim();
      if (!/^[\x21-\x7e]{1,200}$/.test(where)) throw new UsageError(`<address> must be an address without spaces (got "${address.slice(0, 60)}")`);
      if (flags.amount !== undefined && !/^\d{1,30}(?:\.\d{1,30})?$/.test(flags.amount.trim()))
        throw new UsageError(`--amount must be a plain decimal amount such as 25 or 0.5 (got "${flags.amount.slice(0, 30)}")`);
      refuseEmbedded(cmd, `deposit ${where} ${kind}`);
      const target = flags.url === undefined ? undefined : loopbackUrl(flags.url);
      return controlF({
        io: f.io,
        signal: f.signal,
        target: () => controlTarget(f, target),
        action: {
          kind: 'deposit',
          address: where,
          deposit: kind,
          ...(flags.amount !== undefined && { amount: flags.amount.trim() }),
          ...(flags.currency !== undefined && { currency: parseSymbol(flags.currency, '--currency') }),
          ...(flags.coin !== undefined && { coin: parseSymbol(flags.coin, '--coin') }),
        },
        ...controlTransport(f),
      });
    });
  withHelp(deposit, {
    examples: [
      'gw sandbox deposit TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe',
      'gw sandbox deposit TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe partial --amount 40 --currency USD',
    ],
    json: '{"ok": true, "trackId", "address", "status", "callbackUrl", "notification": {"url", "attempt", "result", "httpStatus", "answer", "error", "nextRetryMs"} | null}',
  });
  return command.addCommand(trigger).addCommand(resend).addCommand(deposit);
}

/**
 * --sandbox on trigger/resend would change a throwaway sandbox inside this very command, gone when
 * it ends, and report a change nobody can see: refuse (exit 64, one line) with the way to drive a
 * sandbox that lives on.
 */
function refuseEmbedded(cmd: Command, rest: string): void {
  if (cmd.optsWithGlobals<{ sandbox?: boolean }>().sandbox !== true) return;
  // A GwError, not a UsageError: the line already says what to run, without the usage hint.
  throw new GwError(
    ExitCode.USAGE,
    `--sandbox would drive a throwaway sandbox that ends with this command: start one with gw sandbox in another terminal, then run gw sandbox ${rest} --url <the URL it prints>`,
  );
}

function parseRetries(text: string): number[] {
  const parts = text.split(',').map((s) => s.trim());
  if (text.trim() === '' || parts.length > 10)
    throw new UsageError(`--notify-retries must be up to 10 waits in seconds, e.g. ${DEFAULT_RETRIES} (got "${text.slice(0, 40)}")`);
  return parts.map((p) => parseSeconds(p, '--notify-retries', 86_400));
}

function parseTrackId(text: string): string {
  const id = text.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new UsageError(`<trackId> must be letters, digits, "_" or "-" (got "${text.slice(0, 30)}")`);
  return id;
}

/**
 * --url: an http(s) URL on this machine. The control routes take the merchant key, so it goes only
 * to a loopback host, decided from the host as written (127.0.0.0/8, ::1, localhost; the URL
 * parser's canonical form, so 127.1 and [::ffff:127.0.0.1] count) before any DNS lookup; any other
 * host is a usage error (exit 64) and nothing is sent.
 */
export function loopbackUrl(text: string): URL {
  const url = parseHttpUrl(text, '--url');
  if (!isLoopbackHost(url)) {
    throw new UsageError(
      `--url must be a sandbox on this machine (127.0.0.1, ::1 or localhost), not ${url.host.slice(0, 60)}: the sandbox's key is sent only there`,
      'give the URL gw sandbox printed, e.g. http://127.0.0.1:8080',
    );
  }
  return url;
}

/** Whether the URL's host, as written, is this machine: 127.0.0.0/8, ::1 (or ::ffff:127.x.y.z), localhost. */
function isLoopbackHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === 'localhost.' || host === '::1') return true;
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Where the running sandbox is: --url, else the configured base URL if it is on this machine. */
/** --verbose for a control request. */
function controlTransport(f: Factory): Pick<SandboxControlOptions, 'log'> {
  return f.globals.verbose === true ? { log: (line: string) => f.io.err(`${line}\n`) } : {};
}

async function controlTarget(f: Factory, urlFlag: URL | undefined): Promise<{ url: URL; merchantKey: string }> {
  const config = await f.config();
  let url: URL;
  if (urlFlag !== undefined) url = urlFlag;
  else if (config.baseUrl !== undefined && isLoopbackHost(config.baseUrl.value)) url = config.baseUrl.value;
  else
    throw new ConfigError(
      config.baseUrl === undefined ? 'which sandbox? no base URL is configured' : 'the configured base URL is not a sandbox on this machine',
      'give the running sandbox with --url http://127.0.0.1:<port> (gw sandbox prints it)',
    );
  return { url, merchantKey: config.merchantKey?.value ?? SANDBOX_MERCHANT_KEY };
}

/** --settle: whole seconds within the lifecycle's bounds. */
export function parseSettle(text: string): number {
  const seconds = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || seconds < SETTLE_SECONDS.min || seconds > SETTLE_SECONDS.max) {
    throw new UsageError(`--settle must be a whole number of seconds from ${SETTLE_SECONDS.min} to ${SETTLE_SECONDS.max} (got "${text.slice(0, 20)}")`);
  }
  return seconds;
}

export async function sandboxRun(opts: SandboxCommandOptions): Promise<void> {
  const { io } = opts;
  opts.releaseDeadline();
  const { startSandbox } = await import('../sandbox/index.js');
  const log = deliveryLogger(io);
  const server: SandboxOptions = { ...opts.server, notifications: { ...opts.server.notifications, log } };
  const sandbox = await startSandbox(server).catch((error: NodeJS.ErrnoException) => {
    throw bindFailure(error, 'the sandbox', `${opts.server.host}:${opts.server.port}`);
  });
  try {
    if (io.json) {
      io.out(
        `${JSON.stringify({
          url: sandbox.url,
          merchantKey: sandbox.merchantKey,
          payoutKey: sandbox.payoutKey,
          generalKey: sandbox.generalKey,
          sandbox: true,
          ...(sandbox.caFile !== undefined && { caFile: sandbox.caFile }),
        })}\n`,
      );
    } else {
      // With --tls, gw (and any Node client) trusts the run's CA through NODE_EXTRA_CA_CERTS.
      const trust = sandbox.caFile === undefined ? '' : `NODE_EXTRA_CA_CERTS=${sandbox.caFile} `;
      io.out(
        `${io.sandboxLabel(io.chalk)} gateway listening on ${sandbox.url}\n` +
          `  merchant key  ${sandbox.merchantKey}\n` +
          `  payout key    ${sandbox.payoutKey}\n` +
          `  general key   ${sandbox.generalKey}   (the versioned API's, for balance and rate with --api v1)\n` +
          (sandbox.caFile === undefined ? '' : `  CA (PEM)      ${sandbox.caFile}   (made for this run: trust it in the client, e.g. NODE_EXTRA_CA_CERTS)\n`) +
          `Try: ${trust}GATEWAY_BASE_URL=${sandbox.url} GATEWAY_MERCHANT_KEY=${sandbox.merchantKey} gw pay 25 USDT\n` +
          `  or the versioned API: ${trust}GATEWAY_API=v1 GATEWAY_BASE_URL=${sandbox.url} GATEWAY_GENERAL_KEY=${sandbox.generalKey} gw balance\n` +
          `  or a payment link to open in a browser: ${trust}GATEWAY_BASE_URL=${sandbox.url} GATEWAY_MERCHANT_KEY=${sandbox.merchantKey} gw invoice 25 USD\n` +
          `Notifications go to each payment's --callback-url${opts.server.notifications?.deliverAnywhere === true ? '' : ' on this machine'}; move a payment with: gw sandbox trigger <trackId> paid --url ${sandbox.url}\n` +
          'Press Ctrl-C to stop.\n',
      );
    }
    await new Promise<void>((resolve) => {
      if (opts.signal.aborted) resolve();
      else opts.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await sandbox.close();
  }
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** One line per delivery attempt: on stderr for people, NDJSON on stdout with --json. */
function deliveryLogger(io: IOStreams): (entry: DeliveryLogEntry) => void {
  return (e) => {
    if (io.json) {
      io.out(
        `${toJson(
          {
            event: 'delivery',
            time: new Date(e.at).toISOString(),
            trackId: e.trackId,
            status: e.status,
            style: e.style,
            type: e.type,
            url: Untrusted.of(e.url),
            attempt: e.attempt,
            attempts: e.attempts,
            result: e.result,
            httpStatus: e.httpStatus ?? null,
            answer: e.answer === undefined ? null : Untrusted.of(e.answer),
            error: e.error ?? null,
            ms: e.ms ?? null,
            nextRetryMs: e.nextRetryMs ?? null,
            resend: e.resend,
          },
          0,
        )}\n`,
      );
      return;
    }
    const d = new Date(e.at);
    const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
    io.err(`${time} notify ${e.trackId} ${e.status}${e.resend ? ' (resent)' : ''} → ${Untrusted.of(e.url).line(80)}: ${deliveryText(e)}\n`);
  };
}

type DeliveryFacts = Pick<DeliveryLogEntry, 'result' | 'attempt' | 'attempts'> &
  Partial<Pick<DeliveryLogEntry, 'httpStatus' | 'answer' | 'error' | 'nextRetryMs'>>;

function deliveryText(e: DeliveryFacts): string {
  if (e.result === 'not-sent') return `not sent: ${e.error ?? ''}`;
  const what =
    e.result === 'acknowledged'
      ? 'HTTP 200 "ok"'
      : e.httpStatus !== undefined
        ? `HTTP ${e.httpStatus}${e.answer === undefined || e.answer === '' ? ' (empty body)' : ` "${Untrusted.of(e.answer).line(40)}"`}, not "ok"`
        : (e.error ?? 'failed');
  const next =
    e.result === 'acknowledged' ? '' : e.nextRetryMs !== undefined ? `; retry in ${e.nextRetryMs / 1000} s` : e.attempt >= e.attempts ? '; gave up' : '';
  return `${what} (attempt ${e.attempt}/${e.attempts})${next}`;
}

// --- gw sandbox trigger / resend ------------------------------------------------------------------

export async function sandboxControlRun(opts: SandboxControlOptions): Promise<void> {
  const { io, action } = opts;
  const target = await opts.target();
  // The request carries the merchant key: never to another machine, whoever chose the URL.
  if (!isLoopbackHost(target.url)) loopbackUrl(target.url.href);
  const [{ postBytes }, { parseLossless, isJsonObject, isJsonNumber }, { outputObject }] = await Promise.all([
    import('../gateway/post.js'),
    import('../util/json.js'),
    import('../operations/read.js'),
  ]);
  const path =
    action.kind === 'deposit'
      ? `/_sandbox/static-addresses/${encodeURIComponent(action.address)}/payments`
      : `/_sandbox/payments/${encodeURIComponent(action.trackId)}/${action.kind === 'trigger' ? 'state' : 'resend'}`;
  const url = new URL(path, target.url);
  const body =
    action.kind === 'trigger'
      ? JSON.stringify({ state: action.state })
      : action.kind === 'deposit'
        ? JSON.stringify({ kind: action.deposit, amount: action.amount, currency: action.currency, coin: action.coin })
        : '{}';
  // gw's one HTTP stack, never through a proxy: the request carries the merchant key and goes only
  // to this machine (as it always did).
  const result = await postBytes(
    url,
    body,
    { 'content-type': 'application/json', merchant_api_key: target.merchantKey },
    {
      timeoutMs: 30_000,
      signal: opts.signal,
      ...(opts.log && { log: opts.log }),
      secrets: [target.merchantKey],
      peer: { who: 'the sandbox', url: '--url' },
    },
  );
  if (!result.ok) {
    if (result.kind === 'aborted' && opts.signal.aborted) throw opts.signal.reason;
    throw new GwError(
      result.kind === 'timeout' ? ExitCode.TEMPFAIL : ExitCode.UNAVAILABLE,
      `cannot reach the sandbox at ${target.url.origin}: ${result.message}`,
      {
        hint: 'is gw sandbox running? give its URL with --url',
      },
    );
  }
  let answer: unknown;
  try {
    answer = parseLossless(result.body);
  } catch {
    answer = undefined;
  }
  if (!isJsonObject(answer)) {
    throw new ProtocolError(`the answer from ${target.url.origin} is not the sandbox's (HTTP ${result.status}, not JSON)`, {
      hint: 'is --url a running gw sandbox?',
    });
  }
  const doc = outputObject(answer);
  if (answer.ok !== true) {
    const error =
      isJsonObject(answer.error) && typeof answer.error.message === 'string' ? Untrusted.of(answer.error.message).line(200) : `HTTP ${result.status}`;
    const code =
      result.status === 401
        ? ExitCode.NOPERM
        : result.status === 404 && !isJsonObject(answer.error)
          ? ExitCode.PROTOCOL
          : result.status >= 500
            ? ExitCode.UNAVAILABLE
            : ExitCode.DATA;
    throw new GwError(code, `the sandbox refused: ${error}`, {
      status: result.status,
      ...(result.status === 401 && { hint: 'the sandbox takes its own merchant key: --merchant-key or GATEWAY_MERCHANT_KEY (default sandbox-merchant-key)' }),
    });
  }
  if (io.json) return io.printJson(doc);
  const n = isJsonObject(answer.notification) ? answer.notification : undefined;
  const text = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : isJsonNumber(v) ? v.value : undefined);
  const int = (v: JsonValue | undefined): number | undefined => {
    const t = text(v);
    return t !== undefined && /^\d{1,12}$/.test(t) ? Number(t) : undefined;
  };
  const head =
    action.kind === 'deposit'
      ? `payment ${Untrusted.of(text(answer.trackId) ?? '?').line(30)} to ${Untrusted.of(action.address).line(100)} (${action.deposit}) is ${Untrusted.of(text(answer.status) ?? '?').line(30)}: gw status ${Untrusted.of(text(answer.trackId) ?? '?').line(30)} follows it`
      : action.kind === 'trigger'
        ? `${action.trackId} is now ${Untrusted.of(text(answer.status) ?? '?').line(30)}`
        : `${action.trackId}: notification sent again`;
  if (n === undefined) {
    io.out(`${head}; no notification (the payment has no callbackUrl)\n`);
    return;
  }
  const said = text(n.result);
  const facts: DeliveryFacts = {
    result: said === 'acknowledged' || said === 'not-acknowledged' || said === 'not-sent' ? said : 'failed',
    attempt: int(n.attempt) ?? 0,
    attempts: int(n.attempts) ?? 0,
  };
  const [httpStatus, answerText, error, nextRetryMs] = [int(n.httpStatus), text(n.answer), text(n.error), int(n.nextRetryMs)];
  if (httpStatus !== undefined) facts.httpStatus = httpStatus;
  if (answerText !== undefined) facts.answer = answerText;
  if (error !== undefined) facts.error = error;
  if (nextRetryMs !== undefined) facts.nextRetryMs = nextRetryMs;
  io.out(`${head}; notification to ${Untrusted.of(text(n.url) ?? '?').line(80)}: ${deliveryText(facts)}\n`);
}
