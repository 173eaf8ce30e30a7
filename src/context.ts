// What every command receives (after gh's Factory): the IO object, the configuration resolved
// once, and the gateway client, built lazily so that commands which do not call the gateway do not
// pay for undici. --sandbox swaps the configuration for an in-process sandbox gateway.
import { ConfigError } from './errors.js';
import { VERSION } from './version.js';
import type { IO } from './output/io.js';
import type { LoadedFile } from './config/load.js';
import type { ConfigFlags, ResolvedConfig, Source } from './config/resolve.js';
import type { GatewayClient } from './gateway/client.js';
import type { RunningSandbox } from './sandbox/index.js';

export interface GlobalOptions extends ConfigFlags {
  json?: boolean;
  config?: string;
  verbose?: boolean;
  sandbox?: boolean;
  color?: boolean;
}

export interface Context {
  readonly io: IO;
  readonly config: ResolvedConfig;
  readonly sandbox: boolean;
  readonly verbose: boolean;
  readonly signal: AbortSignal;
  /** The gateway client (created on first use). */
  gateway(): Promise<GatewayClient>;
  /** Printed on stderr: plain text, or a JSON line with --json. */
  warn(message: string): void;
}

export interface Resources {
  /** Called once the command has finished, whatever happened. */
  close(): Promise<void>;
  /** Keys in use, for scrubbing from any message. */
  secrets: string[];
}

export async function createContext(io: IO, options: GlobalOptions, signal: AbortSignal, resources: Resources): Promise<Context> {
  const { resolveConfig, describeSource, keysInFile } = await import('./config/resolve.js');
  const warn = (message: string): void => {
    if (io.json) io.err(`${JSON.stringify({ warning: { message } })}\n`);
    else io.err(`gw: ${message}\n`);
  };

  let config: ResolvedConfig;
  let sandbox: RunningSandbox | undefined;
  if (options.sandbox) {
    const { startSandbox } = await import('./sandbox/index.js');
    sandbox = await startSandbox();
    const running = sandbox;
    const closeBefore = resources.close;
    resources.close = async () => {
      await closeBefore();
      await running.close();
    };
    const base = resolveConfig({ flags: { ...(options.timeout !== undefined && { timeout: options.timeout }) }, env: {}, loaded: undefined });
    const fromSandbox: Source = { kind: 'sandbox' };
    config = Object.freeze({
      ...base,
      baseUrl: { value: new URL(sandbox.url), source: fromSandbox },
      merchantKey: { value: sandbox.merchantKey, source: fromSandbox },
      payoutKey: { value: sandbox.payoutKey, source: fromSandbox },
    });
  } else {
    const { mayHaveConfig } = await import('./config/candidates.js');
    let loaded: LoadedFile | undefined;
    if (options.config !== undefined || mayHaveConfig(process.cwd())) {
      const { loadConfigFile, permissionWarning } = await import('./config/load.js');
      loaded = await loadConfigFile(options.config === undefined ? {} : { explicitFile: options.config });
      if (loaded && keysInFile(loaded.content)) {
        const warning = permissionWarning(loaded.file);
        if (warning) warn(warning);
      }
    }
    config = resolveConfig({ flags: options, env: process.env, loaded });
  }
  for (const w of config.warnings) warn(w);
  // Keys are scrubbed from every message and log line. A key of a few characters cannot be a real
  // key, and replacing it everywhere would garble ordinary words, so those are left alone.
  for (const key of [config.merchantKey, config.payoutKey]) if (key && key.value.length >= 6) resources.secrets.push(key.value);

  let client: Promise<GatewayClient> | undefined;
  const gateway = (): Promise<GatewayClient> => {
    client ??= (async () => {
      const baseUrl = config.baseUrl;
      if (baseUrl === undefined) {
        throw new ConfigError(
          'no gateway base URL is configured',
          'set it with --base-url, GATEWAY_BASE_URL or baseUrl in .gatewayrc (see .gatewayrc.example), or try gw with --sandbox',
        );
      }
      if (options.verbose) io.err(`gw: gateway ${baseUrl.value.origin} (from ${describeSource(baseUrl.source)})\n`);
      const [{ Transport }, { GatewayClient }, { proxyFor }] = await Promise.all([
        import('./gateway/transport.js'),
        import('./gateway/client.js'),
        import('./gateway/proxy.js'),
      ]);
      // Proxy variables as curl reads them; never for the in-process sandbox.
      const proxy = sandbox === undefined ? proxyFor(baseUrl.value, process.env) : undefined;
      const transport = new Transport({
        baseUrl: baseUrl.value,
        timeoutMs: config.timeoutMs.value,
        ...(proxy && { proxy }),
        signal,
        secrets: resources.secrets,
        ...(options.verbose && { log: (line: string) => io.err(`${line}\n`) }),
        userAgent: `gw/${VERSION}`,
      });
      const closeBefore = resources.close;
      resources.close = async () => {
        await transport.close();
        await closeBefore();
      };
      return new GatewayClient(transport, {
        ...(config.merchantKey && { merchantKey: config.merchantKey.value }),
        ...(config.payoutKey && { payoutKey: config.payoutKey.value }),
      });
    })();
    return client;
  };

  return { io, config, sandbox: sandbox !== undefined, verbose: options.verbose === true, signal, gateway, warn };
}
