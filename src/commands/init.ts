// gw init: from nothing to a working set-up. On a terminal it asks, in order: which gateway (yours,
// by base URL, or the sandbox `gw sandbox` serves on this machine), the merchant key and the
// payout key (typed without echo, each checked at once against the gateway: the merchant key by
// listing the accepted currencies, the payout key by reading the balance; a refusal says which key
// and why, and offers to type it again), and a profile name; then it writes the user's config file
// ($XDG_CONFIG_HOME/gateway/config.yaml, or the user file that exists) safely (src/config/write.ts)
// and says what it wrote where. Ctrl-C at any question stops with nothing written.
//
// For scripts: --yes, or no terminal on stdin, asks nothing: the values come from the flags
// (--base-url, --merchant-key, --payout-key, --profile) or the environment (GATEWAY_*), the keys
// are checked unless --no-verify, and a refused key or an unreachable gateway writes nothing.
import { Command } from 'commander';
import type { Factory, GatewayTarget } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { DEFAULT_TIMEOUT_SECONDS, maskKey, parseBaseUrl, type Setting, type Source } from '../config/resolve.js';
import type { EditableConfig, UserConfigFile } from '../config/write.js';
import { ConfigError, ExitCode, GwError, UsageError } from '../errors.js';
import type { GatewayClient } from '../gateway/gateway.js';
import type { IOStreams } from '../output/iostreams.js';
import type { Prompter } from '../output/prompter.js';
import { terminalSafe } from '../output/sanitize.js';
import { cellWidth, wrapLine, wrapText } from '../output/wrap.js';
import { SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY } from '../sandbox/options.js';

export interface InitOptions {
  io: IOStreams;
  /** --yes: ask nothing, take the flags, the environment and the defaults. */
  yes: boolean;
  /** false with --no-verify: write the keys without checking them. */
  verify: boolean;
  /** --sandbox: set up for the sandbox `gw sandbox` serves on this machine. */
  sandbox: boolean;
  /** --port: the sandbox's port (with --sandbox). */
  port?: number;
  flags: { baseUrl?: string; merchantKey?: string; payoutKey?: string; profile?: string; timeout?: string };
  env: NodeJS.ProcessEnv;
  home: string;
  connect: (target: GatewayTarget) => Promise<GatewayClient>;
  /** Questions on a terminal may take as long as the person needs: the command's deadline is lifted. */
  releaseDeadline: () => void;
  /** Ends a wait for another gw's edit of the config file: Ctrl-C, or the command's deadline. */
  signal?: AbortSignal;
  remember?: (baseUrl: URL, currencies: readonly string[]) => Promise<void>;
}

/** The port gw init suggests for `gw sandbox --port`. */
export const SANDBOX_PORT = 8080;

type KeyKind = 'merchant' | 'payout';
type Verdict = { state: 'accepted'; detail: string } | { state: 'refused' | 'unreachable' | 'failed'; error: GwError } | { state: 'unchecked'; detail: string };

const KEY_NAMES: Record<KeyKind, { setting: 'merchantKey' | 'payoutKey'; flag: string; env: string; label: string; check: string }> = {
  merchant: { setting: 'merchantKey', flag: '--merchant-key', env: 'GATEWAY_MERCHANT_KEY', label: 'Merchant API key', check: 'accepted currencies' },
  payout: { setting: 'payoutKey', flag: '--payout-key', env: 'GATEWAY_PAYOUT_KEY', label: 'Payout API key', check: 'balance' },
};

export function newCmdInit(f: Factory, runF: (opts: InitOptions) => Promise<void> = initRun): Command {
  return withHelp(
    new Command('init')
      .option('-y, --yes', 'ask nothing: take --base-url, --merchant-key, --payout-key, --profile or GATEWAY_* (also when stdin is not a terminal)')
      .option('--no-verify', 'write the keys without checking them against the gateway')
      .option('--port <n>', `with --sandbox: the port gw sandbox will listen on (default ${SANDBOX_PORT})`)
      .action((flags: { yes?: boolean; verify?: boolean; port?: string }, cmd: Command) => {
        const globals = cmd.optsWithGlobals<{
          baseUrl?: string;
          merchantKey?: string;
          payoutKey?: string;
          profile?: string;
          timeout?: string;
          sandbox?: boolean;
        }>();
        const port = flags.port === undefined ? undefined : Number(flags.port);
        if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))
          throw new UsageError(`--port must be a port number 1–65535 (got "${flags.port}")`);
        return runF({
          io: f.io,
          yes: flags.yes === true,
          verify: flags.verify !== false,
          sandbox: globals.sandbox === true,
          ...(port !== undefined && { port }),
          flags: {
            ...(globals.baseUrl !== undefined && { baseUrl: globals.baseUrl }),
            ...(globals.merchantKey !== undefined && { merchantKey: globals.merchantKey }),
            ...(globals.payoutKey !== undefined && { payoutKey: globals.payoutKey }),
            ...(globals.profile !== undefined && { profile: globals.profile }),
            ...(globals.timeout !== undefined && { timeout: globals.timeout }),
          },
          env: f.env,
          home: f.origin.home,
          connect: (target) => f.connect(target),
          releaseDeadline: () => f.releaseDeadline(),
          signal: f.signal,
          remember: async (baseUrl, currencies) => {
            const { rememberCurrencies } = await import('../config/currency-cache.js');
            await rememberCurrencies(f.env, f.origin.home, baseUrl, currencies);
          },
        });
      }),
    {
      examples: [
        'gw init                   # on a terminal: asks, checks, writes',
        'gw init --sandbox         # for gw sandbox --port 8080 on this machine',
        'GATEWAY_MERCHANT_KEY=… gw init --yes --base-url https://gateway.example',
        'GATEWAY_MERCHANT_KEY=… gw init --yes --profile staging --base-url https://staging.example',
      ],
      json: '{"file", "created", "mode": "0600", "profile": null | "name", "settings": {"baseUrl", "merchantKey", "payoutKey"} (keys masked), "checks": {"merchantKey": "accepted"|"not checked"|…, "payoutKey": …}}',
      notes:
        'Writes $XDG_CONFIG_HOME/gateway/config.yaml (default ~/.config/gateway/config.yaml), or your existing user config file, keeping its format and other settings; mode 0600, written atomically, never through a symbolic link. Without a profile name the values are your defaults; with one they go under profiles.<name> (use --profile <name> or GATEWAY_PROFILE); on a terminal, when the file has no defaults yet, gw init offers to write them at the top level too, so they are your defaults (--yes does not). Exit 77 when the gateway refuses a key, 69/75 when it cannot be reached (nothing written; --no-verify writes anyway), 64 when a value is missing and cannot be asked for.',
    },
  );
}

/** A space inside a file path: kept by the wrapping (it breaks lines at spaces only), turned back after. */
const PATH_SPACE = '\u00a0';
const wholePath = (file: string): string => terminalSafe(file).replaceAll(' ', PATH_SPACE);

/**
 * Text for a terminal `width` columns wide (undefined: not a terminal, left as it is): wrapped at
 * word boundaries, a path or a command never broken; continuation lines start with `indent`.
 */
function wrapped(text: string, width: number | undefined, indent = ''): string {
  return (width === undefined ? text : wrapText(text, width, indent)).replaceAll(PATH_SPACE, ' ');
}

/** The columns text on this stream may take: the terminal's less one, undefined when it is not a terminal. */
function columns(io: IOStreams, stream: 'stdout' | 'stderr'): number | undefined {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  return tty ? Math.max(20, io.width() - 1) : undefined;
}

/**
 * The next steps, a command and its `# why` per line, the comments aligned in one column and wrapped
 * within it on a narrow terminal; when that column would be too narrow, each comment goes above its
 * command. A command is never broken.
 */
function nextSteps(next: ReadonlyArray<readonly [string, string]>, width: number | undefined): string {
  const cmdWidth = Math.max(...next.map(([cmd]) => cellWidth(cmd)));
  const column = 2 + cmdWidth + 3;
  const room = width === undefined ? Number.POSITIVE_INFINITY : width - column - 2;
  let text = '';
  for (const [cmd, why] of next) {
    if (room >= 24) {
      const lines = Number.isFinite(room) ? wrapLine(why, room) : [why];
      text += `  ${cmd}${' '.repeat(cmdWidth - cellWidth(cmd))}   # ${lines[0] ?? ''}\n`;
      for (const line of lines.slice(1)) text += `${' '.repeat(column)}# ${line}\n`;
    } else {
      for (const line of wrapLine(why, Math.max(20, (width ?? 80) - 4))) text += `  # ${line}\n`;
      text += `  ${cmd}\n`;
    }
  }
  return text;
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v.trim() === '' ? undefined : v.trim());

function fromFlagOrEnv(flag: string | undefined, flagName: string, env: string | undefined, envName: string): Setting<string> | undefined {
  if (nonEmpty(flag) !== undefined) return { value: flag!.trim(), source: { kind: 'flag', name: flagName } };
  if (nonEmpty(env) !== undefined) return { value: env!.trim(), source: { kind: 'env', name: envName } };
  return undefined;
}

const TYPED: Source = { kind: 'flag', name: 'the key typed in gw init' };
const EXISTING = (file: string, profile: string | undefined): Source => ({ kind: 'file', file, level: 'user', ...(profile !== undefined && { profile }) });

function validProfile(name: string): true | string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(name) ? true : 'letters, digits, ".", "_" and "-", up to 40 characters';
}

function checkBaseUrl(text: string): true | string {
  try {
    parseBaseUrl(text, 'the URL given');
    return true;
  } catch (error) {
    return error instanceof ConfigError ? error.message.replace(/ from the URL given/, '') : 'not a URL';
  }
}

/** Checks one key live; the verdict says what happened in words a person reads. */
async function checkKey(opts: InitOptions, baseUrl: Setting<URL>, kind: KeyKind, key: Setting<string>): Promise<Verdict> {
  const timeoutMs = opts.flags.timeout !== undefined ? Number(opts.flags.timeout) * 1000 || DEFAULT_TIMEOUT_SECONDS * 1000 : DEFAULT_TIMEOUT_SECONDS * 1000;
  try {
    const client = await opts.connect({ baseUrl, timeoutMs, ...(kind === 'merchant' ? { merchantKey: key } : { payoutKey: key }) });
    if (kind === 'merchant') {
      const currencies = await client.acceptedCurrencies();
      await opts
        .remember?.(
          baseUrl.value,
          currencies.map((c) => c.raw()),
        )
        .catch(() => undefined);
      return { state: 'accepted', detail: `${currencies.length} accepted currencies` };
    }
    const balances = await client.balances();
    return { state: 'accepted', detail: `the balance has ${balances.length} currenc${balances.length === 1 ? 'y' : 'ies'}` };
  } catch (error) {
    if (!(error instanceof GwError)) throw error;
    if (error.exitCode === ExitCode.NOPERM) return { state: 'refused', error };
    if (error.exitCode === ExitCode.UNAVAILABLE || error.exitCode === ExitCode.TEMPFAIL) return { state: 'unreachable', error };
    if (error.exitCode === ExitCode.INTERRUPTED || error.exitCode === ExitCode.TERMINATED) throw error;
    return { state: 'failed', error };
  }
}

/** A key's verdict on stderr, its next lines indented under it on a terminal. */
function sayVerdict(io: IOStreams, kind: KeyKind, verdict: Verdict): void {
  io.notice(wrapped(verdictLine(io, kind, verdict), columns(io, 'stderr'), '    '));
}

function verdictLine(io: IOStreams, kind: KeyKind, verdict: Verdict): string {
  const name = `${kind} key`;
  switch (verdict.state) {
    case 'accepted':
      return `  ${io.errChalk.green('✓')} ${name} accepted (${verdict.detail})`;
    case 'unchecked':
      return `  ${io.errChalk.dim('–')} ${name} not checked: ${verdict.detail}`;
    case 'refused':
      return `  ${io.errChalk.red('✗')} ${name} refused: ${verdict.error.message.replace(/^the gateway refused:\s*/i, '')}`;
    default:
      return `  ${io.errChalk.red('✗')} the ${name} could not be checked: ${verdict.error.message}`;
  }
}

interface Answers {
  baseUrl: Setting<URL>;
  sandbox: boolean;
  keys: Partial<Record<KeyKind, Setting<string>>>;
  verdicts: Partial<Record<KeyKind, Verdict>>;
  profile: string | undefined;
  /** The profile's values are also written at the top level: your defaults, used without --profile. */
  makeDefault?: boolean;
}

export async function initRun(opts: InitOptions): Promise<void> {
  const { io } = opts;
  const { userConfigFile, openConfigFile, editConfigFile, modeText } = await import('../config/write.js');
  const target = await userConfigFile({ env: opts.env, home: opts.home });
  const existing = await openConfigFile(target);
  const interactive = !opts.yes && io.canPrompt();
  const answers = interactive ? await ask(opts, target, existing) : await fromFlags(opts);

  // Write.
  const keys = answers.keys;
  const at = (key: string): string[] => (answers.profile === undefined ? [key] : ['profiles', answers.profile, key]);
  const result = await editConfigFile(
    target,
    (doc) => {
      const url = answers.baseUrl.value;
      doc.set(at('baseUrl'), url.pathname === '/' ? url.origin : url.href);
      for (const kind of ['merchant', 'payout'] as const) {
        const key = keys[kind];
        if (key !== undefined) doc.set(at(KEY_NAMES[kind].setting), key.value);
      }
      if (answers.makeDefault === true) {
        doc.set(['baseUrl'], url.pathname === '/' ? url.origin : url.href);
        for (const kind of ['merchant', 'payout'] as const) {
          const key = keys[kind];
          if (key !== undefined) doc.set([KEY_NAMES[kind].setting], key.value);
        }
      }
    },
    opts.signal === undefined ? {} : { signal: opts.signal },
  );
  if (result === undefined) return;

  // Say what was written where.
  const checks: Record<string, string> = {};
  for (const kind of ['merchant', 'payout'] as const) {
    const verdict = answers.verdicts[kind];
    checks[KEY_NAMES[kind].setting] =
      keys[kind] === undefined
        ? 'not set'
        : verdict === undefined
          ? 'not checked'
          : verdict.state === 'accepted'
            ? 'accepted'
            : verdict.state === 'unchecked'
              ? 'not checked'
              : `${verdict.state} (kept)`;
  }
  const settings = {
    baseUrl: answers.baseUrl.value.href,
    merchantKey: keys.merchant === undefined ? null : maskKey(keys.merchant.value),
    payoutKey: keys.payout === undefined ? null : maskKey(keys.payout.value),
  };
  if (io.json) {
    io.printJson({
      file: result.file,
      created: result.created,
      mode: modeText(result.mode),
      profile: answers.profile ?? null,
      settings,
      checks,
    });
    return;
  }
  const { chalk } = io;
  const rows: Array<[string, string, string]> = [
    ['baseUrl', settings.baseUrl, answers.sandbox ? '(the sandbox on this machine)' : ''],
    [
      'merchantKey',
      settings.merchantKey ?? '(not set)',
      checks.merchantKey === 'accepted' ? chalk.green('✓ accepted') : settings.merchantKey === null ? '' : (checks.merchantKey ?? ''),
    ],
    [
      'payoutKey',
      settings.payoutKey ?? '(not set)',
      checks.payoutKey === 'accepted' ? chalk.green('✓ accepted') : settings.payoutKey === null ? '' : (checks.payoutKey ?? ''),
    ],
  ];
  const width = Math.max(...rows.map(([, value]) => [...value].length));
  const outWidth = columns(io, 'stdout');
  let text = `${interactive ? '\n' : ''}${wrapped(`${result.created ? 'Created' : 'Updated'} ${wholePath(result.file)} (mode ${modeText(result.mode)}${answers.profile === undefined ? '' : `, profile ${answers.profile}${answers.makeDefault === true ? ', also your defaults' : ''}`}):`, outWidth, '  ')}\n`;
  // A note that does not fit goes on under its column (or indented, when that column is far right).
  const noteAt = 17 + width <= (outWidth ?? 80) - 20 ? ' '.repeat(17 + width) : '    ';
  for (const [name, value, note] of rows) text += `${wrapped(`  ${name.padEnd(12)} ${value.padEnd(width)}  ${note}`.trimEnd(), outWidth, noteAt)}\n`;
  if (result.narrowedFrom !== undefined) text += `  (permissions narrowed from ${modeText(result.narrowedFrom)}: the file holds keys)\n`;
  const use = answers.profile === undefined || answers.makeDefault === true ? 'gw' : `gw --profile ${answers.profile}`;
  const next: Array<[string, string]> = [];
  if (answers.sandbox) next.push([`gw sandbox --port ${answers.baseUrl.value.port || SANDBOX_PORT}`, 'in another terminal: the sandbox this set-up points at']);
  next.push([`${use} doctor`, 'checks the set-up against the gateway, any time']);
  next.push([`${use} pay 25 USDT`, 'a payment with its QR code']);
  io.out(text);
  // The next steps are advice, not what was written: stderr.
  let advice = `\nNext:\n${nextSteps(next, columns(io, 'stderr'))}`;
  if (answers.profile !== undefined && answers.makeDefault !== true)
    advice += `  (export GATEWAY_PROFILE=${answers.profile} to use the profile without --profile)\n`;
  io.notice(advice);
}

/** --yes, or no terminal: everything from the flags and the environment; nothing asked. */
async function fromFlags(opts: InitOptions): Promise<Answers> {
  const sandbox = opts.sandbox;
  const baseText = sandbox ? `http://127.0.0.1:${opts.port ?? SANDBOX_PORT}` : (nonEmpty(opts.flags.baseUrl) ?? nonEmpty(opts.env.GATEWAY_BASE_URL));
  if (baseText === undefined) {
    throw new UsageError(
      `gw init needs the gateway's base URL${opts.yes ? '' : ' (it cannot ask: stdin is not a terminal)'}`,
      'give --base-url https://… (or GATEWAY_BASE_URL), or --sandbox; run gw init on a terminal to be asked',
    );
  }
  const baseSource: Source = sandbox
    ? { kind: 'flag', name: '--sandbox' }
    : nonEmpty(opts.flags.baseUrl)
      ? { kind: 'flag', name: '--base-url' }
      : { kind: 'env', name: 'GATEWAY_BASE_URL' };
  const baseUrl = {
    value: parseBaseUrl(baseText, sandbox ? '--sandbox' : baseSource.kind === 'flag' ? '--base-url' : 'env GATEWAY_BASE_URL'),
    source: baseSource,
  };
  const keys: Answers['keys'] = {};
  for (const kind of ['merchant', 'payout'] as const) {
    const n = KEY_NAMES[kind];
    const key = fromFlagOrEnv(opts.flags[n.setting], n.flag, opts.env[n.env], n.env);
    if (key !== undefined) keys[kind] = key;
    else if (sandbox) keys[kind] = { value: kind === 'merchant' ? SANDBOX_MERCHANT_KEY : SANDBOX_PAYOUT_KEY, source: { kind: 'flag', name: '--sandbox' } };
  }
  const profile = nonEmpty(opts.flags.profile) ?? nonEmpty(opts.env.GATEWAY_PROFILE) ?? (sandbox ? 'sandbox' : undefined);
  if (profile !== undefined && validProfile(profile) !== true) throw new UsageError(`profile name "${profile.slice(0, 40)}": ${validProfile(profile)}`);
  const verdicts: Answers['verdicts'] = {};
  if (opts.verify) {
    for (const kind of ['merchant', 'payout'] as const) {
      const key = keys[kind];
      if (key === undefined) continue;
      const verdict = await checkKey(opts, baseUrl, kind, key);
      verdicts[kind] = verdict;
      if (verdict.state === 'accepted') {
        sayVerdict(opts.io, kind, verdict);
        continue;
      }
      if (sandbox && verdict.state === 'unreachable') {
        verdicts[kind] = {
          state: 'unchecked',
          detail: `nothing answers at ${baseUrl.value.origin} yet: start it with gw sandbox --port ${baseUrl.value.port}`,
        };
        sayVerdict(opts.io, kind, verdicts[kind]!);
        continue;
      }
      if (verdict.state === 'unchecked') continue;
      const { error } = verdict;
      const which = `the ${kind} key (from ${describe(key.source)})`;
      if (verdict.state === 'refused') {
        throw error.with({
          message: `the gateway refused ${which}: ${error.message.replace(/^the gateway refused:\s*/i, '')}; nothing was written`,
          hint: error.hint ?? `check ${which}`,
        });
      }
      throw error.with({
        message: `${which} could not be checked: ${error.message}; nothing was written`,
        hint: `${error.hint ? `${error.hint}; ` : ''}--no-verify writes without checking`,
      });
    }
  }
  return { baseUrl, sandbox, keys, verdicts, profile };
}

function describe(source: Source): string {
  return source.kind === 'env' ? `env ${source.name}` : source.kind === 'flag' ? source.name : source.kind === 'file' ? source.file : source.kind;
}

/** On a terminal: ask, check each key as it is typed, and offer what to do when one is refused. */
async function ask(opts: InitOptions, target: UserConfigFile, existing: EditableConfig): Promise<Answers> {
  const { io } = opts;
  opts.releaseDeadline();
  const prompter: Prompter = await io.prompter();
  // A question takes the terminal's width less its "? " mark and a "(Y/n)" after it; the prompts
  // would break a longer line at the last column, mid-word.
  const stderrColumns = columns(io, 'stderr');
  const questionWidth = stderrColumns === undefined ? undefined : stderrColumns - 8;
  io.notice(
    wrapped(
      `This sets up gw for you and writes ${wholePath(target.file)}.\nKeys are typed without echo and checked with the gateway; Ctrl-C stops without writing anything.\n`,
      stderrColumns,
    ),
  );
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

  // Profile first when given, so the existing values shown are that profile's.
  let profile = nonEmpty(opts.flags.profile);
  const current = (key: string): string | undefined =>
    str(existing.get(profile === undefined ? [key] : ['profiles', profile, key])) ?? (profile === undefined ? undefined : str(existing.get([key])));

  // 1. The gateway.
  let sandbox = opts.sandbox;
  let baseUrl: Setting<URL> | undefined;
  const flagUrl = nonEmpty(opts.flags.baseUrl) ?? nonEmpty(opts.env.GATEWAY_BASE_URL);
  const askUrl = async (): Promise<Setting<URL>> => {
    if (!sandbox) {
      sandbox =
        (await prompter.select({
          message: 'Which gateway?',
          choices: [
            { name: 'My gateway account (enter its base URL)', value: 'url' },
            { name: 'The sandbox: gw sandbox on this machine (test keys, no real money)', value: 'sandbox' },
          ],
          default: 'url',
        })) === 'sandbox';
    }
    if (sandbox) {
      const port = await prompter.input({
        message: 'Port gw sandbox will listen on:',
        default: String(opts.port ?? SANDBOX_PORT),
        validate: (v) => (/^\d{1,5}$/.test(v.trim()) && Number(v) > 0 && Number(v) < 65536 ? true : 'a port number 1–65535'),
      });
      return { value: new URL(`http://127.0.0.1:${Number(port)}`), source: { kind: 'flag', name: 'the sandbox' } };
    }
    const suggested = flagUrl ?? current('baseUrl');
    const text = await prompter.input({
      message: 'Gateway base URL (https://…):',
      ...(suggested !== undefined && { default: suggested }),
      validate: checkBaseUrl,
    });
    return { value: parseBaseUrl(text, 'the URL given'), source: { kind: 'flag', name: 'the URL typed in gw init' } };
  };
  if (sandbox) baseUrl = { value: new URL(`http://127.0.0.1:${opts.port ?? SANDBOX_PORT}`), source: { kind: 'flag', name: '--sandbox' } };
  else if (nonEmpty(opts.flags.baseUrl) !== undefined)
    baseUrl = { value: parseBaseUrl(opts.flags.baseUrl!, '--base-url'), source: { kind: 'flag', name: '--base-url' } };
  else baseUrl = await askUrl();

  // 2. The keys, each checked as soon as it is typed.
  const keys: Answers['keys'] = {};
  const verdicts: Answers['verdicts'] = {};
  for (const kind of ['merchant', 'payout'] as const) {
    const n = KEY_NAMES[kind];
    const before = current(n.setting);
    let key: Setting<string> | undefined = fromFlagOrEnv(opts.flags[n.setting], n.flag, undefined, n.env);
    if (key === undefined && sandbox) {
      key = { value: kind === 'merchant' ? SANDBOX_MERCHANT_KEY : SANDBOX_PAYOUT_KEY, source: { kind: 'flag', name: 'the sandbox' } };
      io.notice(`${n.label}: the sandbox's (${key.value})`);
    }
    for (;;) {
      if (key === undefined) {
        const keep =
          before !== undefined ? `Enter keeps ${maskKey(before)}` : kind === 'payout' ? 'Enter to skip: only gw balance needs it' : 'needed for payments';
        const typed = (
          await prompter.secret({
            message: `${n.label} (${keep}):`,
            validate: (v) =>
              v.trim() === '' && before === undefined && kind === 'merchant'
                ? 'the merchant key is needed to create payments'
                : /\s/.test(v.trim())
                  ? 'a key has no spaces'
                  : true,
          })
        ).trim();
        if (typed === '') {
          if (before !== undefined) key = { value: before, source: EXISTING(target.file, profile) };
          else break; // payout key skipped
        } else key = { value: typed, source: TYPED };
      }
      io.secrets.push(key.value);
      if (!opts.verify) break;
      const verdict = await checkKey(opts, baseUrl, kind, key);
      verdicts[kind] = verdict;
      if (sandbox && verdict.state === 'unreachable') {
        verdicts[kind] = {
          state: 'unchecked',
          detail: `nothing answers at ${baseUrl.value.origin} yet: start it with gw sandbox --port ${baseUrl.value.port}`,
        };
        sayVerdict(io, kind, verdicts[kind]!);
        break;
      }
      sayVerdict(io, kind, verdict);
      if (verdict.state === 'accepted') break;
      const choice = await prompter.select({
        message: verdict.state === 'refused' ? `What now with the ${kind} key?` : 'The gateway could not be reached. What now?',
        choices: [
          ...(verdict.state === 'refused'
            ? [{ name: 'Type it again', value: 'again' }]
            : [
                { name: 'Try again', value: 'retry' },
                { name: 'Change the base URL', value: 'url' },
              ]),
          { name: 'Keep it anyway (write it unchecked)', value: 'keep' },
          ...(kind === 'payout' ? [{ name: 'Leave the payout key out', value: 'skip' }] : []),
        ],
      });
      if (choice === 'keep') break;
      if (choice === 'skip') {
        key = undefined;
        delete verdicts[kind];
        break;
      }
      if (choice === 'url') baseUrl = await askUrl();
      if (choice === 'again') key = undefined;
    }
    if (key !== undefined) keys[kind] = key;
  }

  // 3. The profile.
  if (profile === undefined) {
    const named = await prompter.input({
      message: sandbox ? 'Profile name (Enter for "sandbox"):' : 'Profile name (Enter for none: these become your defaults):',
      ...(sandbox && { default: 'sandbox' }),
      validate: (v) => (v.trim() === '' ? true : validProfile(v.trim())),
    });
    profile = nonEmpty(named);
  }

  // 4. Replacing what is there?
  const replaced = ['baseUrl', 'merchantKey', 'payoutKey'].filter(
    (k) => str(existing.get(profile === undefined ? [k] : ['profiles', profile, k])) !== undefined,
  );
  if (replaced.length > 0) {
    const ok = await prompter.confirm({
      message: wrapped(
        `${wholePath(target.file)} already has ${replaced.join(', ')}${profile === undefined ? '' : ` in profile ${profile}`}: replace?`,
        questionWidth,
      ),
      default: true,
    });
    if (!ok) throw new GwError(ExitCode.OK, 'nothing was written');
  }

  // 5. A named profile and no defaults yet: commands without --profile would find no gateway.
  let makeDefault = false;
  if (profile !== undefined && str(existing.get(['baseUrl'])) === undefined && str(existing.get(['merchantKey'])) === undefined) {
    makeDefault = await prompter.confirm({
      message: wrapped(
        `You have no defaults yet: make profile ${profile} your default (its values also at the top level, used without --profile)?`,
        questionWidth,
      ),
      default: true,
    });
  }
  return { baseUrl, sandbox, keys, verdicts, profile, makeDefault };
}
