// gw config: the configuration as gw resolves it — each value with where it came from, every file
// looked at and which one won — printed even when something is wrong (bad rows say why), ending
// with the next step. gw config set|get|unset edit and read the user's own config file.
import { Command } from 'commander';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { ConfigError, UsageError } from '../errors.js';
import {
  describeSource,
  ENV_NAMES,
  KEY_SETTINGS,
  maskKey,
  parseApi,
  parseBaseUrl,
  parseCounterCurrency,
  parseCounterHoldSeconds,
  parseCounterNetwork,
  parseCounterPayCurrency,
  parseMerchantName,
  parseReceiptWidth,
  parseTimeout,
  SETTING_KEYS,
  type ConfigReport,
  type ResolvedConfig,
  type SettingKey,
  type SettingReport,
  type Source,
} from '../config/resolve.js';
import type { IOStreams } from '../output/iostreams.js';
import { terminalSafe } from '../output/sanitize.js';
import { maskUrlText } from '../output/url-credentials.js';
import { renderTable } from '../output/table.js';

export interface ConfigOptions {
  io: IOStreams;
  report: () => Promise<ConfigReport>;
}

export interface ConfigEditOptions {
  io: IOStreams;
  action: 'set' | 'get' | 'unset';
  key: SettingKey;
  /** set: the value given on the command line (undefined: asked for, or read from stdin). */
  value?: string;
  /** The profile to edit: --profile, else GATEWAY_PROFILE; undefined: the top level. */
  profile?: string;
  report: () => Promise<ConfigReport>;
  /** Where the user's config file is (tests: a temporary directory). */
  origin: { env: NodeJS.ProcessEnv; home: string };
  /** Ends a wait for another gw's edit of the file: Ctrl-C, or the command's deadline. */
  signal?: AbortSignal;
}

const LAYERING = 'Precedence, value by value: flag > environment > project file > user file; in a file, the selected profile comes before its top level.';

export function newCmdConfig(
  f: Factory,
  runF: (opts: ConfigOptions) => Promise<void> = configRun,
  editF: (opts: ConfigEditOptions) => Promise<void> = configEditRun,
): Command {
  const command = withHelp(
    new Command('config').action(() => runF({ io: f.io, report: () => f.configReport() })),
    {
      examples: ['gw config', 'gw config --profile staging', 'gw config --json', 'gw config set baseUrl https://gateway.example', 'gw config set merchantKey'],
      json: '{"file": "/home/me/.config/gateway/config.yaml", "settings": {"baseUrl": {"value", "source", "problem"?} | null, …}, "files": [{"file", "level"}], "looked": […], "skipped": [{"file", "reason"}], "problems": […]}',
      notes: `${LAYERING} Keys are shown masked to their last four characters. A value gw cannot use is shown with the reason; the command still prints everything (gw doctor exits non-zero for it).`,
    },
  );
  const keyArgument = `one of ${SETTING_KEYS.join(', ')}`;
  const edit = (action: ConfigEditOptions['action']) => (key: string, value: string | undefined, _flags: unknown, cmd: Command) => {
    const globals = cmd.optsWithGlobals<{ profile?: string }>();
    const profile = globals.profile ?? (f.env.GATEWAY_PROFILE || undefined);
    return editF({
      io: f.io,
      action,
      key: parseSettingKey(key),
      ...(value !== undefined && { value }),
      ...(profile !== undefined && { profile }),
      report: () => f.configReport(),
      origin: { env: f.env, home: f.origin.home },
      signal: f.signal,
    });
  };
  command.addCommand(
    withHelp(
      new Command('set')
        .description(
          'set a value in your user config file (0600, written atomically; YAML or JSON kept as it is); leave the value out for a key and gw asks for it without echo, or reads it from stdin',
        )
        .argument('<key>', keyArgument)
        .argument('[value]', 'the value (for a key, better left out: the command line shows in ps and shell history)')
        .action(edit('set')),
      {
        examples: [
          'gw config set baseUrl https://gateway.example',
          'gw config set merchantKey',
          'gw config set payoutKey --profile shop < payout-key.txt',
          'gw config set timeout 30',
        ],
        json: '{"file", "key", "profile", "value" (keys masked), "mode": "0600"}',
        notes:
          'Writes $XDG_CONFIG_HOME/gateway/config.yaml (default ~/.config/gateway/config.yaml), or your existing user config file. --profile (or GATEWAY_PROFILE) writes under profiles.<name>.',
      },
    ),
  );
  command.addCommand(
    withHelp(
      new Command('get')
        .description('print the value gw uses for a setting (keys masked), from wherever it comes')
        .argument('<key>', keyArgument)
        .action((key: string, _flags: unknown, cmd: Command) => edit('get')(key, undefined, _flags, cmd)),
      {
        examples: ['gw config get baseUrl', 'gw config get merchantKey --profile shop', 'gw config get timeout --json'],
        json: '{"key", "value", "source"}',
        notes: 'Exit 78 when the setting is not set or cannot be used.',
      },
    ),
  );
  command.addCommand(
    withHelp(
      new Command('unset')
        .description('remove a value from your user config file')
        .argument('<key>', keyArgument)
        .action((key: string, _flags: unknown, cmd: Command) => edit('unset')(key, undefined, _flags, cmd)),
      {
        examples: ['gw config unset payoutKey', 'gw config unset merchantKey --profile staging'],
        json: '{"file", "key", "profile", "removed": true|false}',
      },
    ),
  );
  return command;
}

/** A setting name as the user may write it: baseUrl, base-url, BASE_URL, base_url. */
export function parseSettingKey(text: string): SettingKey {
  const wanted = text.replace(/[-_\s]/g, '').toLowerCase();
  const key = SETTING_KEYS.find((k) => k.toLowerCase() === wanted);
  if (key === undefined) throw new UsageError(`unknown setting "${text.slice(0, 30)}"`, `settings: ${SETTING_KEYS.join(', ')}`);
  return key;
}

const isKey = (key: SettingKey): boolean => KEY_SETTINGS.includes(key);

/** A setting's text as it may be shown: keys masked, a URL's user name and password masked, anything else made terminal-safe. */
function shown(key: SettingKey, text: string, bad = false): string {
  if (isKey(key)) return maskKey(text);
  if (key === 'baseUrl') return terminalSafe(maskUrlText(text));
  if ((key === 'timeout' || key === 'counterHoldSeconds') && !bad) return `${text} s`;
  return terminalSafe(text);
}

/**
 * A usable setting as gw reads it (the URL normalised, seconds as a number, currencies
 * upper-cased, a default where there is one); any other row as given.
 */
function asRead(c: ResolvedConfig, key: SettingKey, row: SettingReport): SettingReport {
  if (row.problem !== undefined) return row;
  const setting = (s: { value: unknown; source: Source } | undefined): SettingReport =>
    s === undefined ? row : { text: s.value instanceof URL ? s.value.href : String(s.value), source: s.source };
  switch (key) {
    case 'baseUrl':
      return setting(c.baseUrl);
    case 'api':
      return setting(c.api);
    case 'timeout':
      return { text: String(c.timeoutMs.value / 1000), source: c.timeoutMs.source };
    case 'merchantName':
      return setting(c.merchantName);
    case 'receiptWidth':
      return setting(c.receiptWidth);
    case 'counterCurrency':
      return setting(c.counterCurrency);
    case 'counterPayCurrency':
      return setting(c.counterPayCurrency);
    case 'counterNetwork':
      return setting(c.counterNetwork);
    case 'counterHoldSeconds':
      return setting(c.counterHoldSeconds);
    default:
      return row;
  }
}

function sourceText(source: Source | undefined): string {
  return source === undefined ? '' : describeSource(source);
}

export async function configRun(opts: ConfigOptions): Promise<void> {
  const { io } = opts;
  const report = await opts.report();
  const c = report.config;
  for (const warning of c.warnings) io.warn(warning);
  const rows = SETTING_KEYS.map((key) => ({ key, ...report.settings[key] }));
  // Values gw can use are shown as it reads them (the URL normalised, seconds as a number); a bad
  // one as it was written. Settings a default fills (api, timeout, counterHoldSeconds) show it.
  const filled = (row: SettingReport & { key: SettingKey }): SettingReport => asRead(c, row.key, row);
  if (io.json) {
    const settings: Record<string, unknown> = {};
    for (const row of rows) {
      const r = filled(row);
      settings[row.key] =
        r.text === undefined
          ? null
          : { value: shown(row.key, r.text, r.problem !== undefined), source: sourceText(r.source), ...(r.problem !== undefined && { problem: r.problem }) };
    }
    settings.profile = c.profile === undefined ? null : { value: c.profile.value, source: describeSource(c.profile.source) };
    return io.printJson({
      file: c.file ?? null,
      settings,
      files: c.files.map((f) => ({ file: f.file, level: f.level })),
      looked: c.looked,
      skipped: c.skipped.map((s) => ({ file: s.file, reason: s.reason })),
      problems: report.problems,
    });
  }

  const bad = rows.some((row) => row.problem !== undefined);
  const table = rows.map((row) => {
    const r = filled(row);
    const cells = r.text === undefined ? [row.key, '(not set)', ''] : [row.key, shown(row.key, r.text, r.problem !== undefined), sourceText(r.source)];
    return bad ? [...cells, r.problem === undefined ? '' : `✗ ${r.problem}`] : cells;
  });
  if (c.profile !== undefined)
    table.push(bad ? ['profile', c.profile.value, describeSource(c.profile.source), ''] : ['profile', c.profile.value, describeSource(c.profile.source)]);
  let text = renderTable(bad ? ['Setting', 'Value', 'Source', 'Problem'] : ['Setting', 'Value', 'Source'], table);

  text += '\nFiles, highest precedence first:\n';
  const failed = new Map(report.failed.map((f) => [f.file, f.reason]));
  const skipped = new Map(c.skipped.map((s) => [s.file, s.reason]));
  const read = new Map(c.files.map((f) => [f.file, f.level]));
  const lines: Array<[string, string, string]> = [];
  for (const f of c.files) lines.push([f.level, f.file, f === c.files[0] && c.files.length > 1 ? 'read; wins where it sets a value' : 'read']);
  for (const file of c.looked) {
    if (read.has(file)) continue;
    if (failed.has(file)) lines.push(['✗', file, 'cannot be used (see Problems)']);
    else if (skipped.has(file)) lines.push(['skipped', file, terminalSafe(skipped.get(file) ?? '')]);
    else lines.push(['', file, 'not used (empty, or no "gateway" field)']);
  }
  if (lines.length === 0) text += '  (none found)\n';
  const fileWidth = Math.max(0, ...lines.map(([, file]) => [...terminalSafe(file)].length));
  for (const [level, file, state] of lines) text += `  ${level.padEnd(8)} ${terminalSafe(file).padEnd(fileWidth)}  ${state}\n`;
  text += `${LAYERING}\n`;
  if (report.problems.length > 0) {
    text += '\nProblems:\n';
    for (const problem of report.problems) text += `  ✗ ${terminalSafe(problem)}\n`;
  }
  io.out(text);

  const anything = SETTING_KEYS.some((key) => report.settings[key].text !== undefined && key !== 'api' && key !== 'timeout' && key !== 'counterHoldSeconds');
  if (!anything && c.files.length === 0) io.notice('\nNothing is set up yet. Next: run gw init (or try gw pay 25 USDT --sandbox, which needs no account).');
  else if (bad || report.problems.length > 0) io.notice('\nNext: fix what is marked ✗ (gw config set <key> <value>, or the file named), then run gw doctor.');
  else if (c.baseUrl === undefined) io.notice('\nNext: set the gateway: gw config set baseUrl https://…, or run gw init.');
  else io.notice('\nNext: gw doctor checks these settings against the gateway.');
}

/** A value for `key` as it will be written: checked as gw will read it. */
function checkedValue(key: SettingKey, text: string): string | number {
  const value = text.trim();
  if (value === '') throw new UsageError(`${key} cannot be empty`, `to remove it: gw config unset ${key}`);
  const origin = 'the value given';
  switch (key) {
    case 'baseUrl':
      parseBaseUrl(value, origin);
      return value;
    case 'api':
      return parseApi(value, origin);
    case 'timeout':
      return parseTimeout(value, origin) / 1000;
    case 'merchantName':
      return parseMerchantName(value, origin);
    case 'receiptWidth':
      return parseReceiptWidth(value, origin);
    case 'counterCurrency':
      return parseCounterCurrency(value, origin);
    case 'counterPayCurrency':
      return parseCounterPayCurrency(value, origin);
    case 'counterNetwork':
      return parseCounterNetwork(value, origin);
    case 'counterHoldSeconds':
      return parseCounterHoldSeconds(value, origin);
    default:
      if (/[\s\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${key} must not contain spaces or control characters`);
      return value;
  }
}

/** Where a value lives in the file. */
function pathOf(key: SettingKey, profile: string | undefined): string[] {
  return profile === undefined ? [key] : ['profiles', profile, key];
}

export async function configEditRun(opts: ConfigEditOptions): Promise<void> {
  const { io, key, profile } = opts;
  const where = (file: string): string => `${file}${profile === undefined ? '' : ` (profile ${profile})`}`;
  if (opts.action === 'get') {
    const report = await opts.report();
    const row = report.settings[key];
    const c = report.config;
    // What every command would stop at (an unknown profile, a file that cannot be read) stops this too.
    const [problem] = report.problems;
    if (problem !== undefined) throw new ConfigError(problem);
    for (const warning of c.warnings) io.warn(warning);
    if (row.problem !== undefined) throw new ConfigError(row.problem);
    // As gw reads it: the URL normalised, api, timeout and counterHoldSeconds with their defaults.
    const { text, source } = asRead(c, key, row);
    if (text === undefined)
      throw new ConfigError(`${key} is not set`, `set it with: gw config set ${key}${isKey(key) ? '' : ' <value>'} (or ${ENV_NAMES[key]})`);
    const value = isKey(key) ? maskKey(text) : terminalSafe(text);
    if (io.json) return io.printJson({ key, value, source: sourceText(source) });
    io.out(`${value}\n`);
    io.notice(`(from ${sourceText(source)})`);
    return;
  }

  const { editConfigFile, modeText, userConfigFile } = await import('../config/write.js');
  const target = await userConfigFile(opts.origin);
  const keys = pathOf(key, profile);
  const lock = opts.signal === undefined ? {} : { signal: opts.signal };

  if (opts.action === 'unset') {
    let removed = false;
    const result = await editConfigFile(target, (doc) => (removed = doc.delete(keys)), lock);
    if (io.json) io.printJson({ file: target.file, key, profile: profile ?? null, removed });
    else if (removed) io.notice(`✓ removed ${key} from ${where(target.file)}${result ? ` (mode ${modeText(result.mode)})` : ''}`);
    else io.notice(`${key} was not set in ${where(target.file)}: nothing to remove`);
    await stillSet(opts, key);
    return;
  }

  // set
  let text = opts.value;
  if (text === undefined) {
    if (io.canPrompt()) {
      const prompter = await io.prompter();
      const question = { message: `${key}${profile === undefined ? '' : ` (profile ${profile})`}:` };
      text = isKey(key) ? await prompter.secret(question) : await prompter.input(question);
    } else {
      text = (await io.readInput()).split(/\r?\n/)[0] ?? '';
      if (text.trim() === '') throw new UsageError(`no value for ${key}`, `give it after the key, or pipe it in: gw config set ${key} < file`);
    }
  } else if (isKey(key)) {
    io.warn(
      `a key on the command line is visible to other users (ps) and stays in your shell history; next time leave it out and gw asks for it, or pipe it in`,
    );
  }
  const value = checkedValue(key, text);
  if (typeof value === 'string' && isKey(key)) io.secrets.push(value);
  const result = await editConfigFile(target, (doc) => doc.set(keys, value), lock);
  if (result === undefined) return;
  const display = isKey(key) ? maskKey(String(value)) : key === 'timeout' || key === 'counterHoldSeconds' ? `${value} s` : terminalSafe(String(value));
  if (io.json) {
    io.printJson({ file: result.file, key, profile: profile ?? null, value: display, mode: modeText(result.mode) });
  } else {
    io.notice(`✓ ${key} = ${display} in ${where(result.file)} (${result.created ? 'created, ' : ''}mode ${modeText(result.mode)})`);
    if (result.narrowedFrom !== undefined) {
      io.notice(`  permissions narrowed from ${modeText(result.narrowedFrom)} to ${modeText(result.mode)}: the file holds keys`);
    }
  }
  await stillSet(opts, key, result.file);
}

/** After an edit of the user file: say so when something else still decides the value. */
async function stillSet(opts: ConfigEditOptions, key: SettingKey, file?: string): Promise<void> {
  const source = (await opts.report().catch(() => undefined))?.settings[key].source;
  if (source === undefined) return;
  if (source.kind === 'file' && source.level === 'user' && source.file === file) return;
  opts.io.note(
    opts.action === 'set'
      ? `${key} is still taken from ${describeSource(source)}, which comes before your user file`
      : `${key} is still set by ${describeSource(source)}`,
  );
}
