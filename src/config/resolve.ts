// Resolves the configuration once, before any command runs (after Stripe's CLI): for each value,
// flag > environment > selected profile > top level of the file, with where it came from. The
// result is one frozen, typed object that every command receives.
import { ConfigError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';
import type { LoadedFile } from './load.js';

export type Source =
  | { kind: 'flag'; name: string }
  | { kind: 'env'; name: string }
  | { kind: 'file'; file: string; profile?: string }
  | { kind: 'default' }
  | { kind: 'sandbox' };

export interface Setting<T> {
  readonly value: T;
  readonly source: Source;
}

export interface ResolvedConfig {
  readonly baseUrl?: Setting<URL>;
  readonly merchantKey?: Setting<string>;
  readonly payoutKey?: Setting<string>;
  readonly timeoutMs: Setting<number>;
  readonly profile?: Setting<string>;
  /** The config file that was read, if any. */
  readonly file?: string;
  /** Problems that do not stop the command (unknown keys, loose file permissions). */
  readonly warnings: readonly string[];
}

export interface ConfigFlags {
  baseUrl?: string;
  merchantKey?: string;
  payoutKey?: string;
  timeout?: string;
  profile?: string;
}

export const DEFAULT_TIMEOUT_SECONDS = 15;
const KEYS = ['baseUrl', 'merchantKey', 'payoutKey', 'timeout'] as const;
type Key = (typeof KEYS)[number];
type Layer = Partial<Record<Key, string>>;

const ENV_NAMES: Record<Key, string> = {
  baseUrl: 'GATEWAY_BASE_URL',
  merchantKey: 'GATEWAY_MERCHANT_KEY',
  payoutKey: 'GATEWAY_PAYOUT_KEY',
  timeout: 'GATEWAY_TIMEOUT',
};
const FLAG_NAMES: Record<Key, string> = {
  baseUrl: '--base-url',
  merchantKey: '--merchant-key',
  payoutKey: '--payout-key',
  timeout: '--timeout',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one level (top or a profile) of the file into strings, refusing wrong types. */
function readLayer(raw: Record<string, unknown>, where: string, warnings: string[]): Layer {
  const layer: Layer = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'profiles') continue;
    if (!(KEYS as readonly string[]).includes(name)) {
      warnings.push(`warning: ${where}: unknown key "${terminalSafe(name)}" ignored (known: ${KEYS.join(', ')}, profiles)`);
      continue;
    }
    const key = name as Key;
    if (value === undefined || value === null) continue;
    if (key === 'timeout' && typeof value === 'number') {
      layer.timeout = String(value);
    } else if (typeof value === 'string') {
      layer[key] = value;
    } else {
      throw new ConfigError(`${where}: "${key}" must be a string${key === 'timeout' ? ' or a number of seconds' : ''}`);
    }
  }
  return layer;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** https only, except loopback hosts (the sandbox, local tests). */
export function parseBaseUrl(text: string, origin: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`base URL from ${origin} is not a URL: ${terminalSafe(text).slice(0, 100)}`);
  }
  if (url.username || url.password) throw new ConfigError(`base URL from ${origin} must not carry credentials`);
  if (url.search || url.hash) throw new ConfigError(`base URL from ${origin} must not have a query or fragment`);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new ConfigError(
      `base URL from ${origin} uses plain http to ${url.hostname}: keys would cross the network unencrypted`,
      'use https://, or http:// only for a loopback host (127.0.0.1, ::1, localhost)',
    );
  }
  throw new ConfigError(`base URL from ${origin} must be https:// (got ${terminalSafe(url.protocol)})`);
}

/** Seconds, a plain decimal from 0.001 (one millisecond) to 3600 (one hour). */
export function parseTimeout(text: string, origin: string): number {
  const trimmed = text.trim();
  const seconds = /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  const ms = Math.round(seconds * 1000);
  if (!(ms >= 1) || seconds > 3600) {
    throw new ConfigError(`timeout from ${origin} must be a number of seconds from 0.001 to 3600 (got ${terminalSafe(text).slice(0, 40)})`);
  }
  return ms;
}

export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'flag':
      return source.name;
    case 'env':
      return `env ${source.name}`;
    case 'file':
      return source.profile === undefined ? source.file : `${source.file} (profile ${source.profile})`;
    case 'default':
      return 'default';
    case 'sandbox':
      return 'sandbox';
  }
}

export interface ResolveInput {
  flags: ConfigFlags;
  env: NodeJS.ProcessEnv;
  loaded: LoadedFile | undefined;
}

export function resolveConfig({ flags, env, loaded }: ResolveInput): ResolvedConfig {
  const warnings: string[] = [];
  let top: Layer = {};
  let profileLayer: Layer = {};
  let profile: Setting<string> | undefined;
  const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);

  const profileName = nonEmpty(flags.profile) ?? nonEmpty(env.GATEWAY_PROFILE);
  if (profileName !== undefined) {
    profile = { value: profileName, source: nonEmpty(flags.profile) ? { kind: 'flag', name: '--profile' } : { kind: 'env', name: 'GATEWAY_PROFILE' } };
  }

  if (loaded !== undefined) {
    const { file, content } = loaded;
    if (!isRecord(content)) throw new ConfigError(`config file ${file} must hold an object of settings`);
    top = readLayer(content, file, warnings);
    const profiles = content.profiles;
    if (profiles !== undefined && !isRecord(profiles)) throw new ConfigError(`config file ${file}: "profiles" must be an object of named profiles`);
    if (profileName !== undefined) {
      const selected = profiles !== undefined && Object.hasOwn(profiles, profileName) ? profiles[profileName] : undefined;
      if (!isRecord(selected)) {
        const known = profiles ? Object.keys(profiles).map((p) => terminalSafe(p)).join(', ') : '';
        throw new ConfigError(
          `profile "${terminalSafe(profileName)}" is not in ${file}`,
          known ? `profiles there: ${known}` : `add it under "profiles" in ${file}`,
        );
      }
      profileLayer = readLayer(selected, `${file} (profile ${profileName})`, warnings);
    }
  } else if (profileName !== undefined) {
    throw new ConfigError(`profile "${terminalSafe(profileName)}" was asked for, but no config file was found`, 'create .gatewayrc (see .gatewayrc.example) or pass --config <file>');
  }

  const pick = (key: Key): Setting<string> | undefined => {
    const flag = nonEmpty(flags[key]);
    if (flag !== undefined) return { value: flag, source: { kind: 'flag', name: FLAG_NAMES[key] } };
    const fromEnv = nonEmpty(env[ENV_NAMES[key]]);
    if (fromEnv !== undefined) return { value: fromEnv, source: { kind: 'env', name: ENV_NAMES[key] } };
    const fromProfile = nonEmpty(profileLayer[key]);
    if (fromProfile !== undefined && loaded && profileName !== undefined) {
      return { value: fromProfile, source: { kind: 'file', file: loaded.file, profile: profileName } };
    }
    const fromTop = nonEmpty(top[key]);
    if (fromTop !== undefined && loaded) return { value: fromTop, source: { kind: 'file', file: loaded.file } };
    return undefined;
  };

  const baseUrlText = pick('baseUrl');
  const timeoutText = pick('timeout');
  const merchantKey = pick('merchantKey');
  const payoutKey = pick('payoutKey');
  const config: ResolvedConfig = {
    ...(baseUrlText && {
      baseUrl: { value: parseBaseUrl(baseUrlText.value, describeSource(baseUrlText.source)), source: baseUrlText.source },
    }),
    ...(merchantKey && { merchantKey: { value: merchantKey.value.trim(), source: merchantKey.source } }),
    ...(payoutKey && { payoutKey: { value: payoutKey.value.trim(), source: payoutKey.source } }),
    timeoutMs: timeoutText
      ? { value: parseTimeout(timeoutText.value, describeSource(timeoutText.source)), source: timeoutText.source }
      : { value: DEFAULT_TIMEOUT_SECONDS * 1000, source: { kind: 'default' } },
    ...(profile && { profile }),
    ...(loaded && { file: loaded.file }),
    warnings,
  };
  return Object.freeze(config);
}

/** Masks a key to its last four characters: "••••abcd". Keys of 8 characters or fewer are masked whole. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '••••';
  return `••••${terminalSafe(key.slice(-4))}`;
}

export function keysInFile(content: unknown): boolean {
  if (!isRecord(content)) return false;
  const has = (layer: Record<string, unknown>): boolean => typeof layer.merchantKey === 'string' || typeof layer.payoutKey === 'string';
  if (has(content)) return true;
  const profiles = content.profiles;
  return isRecord(profiles) && Object.values(profiles).some((p) => isRecord(p) && has(p));
}
