// Resolves the configuration once, before any command runs (after Stripe's CLI), from flags, the
// environment and the config files that load.ts read, layered as git layers its config files: for
// each value separately,
//   flag > environment > project profile > project top level > user profile > user top level
// (with --config, the one named file takes the place of both files). The profile is chosen by
// --profile, else GATEWAY_PROFILE, and may be defined in either file or both. The result is one
// frozen, typed object that every command receives, each value with where it came from.
import { ConfigError } from '../errors.js';
import { isFiat } from '../domain/payment-rules.js';
import { hasUnsafeCharacters, terminalSafe } from '../output/sanitize.js';
import { asciiUpperCase } from '../util/ascii.js';
import { maskUrlText } from '../output/url-credentials.js';
import type { ConfigLevel, LoadedFile, SkippedFile } from './load.js';

export type Source =
  | { kind: 'flag'; name: string }
  | { kind: 'env'; name: string }
  | { kind: 'file'; file: string; level: ConfigLevel; profile?: string }
  | { kind: 'default' }
  | { kind: 'sandbox' };

export interface Setting<T> {
  readonly value: T;
  readonly source: Source;
}

export interface ConfigFileRef {
  readonly file: string;
  readonly level: ConfigLevel;
}

/** Which of the gateway's APIs gw speaks: the interface document's endpoints, or the versioned API. */
export type ApiChoice = 'legacy' | 'v1';
export const API_CHOICES: readonly ApiChoice[] = ['legacy', 'v1'];

export interface ResolvedConfig {
  readonly baseUrl?: Setting<URL>;
  readonly api: Setting<ApiChoice>;
  readonly merchantKey?: Setting<string>;
  readonly payoutKey?: Setting<string>;
  /** The versioned API's general key (balance, rate). */
  readonly generalKey?: Setting<string>;
  readonly timeoutMs: Setting<number>;
  /** The merchant's name, printed on receipts. */
  readonly merchantName?: Setting<string>;
  /** Columns of a receipt: 32 (58 mm printer), 42 or 48 (80 mm). */
  readonly receiptWidth?: Setting<ReceiptWidth>;
  /** gw counter's defaults: the currency of the amount typed, the coin paid, its network. */
  readonly counterCurrency?: Setting<string>;
  readonly counterPayCurrency?: Setting<string>;
  readonly counterNetwork?: Setting<string>;
  /** gw counter: seconds a final state stays before the next customer's prompt. */
  readonly counterHoldSeconds: Setting<number>;
  readonly profile?: Setting<string>;
  /** The names of the profiles the files define, in the order found (highest precedence file first). */
  readonly profiles?: readonly string[];
  /** The config file with the highest precedence that was read, if any (the project file, else the user file). */
  readonly file?: string;
  /** Every config file read, highest precedence first. */
  readonly files: readonly ConfigFileRef[];
  /** Every candidate file that exists, in the order it was examined (read, empty, not a source, or skipped). */
  readonly looked: readonly string[];
  /** Candidates refused for trust reasons (also in warnings). */
  readonly skipped: readonly SkippedFile[];
  /** Problems that do not stop the command (skipped files, unknown keys, loose file permissions). */
  readonly warnings: readonly string[];
}

export interface ConfigFlags {
  baseUrl?: string;
  api?: string;
  merchantKey?: string;
  payoutKey?: string;
  generalKey?: string;
  timeout?: string;
  profile?: string;
}

export const DEFAULT_TIMEOUT_SECONDS = 15;
/** gw counter: how long a final state stays when nobody presses Enter. */
export const DEFAULT_COUNTER_HOLD_SECONDS = 10;
export const COUNTER_HOLD_MAX_SECONDS = 600;
/** A thermal printer's columns: 58 mm paper takes 32, 80 mm paper 42 or 48. */
export const RECEIPT_WIDTHS = [32, 42, 48] as const;
export type ReceiptWidth = (typeof RECEIPT_WIDTHS)[number];
/** The longest merchant name: a receipt's widest line. */
export const MERCHANT_NAME_MAX = 48;
/** Every setting a config file, the environment or a flag can give. */
export const SETTING_KEYS = [
  'baseUrl',
  'api',
  'merchantKey',
  'payoutKey',
  'generalKey',
  'timeout',
  'merchantName',
  'receiptWidth',
  'counterCurrency',
  'counterPayCurrency',
  'counterNetwork',
  'counterHoldSeconds',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
const KEYS = SETTING_KEYS;
type Key = SettingKey;
type Layer = Partial<Record<Key, string>>;

/** The settings that are secrets: masked when shown, scrubbed from every output. */
export const KEY_SETTINGS: readonly SettingKey[] = ['merchantKey', 'payoutKey', 'generalKey'];

export const ENV_NAMES: Record<Key, string> = {
  baseUrl: 'GATEWAY_BASE_URL',
  api: 'GATEWAY_API',
  merchantKey: 'GATEWAY_MERCHANT_KEY',
  payoutKey: 'GATEWAY_PAYOUT_KEY',
  generalKey: 'GATEWAY_GENERAL_KEY',
  timeout: 'GATEWAY_TIMEOUT',
  merchantName: 'GATEWAY_MERCHANT_NAME',
  receiptWidth: 'GATEWAY_RECEIPT_WIDTH',
  counterCurrency: 'GATEWAY_COUNTER_CURRENCY',
  counterPayCurrency: 'GATEWAY_COUNTER_PAY_CURRENCY',
  counterNetwork: 'GATEWAY_COUNTER_NETWORK',
  counterHoldSeconds: 'GATEWAY_COUNTER_HOLD_SECONDS',
};
/** The global flags that give a setting (the others are a command's own options, or none). */
export const FLAG_NAMES: Partial<Record<Key, string>> & Record<keyof ConfigFlags & Key, string> = {
  baseUrl: '--base-url',
  api: '--api',
  merchantKey: '--merchant-key',
  payoutKey: '--payout-key',
  generalKey: '--general-key',
  timeout: '--timeout',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Settings a file may also give as a number. */
const NUMERIC_KEYS: readonly Key[] = ['timeout', 'receiptWidth', 'counterHoldSeconds'];

/** Reads one level (top or a profile) of the file into strings, refusing wrong types (or, given `problems`, listing them there). */
function readLayer(raw: Record<string, unknown>, where: string, warnings: string[], problems?: string[]): Layer {
  const layer: Layer = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'profiles') continue;
    if (!(KEYS as readonly string[]).includes(name)) {
      warnings.push(`${where}: unknown key "${terminalSafe(name)}" ignored (known: ${KEYS.join(', ')}, profiles)`);
      continue;
    }
    const key = name as Key;
    if (value === undefined || value === null) continue;
    if (NUMERIC_KEYS.includes(key) && typeof value === 'number') {
      layer[key] = String(value);
    } else if (typeof value === 'string') {
      layer[key] = value;
    } else {
      const number = key === 'receiptWidth' ? ' or a number' : NUMERIC_KEYS.includes(key) ? ' or a number of seconds' : '';
      const message = `${where}: "${key}" must be a string${number}`;
      if (problems === undefined) throw new ConfigError(message);
      problems.push(message);
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
  // The URL parser drops tabs and line breaks inside the text: a value holding one would reach
  // another URL than the one written, so any control or invisible character is refused.
  if (/\s/.test(text.trim()) || hasUnsafeCharacters(text.trim())) {
    throw new ConfigError(`base URL from ${origin} must not contain spaces, line breaks or other control or invisible characters`);
  }
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`base URL from ${origin} is not a URL: ${terminalSafe(maskUrlText(text.trim())).slice(0, 100)}`);
  }
  if (url.username || url.password)
    throw new ConfigError(`base URL from ${origin} must not carry credentials`, 'remove the user name and password: https://host/');
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

/** `legacy` or `v1`, any case. */
export function parseApi(text: string, origin: string): ApiChoice {
  const value = text.trim().toLowerCase();
  if ((API_CHOICES as readonly string[]).includes(value)) return value as ApiChoice;
  throw new ConfigError(`api from ${origin} must be legacy or v1 (got ${terminalSafe(text).slice(0, 20)})`);
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

/** A currency symbol as the gateway writes them (BTC, USDT, USDC.e): ASCII letters and digits, upper-cased. */
function parseCurrency(what: string, text: string, origin: string): string {
  const symbol = asciiUpperCase(text.trim());
  if (!/^[A-Z0-9][A-Z0-9._-]{0,19}$/.test(symbol)) {
    throw new ConfigError(`${what} from ${origin} must be a currency symbol such as USD, BTC or USDT (got ${terminalSafe(text).slice(0, 30)})`);
  }
  return symbol;
}

/** gw counter's currency of the amount: a coin or fiat. */
export function parseCounterCurrency(text: string, origin: string): string {
  return parseCurrency('counterCurrency', text, origin);
}

/** gw counter's coin to pay in: a coin, not fiat. */
export function parseCounterPayCurrency(text: string, origin: string): string {
  const symbol = parseCurrency('counterPayCurrency', text, origin);
  if (isFiat(symbol)) throw new ConfigError(`counterPayCurrency from ${origin} must be a coin a payer can send, such as USDT or BTC (${symbol} is fiat)`);
  return symbol;
}

/** One line of visible text, trimmed, of at most `max` characters. */
function parseLine(what: string, text: string, origin: string, max: number): string {
  const value = text.trim();
  if (value === '' || hasUnsafeCharacters(value) || /[\t\r\n]/.test(value)) {
    throw new ConfigError(`${what} from ${origin} must be one line of visible characters (got ${terminalSafe(text).slice(0, 30)})`);
  }
  if ([...value].length > max) throw new ConfigError(`${what} from ${origin} must be at most ${max} characters`);
  return value;
}

/** gw counter's network for the coin, as gw pay's --network takes it ("Tron Network", "TRC20"). */
export function parseCounterNetwork(text: string, origin: string): string {
  return parseLine('counterNetwork', text, origin, 60);
}

/** The merchant's name on receipts. */
export function parseMerchantName(text: string, origin: string): string {
  return parseLine('merchantName', text, origin, MERCHANT_NAME_MAX);
}

/** 32, 42 or 48 columns. */
export function parseReceiptWidth(text: string, origin: string): ReceiptWidth {
  const width = RECEIPT_WIDTHS.find((w) => String(w) === text.trim());
  if (width === undefined) throw new ConfigError(`receiptWidth from ${origin} must be 32, 42 or 48 (got ${terminalSafe(text).slice(0, 20)})`);
  return width;
}

/** Whole seconds, 1 to COUNTER_HOLD_MAX_SECONDS. */
export function parseCounterHoldSeconds(text: string, origin: string): number {
  const trimmed = text.trim();
  const seconds = /^\d{1,4}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(seconds >= 1 && seconds <= COUNTER_HOLD_MAX_SECONDS)) {
    throw new ConfigError(
      `counterHoldSeconds from ${origin} must be a whole number of seconds from 1 to ${COUNTER_HOLD_MAX_SECONDS} (got ${terminalSafe(text).slice(0, 20)})`,
    );
  }
  return seconds;
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
  /** The files read (load.ts), lowest precedence first: user, then project; or the one --config file. */
  layers: readonly LoadedFile[];
  /** Candidates refused for trust reasons: one warning each. */
  skipped?: readonly SkippedFile[];
  /** Every candidate that exists, passed through for `gw config`. */
  looked?: readonly string[];
}

/** A file's top level and its selected profile, read and checked. */
interface FileLayers {
  file: string;
  level: ConfigLevel;
  top: Layer;
  profile: Layer | undefined;
}

/** The "skipped config file …" warning for a refused candidate. */
export function skippedWarning(skipped: SkippedFile): string {
  return `skipped config file ${terminalSafe(skipped.file)}: ${terminalSafe(skipped.reason)} (to read it anyway, name it with --config or list its directory in GATEWAY_TRUSTED_DIRS)`;
}

/** A file holding a key should be readable by its owner only. */
function permissionWarning(file: string, mode: number | undefined): string | undefined {
  if (mode === undefined || process.platform === 'win32' || (mode & 0o077) === 0) return undefined;
  return `${file} holds a key and is readable by group or others; fix it with: chmod 600 ${file}`;
}

/** What the files, the environment and the flags say, before any value is parsed. */
interface Collected {
  profileName: string | undefined;
  profile: Setting<string> | undefined;
  /** Highest precedence first. */
  files: FileLayers[];
  warnings: string[];
  /** Every profile name the files define. */
  knownProfiles: string[];
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);

/**
 * Reads the layers and the profile choice. Strict (no `problems`): the first problem throws a
 * ConfigError. Tolerant: problems are listed in `problems` and resolution goes on without what
 * caused them (a file that is not an object, a value of the wrong type, an unknown profile).
 */
function collect({ flags, env, layers, skipped = [] }: ResolveInput, problems?: string[]): Collected {
  const warnings: string[] = skipped.map(skippedWarning);
  const fail = (error: ConfigError): void => {
    if (problems === undefined) throw error;
    problems.push(error.hint === undefined ? error.message : `${error.message} (${error.hint})`);
  };
  let profile: Setting<string> | undefined;
  const profileName = nonEmpty(flags.profile) ?? nonEmpty(env.GATEWAY_PROFILE);
  if (profileName !== undefined) {
    profile = { value: profileName, source: nonEmpty(flags.profile) ? { kind: 'flag', name: '--profile' } : { kind: 'env', name: 'GATEWAY_PROFILE' } };
  }

  // Highest precedence first.
  const ordered = [...layers].reverse();
  const files: FileLayers[] = [];
  const knownProfiles: string[] = [];
  for (const { file, level, content, mode } of ordered) {
    if (!isRecord(content)) {
      fail(new ConfigError(`config file ${file} must hold an object of settings`));
      continue;
    }
    const top = readLayer(content, file, warnings, problems);
    let profiles = content.profiles;
    if (profiles !== undefined && !isRecord(profiles)) {
      fail(new ConfigError(`config file ${file}: "profiles" must be an object of named profiles`));
      profiles = undefined;
    }
    let selected: Layer | undefined;
    if (isRecord(profiles)) {
      for (const name of Object.keys(profiles)) if (!knownProfiles.includes(name)) knownProfiles.push(name);
      if (profileName !== undefined && Object.hasOwn(profiles, profileName)) {
        const raw = profiles[profileName];
        if (isRecord(raw)) selected = readLayer(raw, `${file} (profile ${profileName})`, warnings, problems);
      }
    }
    files.push({ file, level, top, profile: selected });
    if (keysInFile(content)) {
      const warning = permissionWarning(file, mode);
      if (warning) warnings.push(warning);
    }
  }

  if (profileName !== undefined && !files.some((f) => f.profile !== undefined)) {
    if (files.length === 0) {
      fail(
        new ConfigError(
          `profile "${terminalSafe(profileName)}" was asked for, but no config file was found`,
          'create .gatewayrc (see .gatewayrc.example) or pass --config <file>',
        ),
      );
    } else {
      const where = files.map((f) => f.file).join(' or ');
      const known = knownProfiles.map((p) => terminalSafe(p)).join(', ');
      fail(
        new ConfigError(
          `profile "${terminalSafe(profileName)}" is not in ${where}`,
          known ? `profiles there: ${known}` : `add it under "profiles" in ${files[0]?.file ?? where}`,
        ),
      );
    }
  }
  return { profileName, profile, files, warnings, knownProfiles };
}

/** The text of one setting and where it came from: flag > env > each file's profile, then its top level. */
function pickSetting(key: Key, flags: ConfigFlags, env: NodeJS.ProcessEnv, { files, profileName }: Collected): Setting<string> | undefined {
  const flagName = FLAG_NAMES[key];
  const flag = flagName === undefined ? undefined : nonEmpty(flags[key as keyof ConfigFlags]);
  if (flag !== undefined && flagName !== undefined) return { value: flag, source: { kind: 'flag', name: flagName } };
  const fromEnv = nonEmpty(env[ENV_NAMES[key]]);
  if (fromEnv !== undefined) return { value: fromEnv, source: { kind: 'env', name: ENV_NAMES[key] } };
  for (const { file, level, top, profile: selected } of files) {
    const fromProfile = nonEmpty(selected?.[key]);
    if (fromProfile !== undefined && profileName !== undefined) return { value: fromProfile, source: { kind: 'file', file, level, profile: profileName } };
    const fromTop = nonEmpty(top[key]);
    if (fromTop !== undefined) return { value: fromTop, source: { kind: 'file', file, level } };
  }
  return undefined;
}

/** Every setting's text, parsed; `onBad` decides what a value that does not parse does (strict: throw). */
function assemble(input: ResolveInput, collected: Collected, onBad: (key: Key, setting: Setting<string>, error: ConfigError) => void): ResolvedConfig {
  const picked = Object.fromEntries(SETTING_KEYS.map((key) => [key, pickSetting(key, input.flags, input.env, collected)])) as Record<
    Key,
    Setting<string> | undefined
  >;
  const parsed = <T>(key: Key, parse: (text: string, origin: string) => T): Setting<T> | undefined => {
    const setting = picked[key];
    if (setting === undefined) return undefined;
    try {
      return { value: parse(setting.value, describeSource(setting.source)), source: setting.source };
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      onBad(key, setting, error);
      return undefined;
    }
  };
  const key = (name: Key): Setting<string> | undefined => {
    const setting = picked[name];
    return setting && { value: setting.value.trim(), source: setting.source };
  };
  const baseUrl = parsed('baseUrl', parseBaseUrl);
  const api = parsed('api', parseApi);
  const timeoutMs = parsed('timeout', parseTimeout);
  const merchantKey = key('merchantKey');
  const payoutKey = key('payoutKey');
  const generalKey = key('generalKey');
  const merchantName = parsed('merchantName', parseMerchantName);
  const receiptWidth = parsed('receiptWidth', parseReceiptWidth);
  const counterCurrency = parsed('counterCurrency', parseCounterCurrency);
  const counterPayCurrency = parsed('counterPayCurrency', parseCounterPayCurrency);
  const counterNetwork = parsed('counterNetwork', parseCounterNetwork);
  const counterHoldSeconds = parsed('counterHoldSeconds', parseCounterHoldSeconds);
  const highest = collected.files[0];
  const config: ResolvedConfig = {
    ...(baseUrl && { baseUrl }),
    api: api ?? { value: 'legacy', source: { kind: 'default' } },
    ...(merchantKey && { merchantKey }),
    ...(payoutKey && { payoutKey }),
    ...(generalKey && { generalKey }),
    timeoutMs: timeoutMs ?? { value: DEFAULT_TIMEOUT_SECONDS * 1000, source: { kind: 'default' } },
    ...(merchantName && { merchantName }),
    ...(receiptWidth && { receiptWidth }),
    ...(counterCurrency && { counterCurrency }),
    ...(counterPayCurrency && { counterPayCurrency }),
    ...(counterNetwork && { counterNetwork }),
    counterHoldSeconds: counterHoldSeconds ?? { value: DEFAULT_COUNTER_HOLD_SECONDS, source: { kind: 'default' } },
    ...(collected.profile && { profile: collected.profile }),
    profiles: Object.freeze([...collected.knownProfiles]),
    ...(highest && { file: highest.file }),
    files: Object.freeze(collected.files.map(({ file, level }) => Object.freeze({ file, level }))),
    looked: Object.freeze([...(input.looked ?? [])]),
    skipped: Object.freeze([...(input.skipped ?? [])]),
    warnings: Object.freeze(collected.warnings),
  };
  return Object.freeze(config);
}

export function resolveConfig(input: ResolveInput): ResolvedConfig {
  return assemble(input, collect(input), (_key, _setting, error) => {
    throw error;
  });
}

/** One setting as `gw config` shows it: the text given and where, and why it cannot be used, if so. */
export interface SettingReport {
  /** The text as given (keys trimmed; a caller masks them). */
  readonly text?: string;
  readonly source?: Source;
  /** Why the value cannot be used (gw would stop with exit 78). */
  readonly problem?: string;
}

/** The configuration as far as it resolves, with every problem instead of the first failure. */
export interface ConfigReport {
  /** The usable values (a bad one is left out, or its default used). */
  readonly config: ResolvedConfig;
  /** Each setting's text and source, with its problem if it has one. */
  readonly settings: Readonly<Record<SettingKey, SettingReport>>;
  /** Problems that are not one setting's value: unreadable files, values of the wrong type, an unknown profile. */
  readonly problems: readonly string[];
  /** Files that could not be read (also in problems). */
  readonly failed: readonly SkippedFile[];
}

/**
 * Tolerant resolution, for `gw config`: the same precedence and the same checks as
 * resolveConfig, but every problem is reported where it is instead of stopping at the first.
 */
export function resolveConfigReport(input: ResolveInput & { failed?: readonly SkippedFile[] }): ConfigReport {
  const failed = input.failed ?? [];
  const problems: string[] = failed.map((f) => f.reason);
  const collected = collect(input, problems);
  const bad = new Map<Key, string>();
  const config = assemble(input, collected, (key, _setting, error) => bad.set(key, error.message));
  const settings = Object.fromEntries(
    SETTING_KEYS.map((key) => {
      const setting = pickSetting(key, input.flags, input.env, collected);
      if (setting === undefined) return [key, {}];
      const text = KEY_SETTINGS.includes(key) ? setting.value.trim() : setting.value;
      const problem = bad.get(key);
      return [key, { text, source: setting.source, ...(problem !== undefined && { problem }) }];
    }),
  ) as Record<SettingKey, SettingReport>;
  return Object.freeze({ config, settings: Object.freeze(settings), problems: Object.freeze(problems), failed: Object.freeze([...failed]) });
}

/** Masks a key to its last four characters: "••••abcd". Keys of 8 characters or fewer are masked whole. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '••••';
  return `••••${terminalSafe(key.slice(-4))}`;
}

export function keysInFile(content: unknown): boolean {
  if (!isRecord(content)) return false;
  const has = (layer: Record<string, unknown>): boolean => KEY_SETTINGS.some((key) => typeof layer[key] === 'string');
  if (has(content)) return true;
  const profiles = content.profiles;
  return isRecord(profiles) && Object.values(profiles).some((p) => isRecord(p) && has(p));
}
