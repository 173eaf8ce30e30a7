// What every command is built from (after gh's cmdutil.Factory): the IO object, a clock, the
// signal that ends the command (Ctrl-C, SIGTERM, or its deadline), the configuration resolved
// once, and the gateway client, built lazily so that commands which never call the gateway never
// load the HTTP stack. `--sandbox` swaps the configuration for an embedded sandbox gateway.
//
// The same factory serves the real process (src/main.ts) and in-process tests, which give it
// in-memory IO, their own environment and working directory.
import { ConfigError, deadlinePassed, ExitCode, GwError, UsageError } from '../errors.js';
import {
  DEFAULT_TIMEOUT_SECONDS,
  type ApiChoice,
  type ConfigFlags,
  type ConfigReport,
  type ResolvedConfig,
  type Setting,
  type SettingKey,
  type SettingReport,
  type Source,
} from '../config/resolve.js';
import type { GatewayClient, HttpTransport, KeySetting, Keys } from '../gateway/gateway.js';
import type { ClientOptions } from '../gateway/call.js';
import type { ProxyConfig } from '../gateway/proxy.js';
import type { TransportObserver } from '../gateway/transport-observer.js';
import type { IOStreams } from '../output/iostreams.js';
import { terminalSafe } from '../output/sanitize.js';
import type { RunningSandbox } from '../sandbox/options.js';
import { VERSION } from '../version.js';
import { systemClock, type Clock } from '../util/clock.js';

/** Options every command accepts (Commander's globals). */
export interface GlobalOptions extends ConfigFlags {
  json?: boolean;
  config?: string;
  verbose?: boolean;
  sandbox?: boolean;
  /** false with --no-color. */
  color?: boolean;
  /** --qr-theme dark|light. */
  qrTheme?: string;
  /** --qr-charset utf8|ascii. */
  qrCharset?: string;
}

export interface Factory {
  readonly io: IOStreams;
  readonly clock: Clock;
  /** Aborted, with a GwError as its reason, on Ctrl-C, SIGTERM, or when the deadline passes. */
  readonly signal: AbortSignal;
  /** The global options of this run (set before any command runs). */
  readonly globals: GlobalOptions;
  /** Called once Commander has parsed the command line, before the command runs. */
  applyGlobals(globals: GlobalOptions): void;
  /** The configuration, resolved once (files, environment, flags). */
  config(): Promise<ResolvedConfig>;
  /**
   * The configuration as far as it resolves, every problem listed instead of the first one thrown
   * (gw config). Warnings are in the report, not printed.
   */
  configReport(): Promise<ConfigReport>;
  /** The gateway client for the configured API, built on first use. */
  gateway(): Promise<GatewayClient>;
  /**
   * A gateway client for the given settings, with an optional observer of connections and answers:
   * gw init checks keys before they are written, gw doctor watches TLS and the gateway's clock.
   * Bound by the command's deadline like every request; closed when the command ends.
   */
  connect(target: GatewayTarget, observer?: TransportObserver): Promise<GatewayClient>;
  /** The proxy a request to `baseUrl` goes through (from the environment, as curl picks it); ConfigError if unusable. */
  proxyFor(baseUrl: URL): Promise<ProxyConfig | undefined>;
  /** The environment gw runs in (for commands that report on it: doctor, completion). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where config files are searched from (working directory, home). */
  readonly origin: { readonly cwd: string; readonly home: string };
  /**
   * Lifts the whole-command deadline: for a command that, from now on, runs until told to stop
   * (a server) or has its own limit (waiting for a payment). Each request keeps its own deadline.
   */
  releaseDeadline(): void;
  /** Runs `fn` when the command ends, whatever happened (servers, sockets). */
  onClose(fn: () => Promise<void> | void): void;
  /**
   * `--sandbox`: this run ends as soon as its output is written (gw pay without --wait), so the
   * embedded sandbox does not listen on a port nobody could reach in time, and its answers carry no
   * link into it (docs/sandbox.md). Call before the configuration is first resolved.
   */
  sandboxNeedsNoPort(): void;
  close(): Promise<void>;
}

export interface FactoryOptions {
  io: IOStreams;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The user's home directory (config search, user config file). */
  home: string;
  /** Aborted on Ctrl-C or SIGTERM, with the reason to report. */
  interrupt: AbortSignal;
  clock?: Clock;
}

/** Seconds from a flag or the environment; a bad flag is a usage error, a bad setting a config error. */
export function parseTimeoutSeconds(text: string, from: Source): number {
  const trimmed = text.trim();
  const seconds = /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (Math.round(seconds * 1000) >= 1 && seconds <= 3600) return seconds;
  const message = `${from.kind === 'flag' ? '--timeout' : `timeout from ${from.kind === 'env' ? `env ${from.name}` : 'the config file'}`} must be a number of seconds from 0.001 to 3600 (got "${text.slice(0, 40)}")`;
  throw from.kind === 'flag' ? new UsageError(message) : new ConfigError(message);
}

/** What a gateway client needs: the base URL and the keys, each with where it came from. */
export interface GatewayTarget {
  baseUrl: Setting<URL>;
  /** Which API to speak; legacy when not given. */
  api?: ApiChoice;
  merchantKey?: Setting<string>;
  payoutKey?: Setting<string>;
  generalKey?: Setting<string>;
  timeoutMs: number;
}

export function keySetting(setting: Setting<string> | undefined, describe: (source: Source) => string): KeySetting | undefined {
  return setting === undefined ? undefined : { value: setting.value, from: describe(setting.source) };
}

class DefaultFactory implements Factory {
  readonly io: IOStreams;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  globals: GlobalOptions = {};

  readonly #options: FactoryOptions;
  readonly #deadline = new AbortController();
  readonly #started: number;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #timeoutMs = DEFAULT_TIMEOUT_SECONDS * 1000;
  /** When the command must have ended (epoch ms); Infinity once released. */
  #deadlineAt = Number.POSITIVE_INFINITY;
  #config: Promise<ResolvedConfig> | undefined;
  #gateway: Promise<GatewayClient> | undefined;
  #closers: Array<() => Promise<void> | void> = [];
  /** The embedded sandbox (`--sandbox`), once started: this process's requests to it are served in memory. */
  #sandbox: RunningSandbox | undefined;
  /** Whether the embedded sandbox listens on a port (sandboxNeedsNoPort). */
  #sandboxListens = true;

  get env(): Readonly<Record<string, string | undefined>> {
    return this.#options.env;
  }

  get origin(): { cwd: string; home: string } {
    return { cwd: this.#options.cwd, home: this.#options.home };
  }

  constructor(options: FactoryOptions) {
    this.#options = options;
    this.io = options.io;
    this.clock = options.clock ?? systemClock;
    // The deadline is real time (it is enforced by a timer), whatever clock the command waits with.
    this.#started = Date.now();
    this.signal = AbortSignal.any([options.interrupt, this.#deadline.signal]);
  }

  applyGlobals(globals: GlobalOptions): void {
    this.globals = globals;
    this.io.setJson(globals.json === true);
    this.io.setNoColor(globals.color === false);
    this.io.setSandbox(globals.sandbox === true);
    // Commander has checked the value (dark or light).
    if (globals.qrTheme !== undefined) this.io.setQrTheme(globals.qrTheme === 'light' ? 'light' : 'dark');
    if (globals.qrCharset !== undefined) this.io.setQrCharset(globals.qrCharset === 'ascii' ? 'ascii' : 'unicode');
    // The deadline starts now, with what is known before any file is read: flag, env, default.
    const env = this.#options.env.GATEWAY_TIMEOUT;
    let seconds = DEFAULT_TIMEOUT_SECONDS;
    if (globals.api !== undefined && !/^(legacy|v1)$/i.test(globals.api.trim())) {
      throw new UsageError(`--api must be legacy or v1 (got "${globals.api.slice(0, 20)}")`);
    }
    if (globals.timeout !== undefined) seconds = parseTimeoutSeconds(globals.timeout, { kind: 'flag', name: '--timeout' });
    else if (env !== undefined && env !== '' && globals.sandbox !== true) {
      // A value that does not parse keeps the default deadline here: resolving the configuration
      // reports it (exit 78 for a command that needs it; a problem listed by gw config and gw doctor).
      try {
        seconds = parseTimeoutSeconds(env, { kind: 'env', name: 'GATEWAY_TIMEOUT' });
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
      }
    }
    this.#armDeadline(seconds * 1000);
  }

  /** The command must end by start + timeout: past it the signal aborts with exit 75. */
  #armDeadline(timeoutMs: number): void {
    if (this.#deadline.signal.aborted) return;
    clearTimeout(this.#deadlineTimer);
    this.#timeoutMs = timeoutMs;
    this.#deadlineAt = this.#started + timeoutMs;
    const left = this.#deadlineAt - Date.now();
    // Not unref'd: while a command runs, its deadline is something to wait for (a promise that never
    // settles then ends at the deadline with exit 75, not with an empty event loop).
    this.#deadlineTimer = setTimeout(() => this.#deadline.abort(deadlinePassed(timeoutMs / 1000)), Math.max(0, left));
  }

  releaseDeadline(): void {
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
    this.#deadlineAt = Number.POSITIVE_INFINITY;
  }

  config(): Promise<ResolvedConfig> {
    this.#config ??= this.#resolveConfig();
    return this.#config;
  }

  async #resolveConfig(): Promise<ResolvedConfig> {
    const { resolveConfig } = await import('../config/resolve.js');
    const globals = this.globals;
    let config: ResolvedConfig;
    if (globals.sandbox === true) {
      const { startSandbox, sandboxJournalPath } = await import('../sandbox/index.js');
      // The sandbox runs on the command's clock, and records its payments for later runs.
      const sandbox = await startSandbox({
        now: () => this.clock.now(),
        ...(!this.#sandboxListens && { listen: false }),
        journal: sandboxJournalPath(this.#options.env, this.#options.home),
        // What the journal did that the user should know (older payments removed, one not recorded).
        journalNotice: (line) => this.io.warn(line),
        // Its notifications go out as every request of gw does: proxies from the environment, --verbose lines.
        notifications: {
          proxyEnv: this.#options.env,
          ...(globals.verbose === true && { httpLog: (line: string) => this.io.err(`${line}\n`) }),
        },
      });
      this.#sandbox = sandbox;
      this.onClose(() => sandbox.close());
      // The sandbox serves both APIs: which one to speak is still the user's (--api, GATEWAY_API).
      const apiEnv = this.#options.env.GATEWAY_API;
      const base = resolveConfig({
        flags: { ...(globals.timeout !== undefined && { timeout: globals.timeout }), ...(globals.api !== undefined && { api: globals.api }) },
        env: apiEnv === undefined ? {} : { GATEWAY_API: apiEnv },
        layers: [],
      });
      const fromSandbox: Source = { kind: 'sandbox' };
      config = Object.freeze({
        ...base,
        baseUrl: { value: new URL(sandbox.url), source: fromSandbox },
        merchantKey: { value: sandbox.merchantKey, source: fromSandbox },
        payoutKey: { value: sandbox.payoutKey, source: fromSandbox },
        generalKey: { value: sandbox.generalKey, source: fromSandbox },
      });
    } else {
      const { readConfigFiles } = await import('../config/files.js');
      // Reading the files counts against the command's deadline, and Ctrl-C ends it at once,
      // even when a JavaScript config never settles.
      const found = await readConfigFiles(this.#searchOrigin(), { ...this.#explicitConfig(), signal: this.signal }).catch((error: unknown) => {
        if (error instanceof GwError && error.exitCode === ExitCode.TEMPFAIL && this.#deadline.signal.aborted) {
          throw error.with({
            message: `reading the config files took longer than ${this.#timeoutMs / 1000} s`,
            hint: 'a JavaScript config file may be waiting for something; raise --timeout, or name another file with --config',
          });
        }
        throw error;
      });
      config = resolveConfig({ flags: globals, env: this.#options.env, layers: found.layers, skipped: found.skipped, looked: found.looked });
      if (config.timeoutMs.source.kind === 'file') this.#armDeadline(config.timeoutMs.value);
    }
    for (const warning of config.warnings) this.io.warn(warning);
    for (const key of [config.merchantKey, config.payoutKey, config.generalKey]) if (key !== undefined) this.io.secrets.push(key.value);
    return config;
  }

  async configReport(): Promise<ConfigReport> {
    const { resolveConfigReport } = await import('../config/resolve.js');
    const globals = this.globals;
    if (globals.sandbox === true) {
      const config = await this.config();
      const key = (setting: Setting<string> | undefined): SettingReport => (setting ? { text: setting.value, source: setting.source } : {});
      const settings: Record<SettingKey, SettingReport> = {
        baseUrl: config.baseUrl ? { text: config.baseUrl.value.href, source: config.baseUrl.source } : {},
        api: { text: config.api.value, source: config.api.source },
        merchantKey: key(config.merchantKey),
        payoutKey: key(config.payoutKey),
        generalKey: key(config.generalKey),
        timeout: { text: String(config.timeoutMs.value / 1000), source: config.timeoutMs.source },
        // --sandbox reads no file and no GATEWAY_* variable for these.
        merchantName: {},
        receiptWidth: {},
        counterCurrency: {},
        counterPayCurrency: {},
        counterNetwork: {},
        counterHoldSeconds: { text: String(config.counterHoldSeconds.value), source: config.counterHoldSeconds.source },
      };
      return { config, settings, problems: [], failed: [] };
    }
    const { readConfigFiles } = await import('../config/files.js');
    const found = await readConfigFiles(this.#searchOrigin(), { ...this.#explicitConfig(), signal: this.signal, tolerant: true });
    return resolveConfigReport({
      flags: globals,
      env: this.#options.env,
      layers: found.layers,
      skipped: found.skipped,
      looked: found.looked,
      failed: found.failed ?? [],
    });
  }

  /** Where the search for config files starts. */
  #searchOrigin(): { cwd: string; env: NodeJS.ProcessEnv; home: string } {
    return { cwd: this.#options.cwd, env: this.#options.env, home: this.#options.home };
  }

  /** --config, if given: that file alone is read. */
  #explicitConfig(): { explicitFile?: string } {
    return this.globals.config === undefined ? {} : { explicitFile: this.globals.config };
  }

  gateway(): Promise<GatewayClient> {
    this.#gateway ??= this.#buildGateway();
    return this.#gateway;
  }

  async proxyFor(baseUrl: URL): Promise<ProxyConfig | undefined> {
    // The embedded sandbox is this process: never through a proxy.
    if (this.globals.sandbox === true) return undefined;
    const { proxyFor } = await import('../gateway/proxy.js');
    return proxyFor(baseUrl, this.#options.env);
  }

  async #buildGateway(): Promise<GatewayClient> {
    const config = await this.config();
    const { describeSource } = await import('../config/resolve.js');
    const baseUrl = config.baseUrl;
    if (baseUrl === undefined && config.profile === undefined && (config.profiles?.length ?? 0) > 0) {
      // Set up with a profile only (gw init --profile …): name the profiles and how to pick one.
      const names = config.profiles!.map((p) => terminalSafe(p));
      const one = names[0]!;
      throw new ConfigError(
        `no gateway base URL is configured outside a profile, and no profile was chosen: your config has profile${names.length === 1 ? '' : 's'} ${names.join(', ')}`,
        `pick one with --profile ${one} (or --profile <name>), or export GATEWAY_PROFILE=${one} to use it by default; or run gw init without a profile name to set your defaults`,
      );
    }
    if (baseUrl === undefined) {
      throw new ConfigError(
        'no gateway base URL is configured',
        'run gw init to set up gw, or try gw with --sandbox, or set it with --base-url, GATEWAY_BASE_URL or baseUrl in your config file; gw config shows what is set',
      );
    }
    if (this.globals.verbose === true) this.io.err(`gw: gateway ${baseUrl.value.origin} (from ${describeSource(baseUrl.source)})\n`);
    return this.connect({
      baseUrl,
      api: config.api.value,
      timeoutMs: config.timeoutMs.value,
      ...(config.merchantKey && { merchantKey: config.merchantKey }),
      ...(config.payoutKey && { payoutKey: config.payoutKey }),
      ...(config.generalKey && { generalKey: config.generalKey }),
    });
  }

  async connect(target: GatewayTarget, observer?: TransportObserver): Promise<GatewayClient> {
    const io = this.io;
    const verbose = this.globals.verbose === true;
    const [{ Transport }, newClient, { describeSource }] = await Promise.all([
      import('../gateway/transport.js'),
      clientFor(target.api ?? 'legacy'),
      import('../config/resolve.js'),
    ]);
    for (const key of [target.merchantKey, target.payoutKey, target.generalKey])
      if (key !== undefined && !io.secrets.includes(key.value)) io.secrets.push(key.value);
    const proxy = await this.proxyFor(target.baseUrl.value);
    const sandbox = this.#sandbox;
    const inMemory = sandbox !== undefined && new URL(sandbox.url).origin === target.baseUrl.value.origin;
    const transport = new Transport({
      baseUrl: target.baseUrl.value,
      timeoutMs: target.timeoutMs,
      // Each request ends at its own --timeout, and never after the command's deadline while one holds.
      notAfter: () => this.#deadlineAt,
      sleep: (ms, signal) => this.clock.sleep(ms, signal),
      signal: this.#options.interrupt,
      secrets: io.secrets,
      ...(proxy && { proxy }),
      ...(inMemory && { exchanger: sandbox.dispatcher }),
      ...(verbose && { log: (line: string) => io.err(`${line}\n`) }),
      ...(observer && { observer }),
      userAgent: `gw/${VERSION}`,
    });
    this.onClose(() => transport.close());
    const merchant = keySetting(target.merchantKey, describeSource);
    const payout = keySetting(target.payoutKey, describeSource);
    const general = keySetting(target.generalKey, describeSource);
    const keys = { ...(merchant && { merchant }), ...(payout && { payout }), ...(general && { general }) };
    // The embedded sandbox: an operation it does not serve yet is said so, nothing sent.
    return newClient(transport, keys, inMemory ? { served: sandbox.serves } : {});
  }

  onClose(fn: () => Promise<void> | void): void {
    this.#closers.push(fn);
  }

  sandboxNeedsNoPort(): void {
    this.#sandboxListens = false;
  }

  async close(): Promise<void> {
    this.releaseDeadline();
    for (const fn of this.#closers.splice(0).reverse()) await Promise.resolve(fn()).catch(() => undefined);
  }
}

/**
 * The client of the configured API (`api`): the one place that knows which API is spoken;
 * commands see a GatewayClient either way.
 */
async function clientFor(api: ApiChoice): Promise<(transport: HttpTransport, keys: Keys, options: ClientOptions) => GatewayClient> {
  if (api === 'v1') {
    const { V1Gateway } = await import('../gateway/v1/client.js');
    return (transport, keys, options) => new V1Gateway(transport, keys, options);
  }
  const { LegacyGateway } = await import('../gateway/legacy/client.js');
  return (transport, keys, options) => new LegacyGateway(transport, keys, options);
}

export function createFactory(options: FactoryOptions): Factory {
  return new DefaultFactory(options);
}
