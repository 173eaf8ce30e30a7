// gw doctor: is this set-up able to work? One line per check, for a person at a terminal, support
// and CI alike: the configuration and where it comes from, the proxy, whether the gateway answers,
// its TLS certificate, each key as the gateway judges it, and this computer's clock against the
// gateway's. Everything within the command's one deadline (--timeout); the exit code is that of
// the first failing check in the order shown (the most fundamental failure); --json prints the
// same as one document.
import { Command } from 'commander';
import type { Clock } from '../util/clock.js';
import type { Factory, GatewayTarget } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { describeSource, type ResolvedConfig, type Setting, type Source } from '../config/resolve.js';
import { ExitCode, GwError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import { PAYOUT_HISTORY } from '../operations/payout-history.js';
import type { ProxyConfig } from '../gateway/proxy.js';
import type { TlsInfo, TransportObserver } from '../gateway/transport-observer.js';
import type { IOStreams } from '../output/iostreams.js';
import { startSpinner } from '../output/spinner.js';
import { messageUnits, wrapLine } from '../output/wrap.js';

export interface DoctorOptions {
  io: IOStreams;
  clock: Clock;
  config: () => Promise<ResolvedConfig>;
  connect: (target: GatewayTarget, observer: TransportObserver) => Promise<GatewayClient>;
  proxyFor: (baseUrl: URL) => Promise<ProxyConfig | undefined>;
  /** Remembers the merchant's currencies for shell completion (optional). */
  remember?: (baseUrl: URL, currencies: readonly string[]) => Promise<void>;
}

export type CheckName = 'config' | 'proxy' | 'gateway' | 'tls' | 'merchantKey' | 'payoutKey' | 'generalKey' | 'clock';
export type CheckStatus = 'ok' | 'fail' | 'skip';

export interface Check {
  name: CheckName;
  status: CheckStatus;
  detail: string;
  hint?: string;
  /** The exit code this failure stands for. */
  exitCode?: number;
}

const LABELS: Record<CheckName, string> = {
  config: 'configuration',
  proxy: 'proxy',
  gateway: 'gateway reachable',
  tls: 'TLS',
  merchantKey: 'merchant key',
  payoutKey: 'payout key',
  generalKey: 'general key',
  clock: 'clock',
};

/** A clock further off than this makes expiry times and "minutes left" misleading. */
export const MAX_CLOCK_SKEW_MS = 30_000;

export function newCmdDoctor(f: Factory, runF: (opts: DoctorOptions) => Promise<void> = doctorRun): Command {
  return withHelp(
    new Command('doctor').action(async () => {
      const { rememberCurrencies } = await import('../config/currency-cache.js');
      return runF({
        io: f.io,
        clock: f.clock,
        config: () => f.config(),
        connect: (target, observer) => f.connect(target, observer),
        proxyFor: (url) => f.proxyFor(url),
        remember: (baseUrl, currencies) => rememberCurrencies(f.env, f.origin.home, baseUrl, currencies),
      });
    }),
    {
      examples: ['gw doctor', 'gw doctor --profile shop', 'gw doctor --json --timeout 10 || exit 1', 'gw doctor --sandbox'],
      json: '{"ok": true | false, "exitCode": 0, "checks": [{"name": "config" | "proxy" | "gateway" | "tls" | "merchantKey" | "payoutKey" | "generalKey" | "clock", "status": "ok" | "fail" | "skip", "detail", "hint"?, "exitCode"?}]}',
      notes:
        'One deadline for all checks (--timeout, default 15 s). Exit 0 when every check passes, else the exit code of the first failing check: 78 configuration or clock, 69 unreachable or TLS, 75 timed out, 77 a key refused. A payout key that is not set is not checked; with api v1 it is checked with one page of one payout from the payout history (read-only: doctor never sends a payout). The report is printed in full either way.',
    },
  );
}

function keySource(setting: Setting<string>): string {
  return describeSource(setting.source);
}

/** "baseUrl from …; merchant key from …": where the values doctor uses come from. */
function describeConfig(c: ResolvedConfig): string {
  const parts: string[] = [];
  const from = (label: string, source: Source | undefined): void => {
    if (source !== undefined) parts.push(`${label} from ${describeSource(source)}`);
  };
  from('base URL', c.baseUrl?.source);
  from('merchant key', c.merchantKey?.source);
  from('payout key', c.payoutKey?.source);
  from('general key', c.generalKey?.source);
  parts.push(`${c.api.value === 'v1' ? 'versioned API (v1)' : 'legacy API'} from ${describeSource(c.api.source)}`);
  if (c.profile !== undefined) parts.push(`profile ${c.profile.value}`);
  const files = c.files.length === 0 ? 'no config file' : `files: ${c.files.map((f) => `${f.file} (${f.level})`).join(', ')}`;
  return `${parts.join('; ')}; ${files}`;
}

function describeTls(tls: TlsInfo): string {
  const names =
    tls.names.length === 0 ? '' : ` (certificate for ${tls.names.slice(0, 3).join(', ')}${tls.names.length > 3 ? ` and ${tls.names.length - 3} more` : ''}`;
  const issuer = tls.issuer === undefined ? '' : `, issued by ${tls.issuer}`;
  const until = tls.validTo === undefined ? '' : `, valid until ${tls.validTo}`;
  const protocol = tls.protocol === undefined ? '' : `, ${tls.protocol}`;
  return `certificate valid for ${tls.hostname}${names}${names ? `${issuer}${until}${protocol})` : ''}`;
}

function skewText(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${s >= 0 ? '+' : '−'}${Math.abs(s)} s`;
}

/** A space inside a path or a command named in a detail: the wrapping breaks lines at spaces only. */
const KEPT_SPACE = '\u00a0';

/**
 * A check's text in the lines of its column (`column` cells in) when stdout is a terminal: broken at
 * word boundaries, one of `paths` or a command never broken; one line otherwise. A hint's command
 * (the one to run) is on a line of its own; a detail's commands, named in passing, stay in the text.
 */
function fitRow(io: IOStreams, text: string, column: number, paths: readonly string[], kind: 'detail' | 'hint'): string[] {
  if (!io.stdoutIsTTY) return [text];
  let kept = text;
  for (const p of paths) if (p.includes(' ')) kept = kept.replaceAll(p, p.replaceAll(' ', KEPT_SPACE));
  if (kind === 'detail')
    kept = messageUnits(kept, io.commandWords)
      .map((unit) => (unit.command ? unit.text.replaceAll(' ', KEPT_SPACE) : unit.text))
      .join(' ');
  const width = Math.max(30, io.width() - 1 - column);
  return wrapLine(kept, width, '', kind === 'detail' ? [] : io.commandWords).map((line) => line.replaceAll(KEPT_SPACE, ' '));
}

type Outcome<T> = { value: T } | { error: GwError };

/**
 * With the versioned API, the payout key (gw payout, payouts, refund) is checked with a read-only
 * request, one page of one payout from the payout history (GET /v1/payout?size=1): never a payout.
 */
async function checkPayoutKey(client: GatewayClient, key: Setting<string> | undefined, emit: (check: Check) => void): Promise<void> {
  if (key === undefined) {
    emit({ name: 'payoutKey', status: 'skip', detail: 'not set (only gw payout, payouts and refund need it with the versioned API)' });
    return;
  }
  const outcome = await attempt(async () => (await client.perform(PAYOUT_HISTORY, { page: 1, size: 1 })).total);
  if ('value' in outcome) {
    emit({ name: 'payoutKey', status: 'ok', detail: `accepted: the payout history answers (read-only, nothing sent) (key from ${keySource(key)})` });
    return;
  }
  const refused = outcome.error.exitCode === ExitCode.NOPERM;
  emit({
    name: 'payoutKey',
    status: 'fail',
    detail: `${refused ? 'refused: ' : ''}${outcome.error.message} (key from ${keySource(key)})`,
    ...(outcome.error.hint !== undefined && { hint: outcome.error.hint }),
    exitCode: outcome.error.exitCode,
  });
}

async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await work() };
  } catch (error) {
    if (error instanceof GwError) return { error };
    throw error;
  }
}

export async function doctorRun(opts: DoctorOptions): Promise<void> {
  const { io } = opts;
  const checks: Check[] = [];
  const width = Math.max(...Object.values(LABELS).map((l) => l.length));
  // The config files' paths, kept whole when a line is wrapped.
  let paths: string[] = [];
  const emit = (check: Check): void => {
    checks.push(check);
    if (io.json) return;
    const { chalk } = io;
    const mark = check.status === 'ok' ? chalk.green('✓') : check.status === 'fail' ? chalk.red('✗') : chalk.dim('–');
    const column = ' '.repeat(2 + width + 2);
    const [first = '', ...more] = fitRow(io, check.detail, column.length, paths, 'detail');
    io.out(`${mark} ${LABELS[check.name].padEnd(width)}  ${first}\n${more.map((line) => `${column}${line}\n`).join('')}`);
    if (check.hint !== undefined && check.status === 'fail')
      io.out(
        fitRow(io, `hint: ${check.hint}`, column.length, paths, 'hint')
          .map((line) => `${column}${chalk.dim(line)}\n`)
          .join(''),
      );
  };
  const fail = (name: CheckName, error: GwError, prefix = ''): void =>
    emit({ name, status: 'fail', detail: `${prefix}${error.message}`, ...(error.hint !== undefined && { hint: error.hint }), exitCode: error.exitCode });
  const skipRest = (from: CheckName, why: string): void => {
    const order: CheckName[] = ['config', 'proxy', 'gateway', 'tls', 'merchantKey', 'payoutKey', 'generalKey', 'clock'];
    for (const name of order.slice(order.indexOf(from)))
      if (!checks.some((c) => c.name === name)) emit({ name, status: 'skip', detail: `not checked: ${why}` });
  };

  io.sandboxBanner();
  const spinner = startSpinner(io, opts.clock, 'Checking…');
  await (async () => {
    // 1. Configuration.
    const config = await attempt(opts.config);
    if ('error' in config) {
      fail('config', config.error);
      return skipRest('proxy', 'the configuration has a problem');
    }
    const c = config.value;
    paths = c.files.map((f) => f.file).sort((a, b) => b.length - a.length);
    const baseUrl = c.baseUrl;
    if (baseUrl === undefined) {
      emit({
        name: 'config',
        status: 'fail',
        detail: 'no gateway base URL is configured',
        hint: 'run gw init, or gw config set baseUrl https://…',
        exitCode: ExitCode.CONFIG,
      });
      return skipRest('proxy', 'no gateway to check');
    }
    emit({ name: 'config', status: 'ok', detail: describeConfig(c) });

    // 2. Proxy.
    const proxy = await attempt(() => opts.proxyFor(baseUrl.value));
    if ('error' in proxy) {
      fail('proxy', proxy.error);
      return skipRest('gateway', 'the proxy setting cannot be used');
    }
    const { proxyLabel } = await import('../gateway/proxy.js');
    emit({
      name: 'proxy',
      status: 'ok',
      detail: proxy.value === undefined ? 'none: direct connection' : `${proxyLabel(proxy.value)} (from ${proxy.value.variable})`,
    });

    // 3–7. One client; the first request shows whether the gateway answers, its TLS and its clock.
    const seen: { connected: boolean; tls?: TlsInfo; failedStage?: string; status?: number; ms?: number; skewMs?: number; date?: string } = {
      connected: false,
    };
    const started = opts.clock.now();
    const observer: TransportObserver = {
      onConnect: (info) => {
        seen.connected = true;
        if (info.tls !== undefined) seen.tls = info.tls;
      },
      onConnectFailed: ({ stage }) => {
        seen.failedStage = stage;
      },
      onResponse: (info) => {
        if (seen.status !== undefined) return;
        seen.status = info.status;
        seen.ms = opts.clock.now() - started;
        if (info.date !== undefined) {
          const date = Date.parse(info.date);
          if (!Number.isNaN(date)) {
            seen.date = info.date;
            // The Date header has whole seconds: up to one second behind the moment it was sent.
            seen.skewMs = date + 500 - opts.clock.now();
          }
        }
      },
    };
    const client = await opts.connect(
      {
        baseUrl,
        api: c.api.value,
        timeoutMs: c.timeoutMs.value,
        ...(c.merchantKey && { merchantKey: c.merchantKey }),
        ...(c.payoutKey && { payoutKey: c.payoutKey }),
        ...(c.generalKey && { generalKey: c.generalKey }),
      },
      observer,
    );
    const merchant = c.merchantKey;
    // The key gw balance uses: the payout key on the legacy API, the general key on the versioned one.
    const v1 = c.api.value === 'v1';
    const balanceCheck: CheckName = v1 ? 'generalKey' : 'payoutKey';
    const payout = v1 ? c.generalKey : c.payoutKey;
    const checkMerchant = (): Promise<Outcome<number>> => attempt(async () => (await client.acceptedCurrencies()).length);
    const checkPayout = (): Promise<Outcome<number>> => attempt(async () => (await client.balances()).length);
    let merchantOutcome: Outcome<number> | undefined;
    let currencies: string[] = [];
    let first: Outcome<unknown>;
    if (merchant !== undefined) {
      first = merchantOutcome = await attempt(async () => {
        const list = await client.acceptedCurrencies();
        currencies = list.map((s) => s.raw());
        return list.length;
      });
    } else if (payout !== undefined) {
      first = await checkPayout();
    } else {
      first = await attempt(() => client.rate('BTC', 'USDT'));
    }
    const https = baseUrl.value.protocol === 'https:';
    const where = baseUrl.value.host;

    if (seen.status === undefined) {
      // No answer at all: say how far the connection got.
      const error = 'error' in first ? first.error : new GwError(ExitCode.UNAVAILABLE, `no answer from ${where}`);
      if (seen.failedStage === 'tls') {
        emit({ name: 'gateway', status: 'ok', detail: `${where} accepts connections` });
        fail('tls', error);
        return skipRest('merchantKey', 'the TLS connection failed');
      }
      fail('gateway', error);
      if (seen.connected && seen.tls !== undefined) emit({ name: 'tls', status: 'ok', detail: describeTls(seen.tls) });
      return skipRest('tls', 'the gateway did not answer');
    }
    emit({ name: 'gateway', status: 'ok', detail: `${baseUrl.value.origin} answers (HTTP ${seen.status}, ${Math.max(0, Math.round(seen.ms ?? 0))} ms)` });
    if (https && seen.tls !== undefined) emit({ name: 'tls', status: 'ok', detail: describeTls(seen.tls) });
    else
      emit({
        name: 'tls',
        status: 'skip',
        detail: https ? 'not checked: the connection was reused' : `not used: http:// to a loopback host (${baseUrl.value.hostname})`,
      });

    // Keys.
    if (merchant === undefined) {
      emit({
        name: 'merchantKey',
        status: 'fail',
        detail: 'not set (needed for pay and currencies)',
        hint: 'gw config set merchantKey, GATEWAY_MERCHANT_KEY, or gw init',
        exitCode: ExitCode.CONFIG,
      });
    } else {
      const outcome = merchantOutcome ?? (await checkMerchant());
      if ('value' in outcome) {
        emit({ name: 'merchantKey', status: 'ok', detail: `accepted: ${outcome.value} currencies (key from ${keySource(merchant)})` });
        // For shell completion; not for the embedded sandbox, whose address changes every run.
        if (currencies.length > 0 && baseUrl.source.kind !== 'sandbox') await opts.remember?.(baseUrl.value, currencies).catch(() => undefined);
      } else {
        const refused = outcome.error.exitCode === ExitCode.NOPERM;
        emit({
          name: 'merchantKey',
          status: 'fail',
          detail: `${refused ? 'refused: ' : ''}${outcome.error.message} (key from ${keySource(merchant)})`,
          ...(outcome.error.hint !== undefined && { hint: outcome.error.hint }),
          exitCode: outcome.error.exitCode,
        });
      }
    }
    if (v1) await checkPayoutKey(client, c.payoutKey, emit);
    if (payout === undefined) {
      emit({ name: balanceCheck, status: 'skip', detail: 'not set (only gw balance needs it)' });
    } else {
      const outcome = merchant === undefined ? (first as Outcome<number>) : await checkPayout();
      if ('value' in outcome) {
        emit({
          name: balanceCheck,
          status: 'ok',
          detail: `accepted: ${outcome.value} balance${outcome.value === 1 ? '' : 's'} (key from ${keySource(payout)})`,
        });
      } else {
        const refused = outcome.error.exitCode === ExitCode.NOPERM;
        emit({
          name: balanceCheck,
          status: 'fail',
          detail: `${refused ? 'refused: ' : ''}${outcome.error.message} (key from ${keySource(payout)})`,
          ...(outcome.error.hint !== undefined && { hint: outcome.error.hint }),
          exitCode: outcome.error.exitCode,
        });
      }
    }

    if (!v1) emit({ name: 'generalKey', status: 'skip', detail: 'not used with the legacy API (--api v1 uses it for gw balance and gw rate)' });

    // Clock.
    if (seen.skewMs === undefined) {
      emit({ name: 'clock', status: 'skip', detail: 'not checked: the gateway sent no Date header' });
    } else if (Math.abs(seen.skewMs) <= MAX_CLOCK_SKEW_MS) {
      emit({ name: 'clock', status: 'ok', detail: `in step with the gateway (${skewText(seen.skewMs)}, to the second)` });
    } else {
      emit({
        name: 'clock',
        status: 'fail',
        detail: `this computer's clock is ${skewText(-seen.skewMs).replace(/^[+\u2212]/, '')} ${seen.skewMs > 0 ? 'behind' : 'ahead of'} the gateway's (Date: ${seen.date})`,
        hint: 'expiry times and minutes left would be wrong: set the clock right (e.g. timedatectl set-ntp true)',
        exitCode: ExitCode.CONFIG,
      });
    }
  })().finally(() => spinner.stop());

  const failed = checks.filter((c) => c.status === 'fail');
  const worst = failed[0];
  const exitCode = worst?.exitCode ?? (worst ? ExitCode.SOFTWARE : ExitCode.OK);
  if (io.json) {
    io.printJson({
      ok: failed.length === 0,
      exitCode,
      checks: checks.map((c) => ({
        name: c.name,
        status: c.status,
        detail: c.detail,
        ...(c.hint !== undefined && { hint: c.hint }),
        ...(c.exitCode !== undefined && { exitCode: c.exitCode }),
      })),
    });
  } else {
    const passed = checks.filter((c) => c.status === 'ok').length;
    io.out(failed.length === 0 ? `\nAll ${passed} checks passed.\n` : '');
  }
  if (worst !== undefined) {
    throw new GwError(exitCode as ExitCode, `${failed.length} of ${checks.length} checks failed: ${failed.map((c) => LABELS[c.name]).join(', ')}`);
  }
}
