// gw listen [--port <n>] [--host <addr>] [--path <path>] [--forward-to <url>]: a local receiver
// for the gateway's payment notifications. Each POST is verified over its raw bytes (HMAC-SHA512,
// merchant key for payment types, payout key for payouts), answered as the gateway requires
// (HTTP 200 `ok` only for a verified notification), printed as one line (or one NDJSON object),
// and optionally relayed to the merchant's application. Runs until Ctrl-C.
import { Command } from 'commander';
import { parseHttpUrl, parsePort } from '../cmdutil/args.js';
import { bindFailure } from '../cmdutil/bind-failure.js';
import type { Clock } from '../util/clock.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { configuredKeys, repeatedKeysText, type NotificationKeySettings } from '../cmdutil/notifications.js';
import { parseSeconds } from '../cmdutil/time-args.js';
import { ConfigError, ExitCode, GwError, UsageError } from '../errors.js';
import type { ProxyEnv } from '../gateway/proxy.js';
import type { IOStreams } from '../output/iostreams.js';
import { toJson } from '../output/json.js';
import { Untrusted } from '../output/untrusted.js';
import { amountsWords, type Arrival } from '../domain/arrival.js';
import { arrivalOfFields, notificationArrival } from '../domain/notification-arrival.js';
import type { Amount } from '../notifications/decode.js';
import type { ListenerLimits, ListenerOptions, Receipt } from '../notifications/listener.js';
import type { CatchUpSetup } from '../cmdutil/catch-up.js';

export interface ListenOptions {
  io: IOStreams;
  clock: Clock;
  signal: AbortSignal;
  releaseDeadline: () => void;
  /** The merchant and payout keys from the configuration (flags, env, files). */
  keys: () => Promise<NotificationKeySettings>;
  host: string;
  port: number;
  path: string;
  forward?: { url: URL; unverified: boolean; timeoutMs: number };
  /** The environment the proxy for --forward-to is read from, as for every request of gw (curl's rules). */
  proxyEnv?: ProxyEnv;
  /** --verbose: one line per request relayed. */
  log?: (line: string) => void;
  /** Largest body taken (tests make it small). */
  bodyLimit?: number;
  /** Time and connection limits (tests make them small). */
  limits?: Partial<ListenerLimits>;
  /** --catch-up: what catching up on start needs (src/cmdutil/catch-up.ts). */
  catchUp?: () => Promise<CatchUpSetup>;
}

interface ListenFlags {
  port?: string;
  host: string;
  path: string;
  forwardTo?: string;
  forwardUnverified?: boolean;
  forwardTimeout: string;
  catchUp?: boolean;
}

export function newCmdListen(f: Factory, runF: (opts: ListenOptions) => Promise<void> = listenRun): Command {
  const command = new Command('listen')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--path <path>', 'the path notifications are POSTed to (the callback URL’s path)', '/')
    .option(
      '--forward-to <url>',
      'relay each verified notification (same bytes and HMAC header) to your application, and answer the gateway ok only when it answered 2xx',
    )
    .option('--forward-unverified', 'also relay notifications that do not verify, marked with the header X-Gw-Unverified: <reason>')
    .option('--forward-timeout <seconds>', 'how long the application may take to answer', '10')
    .option('--catch-up', 'on start, deliver each payment state change the gateway history shows that this receiver missed (marked X-Gw-Recovered: 1)')
    .action((_flags: unknown, cmd: Command) => {
      const flags = cmd.opts<ListenFlags>();
      if (flags.forwardUnverified === true && flags.forwardTo === undefined) throw new UsageError('--forward-unverified needs --forward-to <url>');
      return runF({
        io: f.io,
        clock: f.clock,
        signal: f.signal,
        releaseDeadline: () => f.releaseDeadline(),
        keys: () => configuredKeys(f),
        proxyEnv: f.env,
        ...(f.globals.verbose === true && { log: (line: string) => f.io.err(`${line}\n`) }),
        host: parseHost(flags.host),
        port: parsePort(flags.port),
        path: parsePath(flags.path),
        ...(flags.catchUp === true && { catchUp: async () => (await import('../cmdutil/catch-up.js')).catchUpSetup(f) }),
        ...(flags.forwardTo !== undefined && {
          forward: {
            url: parseHttpUrl(flags.forwardTo, '--forward-to'),
            unverified: flags.forwardUnverified === true,
            timeoutMs: parseSeconds(flags.forwardTimeout, '--forward-timeout'),
          },
        }),
      });
    });
  return withHelp(command, {
    examples: [
      'gw listen --port 8787 --path /hooks',
      'gw listen --port 8787 --forward-to http://127.0.0.1:3000/hooks',
      'gw listen --json | jq -c "select(.event == \\"notification\\") | {verified, trackId, status}"',
    ],
    json: '{"event": "listening", "url"} first, then one line per request: {"event": "notification", "time", "httpStatus", "verified", "code", "reason", "keyKind", "type", "trackId", "status", "gatewayStatus", "amount", "currency", "payAmount", "payCurrency", "orderId", "received", "expected", "difference", "transactions", "body", "repeatedKeys", "forward"}; with --catch-up also {"event": "recovered", "recovered": true, "eventId", "trackId", "status", "delivered", "body", "forward", …} (as gw webhook replay)',
    notes:
      'Keys: the merchant API key verifies payment notifications, the payout API key payout ones (--merchant-key, --payout-key, env or config file). ' +
      'Answers: 200 "ok" only once a verified notification is recorded (its line written to stdout, fsync\'d when stdout is a file) and, with --forward-to, your application answered 2xx; ' +
      '400 not JSON, 401 no HMAC header, 403 signature does not verify, 404 wrong path, 405 not POST, 413 body over 1 MiB, 502/504 the application did not take it, ' +
      '503 stdout could not take it, 508 a notification this receiver relayed came back. The gateway sends again what was not answered 200. ' +
      'Exit codes: 0 stopped by Ctrl-C or SIGTERM, 64 usage (--forward-to this receiver itself), 69 the port is in use, 74 stdout can no longer be written (its reader went away, disk full), 78 no key configured.',
  });
}

function parsePath(text: string): string {
  if (/[\s\u0000-\u001f\u007f?#]/.test(text) || text.length > 200)
    throw new UsageError(`--path must be a URL path such as /hooks (got "${text.slice(0, 40)}")`);
  return text.startsWith('/') ? text : `/${text}`;
}

function parseHost(text: string): string {
  const host = text.trim().replace(/^\[|\]$/g, '');
  if (host === '' || /[\s/?#@]/.test(host)) throw new UsageError(`--host must be an address to listen on, such as 127.0.0.1 (got "${text.slice(0, 40)}")`);
  return host;
}

export async function listenRun(opts: ListenOptions): Promise<void> {
  const { io } = opts;
  opts.releaseDeadline();
  const configured = await opts.keys();
  if (configured.merchant === undefined && configured.payout === undefined) {
    throw new ConfigError(
      'no merchant or payout API key is configured: gw listen verifies notifications with them',
      'set GATEWAY_MERCHANT_KEY (payment notifications) and GATEWAY_PAYOUT_KEY (payout notifications), or merchantKey/payoutKey in your config file',
    );
  }
  const [{ startListener }, { NotificationKeys }] = await Promise.all([import('../notifications/listener.js'), import('../notifications/signature.js')]);
  const keys = new NotificationKeys({ merchant: configured.merchant?.value, payout: configured.payout?.value });
  // The keys never appear in output: IOStreams scrubs every key it knows.
  for (const key of [configured.merchant, configured.payout]) if (key !== undefined && !io.secrets.includes(key.value)) io.secrets.push(key.value);

  // --forward-to goes through the proxy every request of gw would take to that URL (curl's rules);
  // a proxy variable gw cannot use is exit 78 now, not a failure with each notification.
  let forward: ListenerOptions['forward'];
  if (opts.forward !== undefined) {
    const { proxyFor } = await import('../gateway/proxy.js');
    const proxy = proxyFor(opts.forward.url, opts.proxyEnv ?? {});
    forward = { ...opts.forward, ...(proxy && { proxy }), ...(opts.log && { log: opts.log }), secrets: io.secrets };
  }
  /** Hints already printed (once each). */
  const hinted = new Set<string>();

  const stats = { received: 0, verified: 0, notRecorded: 0 };
  let live: ((receipt: Receipt) => void) | undefined;
  const format = receiptFormatter(io);
  // The output is gone (the reader of stdout went away, the disk is full): every notification from
  // now on is answered 503, and gw listen stops with exit 74.
  let outputFailure: NodeJS.ErrnoException | undefined;
  let onOutputFailure: (() => void) | undefined;
  const outputFailed = (error: unknown): void => {
    if (outputFailure !== undefined) return;
    outputFailure = error instanceof Error ? (error as NodeJS.ErrnoException) : new Error(String(error));
    onOutputFailure?.();
  };
  // Lines are written in batches, once per turn of the event loop (group commit): under load one
  // write, one scrub and (when stdout is a file) one fsync carry many notifications instead of one
  // each. A notification is acknowledged only once the write that carries its line has been taken
  // by stdout and fsync'd when stdout is a file (IOStreams.outConfirmed): every line of a batch
  // waits on the batch's one promise, which settles only then.
  type Batch = { text: string[]; acknowledging: number; done: Promise<void>; resolve: () => void; reject: (error: unknown) => void };
  let batch: Batch | undefined;
  let flushing: NodeJS.Immediate | undefined;
  const newBatch = (): Batch => {
    const next = { text: [] as string[], acknowledging: 0 } as Batch;
    next.done = new Promise<void>((resolve, reject) => {
      next.resolve = resolve;
      next.reject = reject;
    });
    // A batch of refusals only is awaited by no one: its failure is no unhandled rejection.
    next.done.catch(() => undefined);
    return next;
  };
  // One batch is written at a time: the lines that come while its write and fsync are under way
  // gather into the next batch, written as soon as it is done (one fsync for all of them).
  let writing: Promise<void> | undefined;
  const flush = (): Promise<void> => {
    flushing = undefined;
    const current = batch;
    if (current === undefined) return writing ?? Promise.resolve();
    if (writing !== undefined) return current.done.catch(() => undefined);
    batch = undefined;
    writing = io
      .outConfirmed(current.text.join(''))
      .then(current.resolve, (error: unknown) => {
        stats.notRecorded += current.acknowledging;
        current.reject(error);
        outputFailed(error);
      })
      .finally(() => {
        writing = undefined;
        if (batch !== undefined) void flush();
      });
    return writing;
  };
  const record = (line: string, acknowledging: boolean): Promise<void> => {
    if (outputFailure !== undefined) {
      if (acknowledging) stats.notRecorded++;
      return Promise.reject(outputFailure);
    }
    batch ??= newBatch();
    batch.text.push(line);
    if (acknowledging) batch.acknowledging++;
    flushing ??= setImmediate(() => void flush());
    return batch.done;
  };
  const options: ListenerOptions = {
    host: opts.host,
    port: opts.port,
    path: opts.path,
    keys,
    now: () => opts.clock.now(),
    ...(forward !== undefined && { forward }),
    ...(opts.bodyLimit !== undefined && { bodyLimit: opts.bodyLimit }),
    ...(opts.limits !== undefined && { limits: opts.limits }),
    onReceipt: (receipt) => {
      stats.received++;
      if (receipt.verified) stats.verified++;
      if (receipt.repeatedKeys.length > 0) io.warn(`${about(receipt)}: ${repeatedKeysText(receipt.repeatedKeys)}`);
      if (receipt.code === 'forward-failed' || receipt.code === 'forward-refused') {
        io.warn(
          `${about(receipt)} not acknowledged (HTTP ${receipt.httpStatus}): ${receipt.reason ?? 'the application did not take it'}; the gateway will send it again`,
        );
        // What to do about it (a certificate this computer does not trust…), once per run.
        const hint = receipt.forward?.result?.ok === false ? receipt.forward.result.hint : undefined;
        if (hint !== undefined && !hinted.has(hint)) {
          hinted.add(hint);
          io.err(`hint: ${hint}\n`);
        }
      }
      const recorded = record(format(receipt), receipt.httpStatus === 200);
      // --catch-up: a notification recorded and answered 200 is remembered, never caught up again.
      return live === undefined || receipt.httpStatus !== 200 || !receipt.verified ? recorded : recorded.then(() => live?.(receipt));
    },
  };
  const where = `${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}`;
  // A closed stdout (`gw listen >&-`) takes every write and keeps none: without --forward-to,
  // every notification would be acknowledged and recorded nowhere.
  if (io.stdoutLooksClosed) {
    if (opts.forward === undefined) {
      throw new GwError(ExitCode.IOERR, 'stdout is closed: gw listen would acknowledge notifications and record them nowhere', {
        hint: 'send its output to a file or a pipe (gw listen >> notifications.log), or relay them with --forward-to',
      });
    }
    io.warn('stdout is closed: the notifications are recorded only by the application --forward-to relays them to');
  }
  if (opts.forward !== undefined && opts.port !== 0 && (await forwardsToItself(opts.forward.url, opts.host, opts.port))) {
    throw relayLoop(opts.forward.url, where);
  }
  const restoreWarnings = routeProcessWarnings(io);
  let listener: Awaited<ReturnType<typeof startListener>> | undefined;
  try {
    listener = await startListener(options).catch((error: NodeJS.ErrnoException) => {
      throw bindFailure(error, 'notifications', where);
    });
    // A free port was chosen: the one --forward-to names, by chance?
    const bound = Number(new URL(listener.url).port);
    if (opts.forward !== undefined && opts.port === 0 && (await forwardsToItself(opts.forward.url, opts.host, bound))) {
      throw relayLoop(opts.forward.url, where.replace(/:0$/, `:${bound}`));
    }
    if (!isLoopbackHost(opts.host)) {
      io.warn(
        `listening on ${where.replace(/:\d+$/, '')}, which other machines can reach: anyone who can reach it can send requests (only correctly signed notifications are acknowledged); use --host 127.0.0.1 behind a tunnel or proxy when you can`,
      );
    }
    if (io.json) {
      await record(`${toJson({ event: 'listening', url: listener.url, keys: keys.kinds, forwardTo: opts.forward?.url.href ?? null }, 0)}\n`, false).catch(
        () => undefined,
      );
    } else {
      const using = [
        configured.merchant === undefined ? 'no merchant key: payment notifications will be refused' : `the merchant key from ${configured.merchant.from}`,
        configured.payout === undefined ? 'no payout key: payout notifications will be refused' : `the payout key from ${configured.payout.from}`,
      ];
      io.notice(
        `Listening for notifications on ${listener.url} (POST; signatures checked with ${using.join(', and ')})\n` +
          (opts.forward === undefined
            ? ''
            : `Relaying ${opts.forward.unverified ? 'every notification (unverified ones marked X-Gw-Unverified)' : 'verified notifications'} to ${opts.forward.url.href}\n`) +
          'Press Ctrl-C to stop.',
      );
    }
    if (opts.catchUp !== undefined) {
      const { listenCatchUp } = await import('../cmdutil/catch-up.js');
      live = await listenCatchUp(opts.catchUp, {
        io,
        merchantKey: configured.merchant?.value,
        now: () => opts.clock.now(),
        record: (line) => record(line, false),
        onLive: (remember) => {
          live = remember;
        },
        ...(forward !== undefined && {
          forward: { url: forward.url, timeoutMs: forward.timeoutMs, ...(forward.proxy && { proxy: forward.proxy }), secrets: io.secrets },
        }),
      });
    }
    await new Promise<void>((resolve) => {
      onOutputFailure = resolve;
      if (outputFailure !== undefined || opts.signal.aborted) resolve();
      else opts.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await listener?.close();
    clearImmediate(flushing);
    await flush();
    restoreWarnings();
  }
  if (outputFailure !== undefined) {
    const code = outputFailure.code ?? outputFailure.message;
    const lost = stats.notRecorded;
    throw new GwError(
      ExitCode.IOERR,
      lost === 0
        ? `stopped: stdout can no longer be written (${code}), so no notification can be acknowledged any more`
        : `stopped: stdout can no longer be written (${code}); ${lost} notification${lost === 1 ? ' was' : 's were'} answered HTTP 503, not acknowledged, so the gateway sends ${lost === 1 ? 'it' : 'them'} again`,
    );
  }
  io.notice(`Stopped: ${stats.received} request${stats.received === 1 ? '' : 's'}, ${stats.verified} verified.`);
}

function relayLoop(url: URL, where: string): UsageError {
  return new UsageError(
    `--forward-to ${url.href} is this receiver itself (${where}): each notification would be relayed back to it`,
    "point --forward-to at your application's address and port",
  );
}

/**
 * Whether `url` reaches this receiver, listening on `host`:`port`: the same port, and an address
 * the receiver is bound to (any address of this machine when it listens on all of them). Whatever
 * the path: another path on this receiver only ever answers 404. A host name is resolved (within
 * 2 s; when it cannot be, it is taken to be elsewhere).
 */
export async function forwardsToItself(url: URL, host: string, port: number): Promise<boolean> {
  const forwardPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (forwardPort !== port) return false;
  const { isIP } = await import('node:net');
  const resolve = async (name: string): Promise<string[]> => {
    const bare = name.replace(/^\[|\]$/g, '');
    if (isIP(bare) !== 0) return [bare];
    const { lookup } = await import('node:dns/promises');
    const found = await Promise.race([
      lookup(bare, { all: true }).then((all) => all.map((a) => a.address)),
      new Promise<string[]>((done) => setTimeout(() => done([]), 2000).unref()),
    ]).catch(() => []);
    return found;
  };
  const plain = (address: string): string => address.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  const targets = (await resolve(url.hostname)).map(plain);
  const listening = plain(host.replace(/^\[|\]$/g, ''));
  if (listening === '0.0.0.0' || listening === '::') {
    const { networkInterfaces } = await import('node:os');
    const local = new Set(
      Object.values(networkInterfaces())
        .flat()
        .map((i) => plain(i?.address ?? '')),
    );
    return targets.some((t) => local.has(t) || isLoopbackHost(t) || t === '0.0.0.0' || t === '::');
  }
  const bound = new Set((await resolve(listening)).map(plain));
  return targets.some((t) => bound.has(t));
}

/** "notification 184729305" (its track id), for a one-line warning. */
function about(receipt: Receipt): string {
  const trackId = receipt.summary?.trackId;
  return trackId === null || trackId === undefined ? 'a notification' : `notification ${trackId.line(40)}`;
}

/** Whether an address to listen on is this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * While gw listen runs, Node's runtime warnings (MaxListenersExceededWarning, deprecations…) go
 * through IOStreams as one sanitised line each (`gw: warning: …`, or a JSON line), never as Node's
 * raw multi-line text. src/main.ts routes them so for every command; listenRun does it as well for
 * when it runs in another process (a test's). Returns the function that puts the previous handlers back.
 */
function routeProcessWarnings(io: IOStreams): () => void {
  const previous = process.listeners('warning');
  const onWarning = (warning: Error): void => io.runtimeWarning(warning);
  process.removeAllListeners('warning');
  process.on('warning', onWarning);
  return () => {
    process.off('warning', onWarning);
    for (const listener of previous) if (!process.listeners('warning').includes(listener)) process.on('warning', listener);
  };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Width of the verdict column ("not taken 504"). */
const VERDICT_WIDTH = 13;

/** The last second clockTime wrote, and its text: under load many notifications share a second. */
let clockSecond = Number.NaN;
let clockText = '';

function clockTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== clockSecond) {
    const d = new Date(ms);
    clockText = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
    clockSecond = second;
  }
  return clockText;
}

/** Printable ASCII words with single spaces between them: text that oneLine (Untrusted.line) returns unchanged. */
const PLAIN_WORDS = /^[!-~]+(?: [!-~]+)*$/;

/**
 * `text.line(max)`, without its five passes over the text when the text is plain words that fit,
 * as almost every field of a real notification is (the same result, cheaper: this runs several
 * times per line).
 */
function field(text: Untrusted, max: number): string {
  const raw = text.raw();
  return raw.length <= max && PLAIN_WORDS.test(raw) ? raw : text.line(max);
}

function amountText(amount: Amount | null, currency: Untrusted | null): string | undefined {
  if (amount === null) return undefined;
  return currency === null ? `${amount}` : `${amount} ${field(currency, 20)}`;
}

/**
 * "received 0.0005 BTC", summed from the notification's transactions (a confirming one labelled),
 * when it lists any; undefined when it lists none or does not say (legacy notifications).
 */
function receivedWords(arrival: Arrival): string | undefined {
  if (arrival.received === null || (arrival.transactions?.length ?? 0) === 0) return undefined;
  const total = amountsWords(arrival.received);
  let words = `received ${total}`;
  if (arrival.unconfirmed.size > 0) {
    const unconfirmed = amountsWords(arrival.unconfirmed);
    words += unconfirmed === total ? ' (not confirmed yet)' : ` (${unconfirmed} not confirmed yet)`;
  }
  if (arrival.incomplete) words += ', and a transaction whose amount gw could not read';
  return words;
}

/** What arrived according to the receipt's body, from the fields the receiver parsed when it has them. */
function arrivalOf(r: Receipt): ReturnType<typeof notificationArrival> {
  if (r.fields !== undefined) return arrivalOfFields(r.fields);
  return r.body === undefined ? undefined : notificationArrival(r.body);
}

/** One line per request (or one NDJSON object with --json). */
function receiptFormatter(io: IOStreams): (receipt: Receipt) => string {
  if (io.json) {
    return (r) => {
      const s = r.summary;
      const f = r.forward;
      // What arrived (src/domain/notification-arrival.ts): the same fields as gw status --json.
      const arrived = s === undefined || s.payoutState !== null || r.body === undefined ? undefined : arrivalOf(r);
      return `${toJson(
        {
          event: 'notification',
          time: new Date(r.at).toISOString(),
          method: Untrusted.of(r.method),
          path: Untrusted.of(r.path),
          httpStatus: r.httpStatus,
          verified: r.verified,
          code: r.code,
          reason: r.reason === undefined ? null : r.reason,
          keyKind: r.keyKind ?? null,
          type: s?.type ?? null,
          trackId: s?.trackId ?? null,
          status: s?.payoutState ?? arrived?.state ?? s?.state ?? null,
          gatewayStatus: s?.gatewayStatus ?? null,
          amount: s?.amount ?? null,
          currency: s?.currency ?? null,
          // A v1 body states no pay amount: null, not its transactions summed (those are `received`).
          payAmount: s === undefined || s.payAmountFromTxs ? null : s.payAmount,
          payCurrency: s?.payCurrency ?? null,
          orderId: s?.orderId ?? null,
          ...(arrived?.json ?? { received: null, expected: null, difference: null, transactions: null }),
          body: r.body === undefined ? null : Untrusted.of(r.body.toString('utf8')),
          repeatedKeys: r.repeatedKeys.map((k) => Untrusted.of(k)),
          forward:
            f === undefined
              ? null
              : {
                  sent: f.sent,
                  unverified: f.unverified,
                  status: f.result?.ok === true ? f.result.status : null,
                  body: f.result?.ok === true ? Untrusted.of(f.result.body) : null,
                  error: f.result?.ok === false ? f.result.message : null,
                  ms: f.result?.ms ?? null,
                },
        },
        0,
      )}\n`;
    };
  }
  const verified = io.chalk.green('verified'.padEnd(VERDICT_WIDTH));
  return (r) => {
    const c = io.chalk;
    const s = r.summary;
    const parts: string[] = [clockTime(r.at)];
    const relayFailed = r.code === 'forward-failed' || r.code === 'forward-refused';
    const verdict = r.httpStatus === 200 ? 'verified' : relayFailed ? `not taken ${r.httpStatus}` : `refused ${r.httpStatus}`;
    parts.push(r.httpStatus === 200 ? verified : c.red(verdict.padEnd(VERDICT_WIDTH)));
    if (s === undefined) {
      parts.push(`${Untrusted.of(r.method).line(10)} ${Untrusted.of(r.path).line(60)}`);
    } else {
      parts.push(s.type === null ? '(no type)' : field(s.type, 20), s.trackId === null ? '(no track id)' : field(s.trackId, 40));
      const arrived = s.payoutState !== null || r.body === undefined ? undefined : arrivalOf(r);
      const state = s.payoutState ?? arrived?.state ?? s.state;
      parts.push(s.gatewayStatus === null ? 'no status' : `${state === 'paid' ? c.bold(state) : state} (${field(s.gatewayStatus, 30)})`);
      const amount = amountText(s.amount, s.currency);
      if (amount !== undefined) parts.push(amount);
      // What arrived, from the transactions (confirming and failed ones told apart); a pay amount
      // only when the body states one (a v1 body's would be its transactions summed again).
      const received = arrived === undefined ? undefined : receivedWords(arrived.arrival);
      const paid = received !== undefined && s.payAmountFromTxs ? undefined : amountText(s.payAmount, s.payCurrency);
      if (paid !== undefined) parts.push(`pay ${paid}`);
      if (received !== undefined) parts.push(received);
      if (s.orderId !== null) parts.push(`order ${field(s.orderId, 40)}`);
    }
    let line = parts.join('  ');
    if (r.reason !== undefined && !relayFailed) line += ` — ${Untrusted.of(r.reason).line(200)}`;
    const f = r.forward;
    if (f !== undefined) {
      if (!f.sent) line += '  → app: not relayed (unverified)';
      else if (f.result?.ok === true) {
        const body = f.result.body === '' ? '' : ` "${Untrusted.of(f.result.body).line(40)}"`;
        line += `  → app${f.unverified ? ' (marked unverified)' : ''}: HTTP ${f.result.status}${body} in ${f.result.ms} ms`;
      } else if (f.result !== undefined) line += `  → app${f.unverified ? ' (marked unverified)' : ''}: ${f.result.message}`;
      if (relayFailed) line += '; the gateway will send it again';
    }
    return `${line}\n`;
  };
}
