// gw webhook verify|send: check a notification's signature offline, and send a realistic signed
// notification to a receiver to see whether it answers as the gateway requires.
//
// Exit codes (also in --help):
//   verify: 0 verifies · 1 does not verify (the likely cause is printed) · 64 usage (no body, no
//           signature, unreadable file) · 78 no key configured to verify with
//   send:   0 the endpoint answered HTTP 200 with the body `ok` · 1 it answered, otherwise ·
//           64 usage · 69 it could not be reached · 74 sent, but stdout lost the output · 75 no answer
//           in time · 78 no key to sign with
import type { FileHandle } from 'node:fs/promises';
import { Command } from 'commander';
import { parseHttpUrl, parseSymbol, parseText } from '../cmdutil/args.js';
import type { Clock } from '../util/clock.js';
import { deliverOutput } from '../cmdutil/deliver-output.js';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { parseSeconds, parseWhen } from '../cmdutil/time-args.js';
import { configuredKeys, repeatedKeysText, type NotificationKeySettings } from '../cmdutil/notifications.js';
import { isFiat } from '../domain/payment-rules.js';
import { fractionDigits, multiplyRounded, parsePositiveDecimal } from '../money/decimal.js';
import { parseState, type PaymentState } from '../domain/payment-status.js';
import { ConfigError, ExitCode, GwError, UsageError } from '../errors.js';
import { MAX_ATTEMPTS, whyNotAcknowledged } from '../notifications/acknowledge.js';
import type { NotificationPayment } from '../notifications/payload.js';
import { NOTIFICATION_TYPES, V1_TYPES, defaultType, type NotificationStyle, type NotificationType } from '../notifications/types.js';
import type { ProxyEnv } from '../gateway/proxy.js';
import type { IOStreams } from '../output/iostreams.js';
import { Untrusted } from '../output/untrusted.js';
import { abortable } from '../util/abortable.js';

/** Exit code of a check that says no: the signature does not verify, the endpoint did not answer `ok`. */
export const NOT_VERIFIED = ExitCode.REFUSED;

/** Largest body or header file read. */
const INPUT_LIMIT = 1024 * 1024;

export interface WebhookVerifyOptions {
  io: IOStreams;
  /** The command's signal: Ctrl-C, SIGTERM or --timeout end a read that is still waiting. */
  signal?: AbortSignal;
  keys: () => Promise<NotificationKeySettings>;
  /** The body: a file, or stdin when undefined or "-". */
  file: string | undefined;
  /** The signature as given with --hmac. */
  hmac?: string;
  /** A saved header block holding an `HMAC: …` line. */
  headerFile?: string;
}

export interface WebhookSendOptions {
  io: IOStreams;
  clock: Clock;
  signal: AbortSignal;
  keys: () => Promise<NotificationKeySettings>;
  url: URL;
  style: NotificationStyle;
  type: NotificationType;
  status: PaymentState;
  trackId?: string;
  orderId?: string;
  amount: string;
  currency: string;
  /** Longest wait for the answer (the command's deadline applies too). */
  timeoutMs: number;
  /** The environment the proxy is read from, as for every request of gw (curl's rules, NO_PROXY). */
  proxyEnv?: ProxyEnv;
  /** --verbose: one line for the request (method, URL, status, time, size). */
  log?: (line: string) => void;
}

interface VerifyFlags {
  hmac?: string;
  headerFile?: string;
}

interface SendFlags {
  status: string;
  type?: string;
  style?: string;
  trackId?: string;
  orderId?: string;
  amount: string;
  currency: string;
}

export function newCmdWebhook(
  f: Factory,
  verifyF: (opts: WebhookVerifyOptions) => Promise<void> = webhookVerifyRun,
  sendF: (opts: WebhookSendOptions) => Promise<void> = webhookSendRun,
): Command {
  const verify = new Command('verify')
    .description("check a notification's HMAC signature against its body, and say why it fails")
    .argument('[file]', 'the body exactly as received (default: stdin; "-" for stdin)')
    .option('--hmac <hex>', 'the signature (the HMAC header’s value)')
    .option('--header-file <file>', 'a saved header block with an "HMAC: …" line (curl -D, a proxy log…)')
    .action((file: string | undefined, flags: VerifyFlags) => {
      if (flags.hmac === undefined && flags.headerFile === undefined) throw new UsageError('give the signature: --hmac <hex> or --header-file <file>');
      if (flags.hmac !== undefined && flags.headerFile !== undefined) throw new UsageError('give the signature once: --hmac or --header-file, not both');
      if ((file === undefined || file === '-') && f.io.stdinIsTTY) throw new UsageError('give the body: a file, or pipe it on stdin');
      return verifyF({
        io: f.io,
        signal: f.signal,
        keys: () => configuredKeys(f),
        file,
        ...(flags.hmac !== undefined && { hmac: flags.hmac }),
        ...(flags.headerFile !== undefined && { headerFile: flags.headerFile }),
      });
    });
  withHelp(verify, {
    examples: [
      'gw webhook verify body.json --hmac 3f1c…',
      'gw webhook verify body.json --header-file headers.txt',
      'pbpaste | gw webhook verify --hmac "$SIG" --json',
    ],
    json: '{"verified", "keyKind", "expectedKeyKind", "type", "trackId", "status", "bodyBytes", "causes": [{"code", "message"}]}',
    notes:
      'The body (a file, a pipe such as <(…), or stdin) is read to its end: at most 1 MiB, within --timeout. ' +
      'Exit codes: 0 verifies, 1 does not verify (the likely cause is printed: wrong key kind, body changed after signing — trailing newline, line endings, JSON re-serialised — or a signature upper-cased, cut short, base64 or SHA-256), 64 usage (no body, a body over 1 MiB, an unreadable file), 75 the body did not end within --timeout, 78 no key configured, 130/143 Ctrl-C/SIGTERM.',
  });

  const send = new Command('send')
    .description('send a realistic signed notification to a receiver and check that it answers as the gateway requires (HTTP 200, body "ok")')
    .argument('<url>', "the receiver's URL (your callback URL)")
    .option(
      '--status <state>',
      'the payment state it reports: new, waiting, confirming, paid, underpaid, expired (nothing arrived), late (expired, with the full amount arrived after), failed, refunding, refunded',
      'paid',
    )
    .option('--type <type>', `the notification type: ${NOTIFICATION_TYPES.join(', ')} (payout is signed with the payout key)`)
    .option('--style <style>', 'legacy (camelCase, as for payments made through the legacy endpoints) or v1 (snake_case, the versioned API)')
    .option('--track-id <id>', 'the track id it carries (default: a made-up one)')
    .option('--order-id <id>', 'the order id it carries')
    .option('--amount <amount>', 'the payment amount', '25')
    .option('--currency <symbol>', 'the payment currency', 'USDT')
    .action((url: string, flags: SendFlags) => {
      // --json: the document comes on every documented exit, a usage error's (64) included.
      try {
        return sendAction(url, flags);
      } catch (error) {
        if (f.io.json && error instanceof UsageError) printSendDocument(f.io, { url, error: error.message });
        throw error;
      }
    });
  const sendAction = (url: string, flags: SendFlags): Promise<void> => {
    const status = parseState(flags.status);
    if (status === undefined || status === 'unknown')
      throw new UsageError(`--status must be a payment state such as paid or confirming (got "${flags.status.slice(0, 30)}")`);
    let type: NotificationType | undefined;
    if (flags.type !== undefined) {
      const t = flags.type.trim().toLowerCase();
      if (!(NOTIFICATION_TYPES as readonly string[]).includes(t))
        throw new UsageError(`--type must be one of ${NOTIFICATION_TYPES.join(', ')} (got "${flags.type.slice(0, 30)}")`);
      type = t as NotificationType;
    }
    let style: NotificationStyle;
    if (flags.style !== undefined) {
      const s = flags.style.trim().toLowerCase();
      if (s !== 'legacy' && s !== 'v1') throw new UsageError(`--style must be legacy or v1 (got "${flags.style.slice(0, 20)}")`);
      style = s;
    } else {
      style = type !== undefined && type !== 'payout' && (V1_TYPES as readonly string[]).includes(type) ? 'v1' : 'legacy';
    }
    const currency = parseSymbol(flags.currency, '--currency');
    return sendF({
      io: f.io,
      clock: f.clock,
      signal: f.signal,
      keys: () => configuredKeys(f),
      url: parseHttpUrl(url, '<url>'),
      style,
      type: type ?? defaultType(style),
      status,
      ...(flags.trackId !== undefined && { trackId: parseId(flags.trackId, '--track-id') }),
      ...(flags.orderId !== undefined && { orderId: parseText(flags.orderId, '--order-id', 100) }),
      amount: parseAmount(flags.amount, '--amount'),
      currency,
      timeoutMs: 30_000,
      proxyEnv: f.env,
      ...(f.globals.verbose === true && { log: (line: string) => f.io.err(`${line}\n`) }),
    });
  };
  withHelp(send, {
    examples: [
      'gw webhook send http://127.0.0.1:3000/hooks',
      'gw webhook send http://127.0.0.1:3000/hooks --status confirming --order-id 1042',
      'gw webhook send http://127.0.0.1:3000/hooks --style v1 --type invoice --json',
    ],
    json: '{"url", "style", "type", "trackId", "status", "gatewayStatus", "hmac", "body", "answer": {"status", "body", "ms"} | null, "error", "acknowledged"}',
    notes:
      'Exit codes: 0 the receiver answered HTTP 200 with the body "ok", 1 it answered otherwise, 64 usage, 69 unreachable, 74 it was sent but stdout lost the output (closed, full), 75 no answer in time, 78 no key to sign with, 130/143 Ctrl-C/SIGTERM. ' +
      'With --json the document is printed on each of these exits; "error" says what went wrong (null when it answered), and fields not known yet are null.',
  });

  const replay = new Command('replay')
    .description(
      "deliver the payment state changes the gateway's history shows and this receiver missed (signed as the gateway signs, marked X-Gw-Recovered: 1), each once",
    )
    .requiredOption('--since <when>', 'payments created from: 2026-11-01, today, yesterday, this-month, 2026-11-01T14:30, or a duration ago (2h, 7d)')
    .option('--until <when>', 'payments created up to (default now)')
    .option('--forward-to <url>', 'POST each one to your application (else: --json prints each with its body; without --json, a preview that delivers nothing)')
    .option('--forward-timeout <seconds>', 'how long the application may take to answer each', '10')
    .action(async (flags: { since: string; until?: string; forwardTo?: string; forwardTimeout: string }) => {
      const now = f.clock.now();
      const since = parseWhen(flags.since, '--since', now);
      const until = flags.until === undefined ? undefined : parseWhen(flags.until, '--until', now, true);
      if (until !== undefined && until < since) throw new UsageError('--until is before --since');
      const forward =
        flags.forwardTo === undefined
          ? undefined
          : { url: parseHttpUrl(flags.forwardTo, '--forward-to'), timeoutMs: parseSeconds(flags.forwardTimeout, '--forward-timeout') };
      const { webhookReplayRun } = await import('../cmdutil/catch-up.js');
      return webhookReplayRun(f, { since, ...(until !== undefined && { until }), ...(forward !== undefined && { forward }) });
    });
  withHelp(replay, {
    examples: ['gw webhook replay --since 2h --forward-to http://127.0.0.1:3000/hooks', 'gw webhook replay --since yesterday --json'],
    json: 'one line per recovered notification: {"event": "recovered", "recovered": true, "time", "eventId", "trackId", "status", "type", "style", "orderId", "delivered", "body", "forward": {"status", "error"} | null}',
    notes:
      'What was delivered (and what gw listen --catch-up saw) is kept per profile in the state folder, so a change is delivered once. ' +
      'Only a delivery that carries the body counts: a --json record, or a 2xx from --forward-to; the text lines (no --json, no --forward-to) are a preview and record nothing. ' +
      'Exit codes: 0 every missed change delivered, 64 usage, 69 --forward-to did not take some (the next run sends them), 76 the history was incomplete, 78 no merchant key.',
  });

  return new Command('webhook')
    .addCommand(verify)
    .addCommand(send)
    .addCommand(replay)
    .action(() => {
      throw new UsageError('gw webhook needs a subcommand: verify, send or replay', 'see gw webhook --help');
    });
}

function parseId(text: string, flag: string): string {
  const id = text.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new UsageError(`${flag} must be letters, digits, "_" or "-" (got "${text.slice(0, 30)}")`);
  return id;
}

/**
 * Reads a file to its end (at most INPUT_LIMIT bytes); a problem is a usage error naming the file.
 * A regular file is read at once; a pipe or device (a FIFO, `<(…)`, /dev/stdin) as a stream,
 * until it ends, and no longer than the command's signal allows.
 */
async function readInput(file: string, what: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const { open, stat } = await import('node:fs/promises');
  let handle: FileHandle | undefined;
  try {
    // stat() never blocks; opening a FIFO waits for its writer, so it is streamed instead.
    const info = await stat(file);
    if (info.isDirectory()) throw new UsageError(`${what} ${file} is not a regular file`);
    if (!info.isFile()) {
      const { createReadStream } = await import('node:fs');
      const stream = createReadStream(file);
      stream.on('error', () => undefined); // reported by the read below
      try {
        const read = await readBounded(stream, signal, `${what} ${file}`);
        if (read === 'too-large') throw new UsageError(`${what} ${file} is larger than ${INPUT_LIMIT} bytes`);
        return read;
      } finally {
        stream.destroy();
      }
    }
    if (info.size > INPUT_LIMIT) throw new UsageError(`${what} ${file} is larger than ${INPUT_LIMIT} bytes`);
    handle = await open(file, 'r');
    const content = await handle.readFile();
    if (content.length > INPUT_LIMIT) throw new UsageError(`${what} ${file} is larger than ${INPUT_LIMIT} bytes`);
    return content;
  } catch (error) {
    if (error instanceof GwError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${what} ${file} (${code})`);
  } finally {
    await handle?.close();
  }
}

/**
 * Reads `source` to its end, at most INPUT_LIMIT bytes ('too-large' past them, read no further),
 * until `signal` aborts: then it fails with the signal's reason (Ctrl-C 130, SIGTERM 143), the
 * deadline's said as what it is: an input that did not end in time (exit 75).
 */
function readBounded(
  source: AsyncIterable<unknown> | Promise<Buffer | 'too-large'>,
  signal: AbortSignal | undefined,
  what: string,
): Promise<Buffer | 'too-large'> {
  const reading =
    source instanceof Promise
      ? source
      : (async () => {
          const chunks: Buffer[] = [];
          let total = 0;
          for await (const chunk of source) {
            const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk as Uint8Array);
            total += bytes.length;
            if (total > INPUT_LIMIT) return 'too-large' as const;
            chunks.push(bytes);
          }
          return Buffer.concat(chunks, total);
        })();
  if (signal === undefined) return reading;
  return abortable(reading, signal).catch((error: unknown) => {
    if (error instanceof GwError && error.exitCode === ExitCode.TEMPFAIL && signal.aborted && error === signal.reason) {
      throw error.with({
        message: `${what} did not end: ${error.message}`,
        hint: 'give a file, or a pipe whose writer finishes (close it, or end the input with Ctrl-D)',
      });
    }
    throw error;
  });
}

/**
 * The signature from a saved header block, liberally: an `HMAC: …` line (any case, `:` or `=`,
 * quoted or not, as in curl -D dumps, `-H 'HMAC: …'` or a JSON header map), else the whole file
 * when it is one token.
 */
export function signatureFromHeaderText(text: string): string | undefined {
  const match = /(?:^|[\s'"{,])hmac["']?\s*[:=]\s*["']?([^\s"',}]+)/im.exec(text);
  if (match?.[1] !== undefined) return match[1];
  const whole = text.trim();
  return /^[A-Za-z0-9+/=_-]{16,}$/.test(whole) ? whole : undefined;
}

export async function webhookVerifyRun(opts: WebhookVerifyOptions): Promise<void> {
  const { io } = opts;
  let signature: string;
  if (opts.headerFile !== undefined) {
    const found = signatureFromHeaderText((await readInput(opts.headerFile, 'the header file', opts.signal)).toString('utf8'));
    if (found === undefined) throw new UsageError(`the header file ${opts.headerFile} has no "HMAC: …" line`);
    signature = found;
  } else {
    signature = (opts.hmac ?? '').trim().replace(/^["']|["']$/g, '');
    if (signature === '') throw new UsageError('--hmac is empty');
  }
  let body: Buffer;
  if (opts.file === undefined || opts.file === '-') {
    const read = await readBounded(io.readStdin(INPUT_LIMIT), opts.signal, 'the body on stdin');
    if (read === 'too-large') throw new UsageError(`the body on stdin is larger than ${INPUT_LIMIT} bytes`);
    body = read;
  } else {
    body = await readInput(opts.file, 'the body file', opts.signal);
  }
  if (body.length === 0) throw new UsageError(`the body is empty (${opts.file === undefined || opts.file === '-' ? 'nothing came on stdin' : opts.file})`);

  const configured = await opts.keys();
  if (configured.merchant === undefined && configured.payout === undefined) {
    throw new ConfigError(
      'no merchant or payout API key is configured to verify with',
      'set GATEWAY_MERCHANT_KEY and/or GATEWAY_PAYOUT_KEY, or merchantKey/payoutKey in your config file',
    );
  }
  const [{ NotificationKeys, keyName }, { diagnose }, { readNotification }] = await Promise.all([
    import('../notifications/signature.js'),
    import('../notifications/signature-diagnosis.js'),
    import('../notifications/decode.js'),
  ]);
  const keys = new NotificationKeys({ merchant: configured.merchant?.value, payout: configured.payout?.value });
  const read = readNotification(body);
  const summary = read.ok ? read.summary : undefined;
  if (read.ok && read.repeatedKeys.length > 0) {
    io.warn(repeatedKeysText(read.repeatedKeys));
  }
  const diagnosis = diagnose(body, signature, summary?.type?.raw(), keys);
  const from = (kind: 'merchant' | 'payout'): string => configured[kind]?.from ?? '?';

  if (io.json) {
    io.printJson({
      verified: diagnosis.verified,
      keyKind: diagnosis.keyKind ?? null,
      expectedKeyKind: diagnosis.expectedKind ?? null,
      type: summary?.type ?? null,
      trackId: summary?.trackId ?? null,
      status: summary?.state ?? null,
      gatewayStatus: summary?.gatewayStatus ?? null,
      bodyBytes: body.length,
      causes: diagnosis.causes,
      repeatedKeys: read.ok ? read.repeatedKeys : [],
    });
  } else {
    const c = io.chalk;
    const about =
      summary === undefined
        ? `  the body is not a JSON object (${body.length} bytes)\n`
        : `  ${summary.type?.line(20) ?? '(no type)'} notification, track id ${summary.trackId?.line(40) ?? '(none)'}, status ${summary.gatewayStatus?.line(30) ?? '(none)'} (${summary.state}), ${body.length} bytes\n`;
    if (diagnosis.verified && diagnosis.keyKind !== undefined) {
      io.out(`${c.green('verified')}: the HMAC-SHA512 of the body with the ${keyName(diagnosis.keyKind)} (from ${from(diagnosis.keyKind)}) matches\n${about}`);
      for (const cause of diagnosis.causes) io.out(`  note: ${cause.message}\n`);
    } else {
      const expected =
        diagnosis.expectedKind === undefined ? '' : ` (a ${summary?.type?.line(20) ?? ''} notification is signed with the ${keyName(diagnosis.expectedKind)})`;
      io.out(`${c.red('does not verify')}${expected}\n${about}`);
      for (const cause of diagnosis.causes) io.out(`  - ${cause.message}\n`);
    }
  }
  if (!diagnosis.verified) {
    const first = diagnosis.causes[0];
    throw new GwError(NOT_VERIFIED, 'the signature does not verify', first === undefined ? {} : { hint: `likely cause: ${first.code}` });
  }
}

const SEND_ADDRESS = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';

/** The fields of `gw webhook send --json`'s document, all of them on every exit (null when not known). */
interface SendDocument {
  url: string;
  style?: string | null;
  type?: string | null;
  trackId?: string | null;
  status?: string | null;
  gatewayStatus?: string | null;
  hmac?: string | null;
  body?: string | null;
  answer?: { status: number; body: Untrusted; ms: number } | null;
  error?: string | null;
  acknowledged?: boolean;
}

function printSendDocument(io: IOStreams, d: SendDocument): void {
  io.printJson({
    url: d.url,
    style: d.style ?? null,
    type: d.type ?? null,
    trackId: d.trackId ?? null,
    status: d.status ?? null,
    gatewayStatus: d.gatewayStatus ?? null,
    hmac: d.hmac ?? null,
    body: d.body ?? null,
    answer: d.answer ?? null,
    error: d.error ?? null,
    acknowledged: d.acknowledged ?? false,
  });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function webhookSendRun(opts: WebhookSendOptions): Promise<void> {
  const { io } = opts;
  const kind = opts.type === 'payout' ? 'payout' : 'merchant';
  const [{ buildNotification, fakeTxId, hasTransaction, statusText }, { signBody, SIGNATURE_HEADER_NAME }, { postBytes }, { proxyFor }] = await Promise.all([
    import('../notifications/payload.js'),
    import('../notifications/signature.js'),
    import('../gateway/post.js'),
    import('../gateway/proxy.js'),
  ]);
  const nowS = Math.floor(opts.clock.now() / 1000);
  const trackId = opts.trackId ?? String(100_000_000 + (nowS % 900_000_000));
  const gatewayStatus = statusText(opts.status, opts.style);
  const known: SendDocument = { url: opts.url.href, style: opts.style, type: opts.type, trackId, status: opts.status, gatewayStatus };
  /** With --json, the document before the failure that ends the command. */
  const fail = (error: unknown, more: SendDocument = known): never => {
    if (io.json) printSendDocument(io, { ...more, error: messageOf(error) });
    throw error;
  };

  const configured = await opts.keys().catch((error: unknown) => fail(error));
  // The proxy every request of gw to this URL would take; one gw cannot use is exit 78, nothing sent.
  let proxy: ReturnType<typeof proxyFor>;
  try {
    proxy = proxyFor(opts.url, opts.proxyEnv ?? {});
  } catch (error) {
    return fail(error);
  }
  const key = configured[kind];
  if (key === undefined) {
    fail(
      new ConfigError(
        `no ${kind} API key is configured to sign a ${opts.type} notification with`,
        kind === 'payout' ? 'set GATEWAY_PAYOUT_KEY or payoutKey in your config file' : 'set GATEWAY_MERCHANT_KEY or merchantKey in your config file',
      ),
    );
    return;
  }
  const fiat = isFiat(opts.currency);
  const seen = hasTransaction(opts.status);
  const payment: NotificationPayment = {
    trackId,
    status: opts.status,
    amount: opts.amount,
    currency: opts.currency,
    payAmount: opts.amount,
    payCurrency: fiat ? 'USDT' : opts.currency,
    network: 'Tron Network',
    address: SEND_ADDRESS,
    receivedAmount: !seen ? '0' : opts.status === 'underpaid' ? halfOf(opts.amount) : opts.amount,
    txID: fakeTxId(trackId),
    description: '',
    email: '',
    orderId: opts.orderId ?? '',
    feePaidByPayer: 0,
    underPaidCover: '0',
    createdAt: nowS - 600,
    payDate: opts.status === 'paid' || opts.status === 'underpaid' || opts.status === 'late' ? nowS : 0,
  };
  const notification = buildNotification(payment, opts.style, opts.type);
  const hmac = signBody(key.value, notification.body);
  const sent: SendDocument = { ...known, hmac, body: notification.body };
  const result = await postBytes(
    opts.url,
    notification.body,
    { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: hmac, 'user-agent': 'gw-webhook-send' },
    {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      ...(proxy && { proxy }),
      ...(opts.log && { log: opts.log }),
      secrets: [...opts.io.secrets, key.value],
    },
  );
  if (!result.ok && result.kind === 'aborted' && opts.signal.aborted) fail(opts.signal.reason, sent);
  const problem = result.ok ? whyNotAcknowledged(result.status, result.body) : undefined;

  if (io.json) {
    printSendDocument(io, {
      ...sent,
      answer: result.ok ? { status: result.status, body: Untrusted.of(result.body), ms: result.ms } : null,
      error: result.ok ? null : result.message,
      acknowledged: result.ok && problem === undefined,
    });
  } else {
    io.out(
      `POST ${opts.url.href}\n  ${opts.style} ${opts.type} notification, track id ${trackId}, status ${gatewayStatus}, signed with the ${kind} key (from ${key.from})\n`,
    );
    if (result.ok) {
      const shown = result.body === '' ? '(empty body)' : `"${Untrusted.of(result.body).line(80)}"`;
      io.out(
        `  → HTTP ${result.status} ${shown} in ${result.ms} ms${problem === undefined ? `: ${io.chalk.green('answered as the gateway requires')}` : ''}\n`,
      );
    }
  }
  // The output is the record of a notification that was sent: a stdout that refused it, or one that
  // looks closed (`>&-`: writes go nowhere), is exit 74 stating the send, as gw pay states its payment.
  if (result.ok) {
    const answered = problem === undefined ? 'acknowledged with HTTP 200 "ok"' : `answered HTTP ${result.status}, not acknowledged`;
    await deliverOutput(io, (error) => error.with({ message: `the notification was sent to ${opts.url.href} (${answered}), but ${error.message}` }));
  }
  if (!result.ok) {
    const code = result.kind === 'timeout' ? ExitCode.TEMPFAIL : ExitCode.UNAVAILABLE;
    throw new GwError(
      code,
      `the notification was not delivered to ${opts.url.href}: ${result.message}`,
      result.hint === undefined ? {} : { hint: result.hint },
    );
  }
  if (problem !== undefined) {
    throw new GwError(NOT_VERIFIED, `the receiver did not acknowledge the notification: ${problem}`, {
      hint: `the gateway would send it again, up to ${MAX_ATTEMPTS} attempts in all (after about 1 min, 3 min, 30 min, 3 h)`,
    });
  }
}

/** Half of a plain decimal amount, exactly (an underpaid test payment). */
function halfOf(amount: string): string {
  return multiplyRounded(amount, '0.5', fractionDigits(amount) + 1);
}

function parseAmount(text: string, flag: string): string {
  const amount = parsePositiveDecimal(text);
  if (amount === undefined) throw new UsageError(`${flag} must be a plain positive decimal such as 25 or 0.0004 (got "${text.slice(0, 30)}")`);
  return amount;
}
