// Shell completion. `gw completion bash|zsh|fish` prints a small script for that shell; the script
// asks gw itself what fits where the cursor is, through the hidden command `gw __complete -- <words>`
// (the words after `gw`, the last one being the word under the cursor). One engine for every
// shell, read from the Commander program, so completion can never disagree with the commands:
//   - command and subcommand names, long options (the command's and the global ones), with their
//     descriptions where the shell shows them (zsh, fish);
//   - option values gw knows: --qr-theme dark|light, --qr-charset utf8|ascii, --api legacy|v1, --fee-paid-by-payer 0|1,
//     file names for --config and --qr-out, setting names for gw config set|get|unset;
//   - profile names (--profile), read from the config files as gw reads them — no network;
//   - currency symbols (pay, balance, rate, --pay-currency): the merchant's accepted list as last
//     fetched by gw doctor or gw init for this base URL (src/config/currency-cache.ts), else the
//     coins gw knows. Completion never calls the gateway: a TAB must answer at once, offline too.
// The answer: one candidate per line ("value" or "value<TAB>description"), then one line
// ":files" (the shell adds file names) or ":none".
import type { Command, Option } from 'commander';
import { Command as CommanderCommand } from 'commander';
import type { Factory } from '../cmdutil/factory.js';
import { withHelp } from '../cmdutil/help.js';
import { cacheKey, readCurrencyCache } from '../config/currency-cache.js';
import { SETTING_KEYS } from '../config/resolve.js';
import { UsageError } from '../errors.js';
import type { IOStreams } from '../output/iostreams.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function newCmdCompletion(f: Factory): Command {
  return withHelp(
    new CommanderCommand('completion').argument('<shell>', SHELLS.join(', ')).action((shell: string) => completionRun({ io: f.io, shell: parseShell(shell) })),
    {
      examples: [
        'source <(gw completion bash)     # this bash session',
        'gw completion bash > ~/.local/share/bash-completion/completions/gw',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion the user's shell performs
        'gw completion zsh > "${fpath[1]}/_gw"',
        'gw completion fish > ~/.config/fish/completions/gw.fish',
      ],
      notes:
        'Completes commands, options, profile names from your config files, and currency symbols: the ones your gateway accepts as last seen by gw doctor or gw init (cached, no network at TAB time), else the coins gw knows.',
    },
  );
}

function parseShell(text: string): Shell {
  const shell = text.trim().toLowerCase();
  if ((SHELLS as readonly string[]).includes(shell)) return shell as Shell;
  throw new UsageError(`unknown shell "${text.slice(0, 20)}": gw completes ${SHELLS.join(', ')}`);
}

export async function completionRun(opts: { io: IOStreams; shell: Shell }): Promise<void> {
  opts.io.out(SCRIPTS[opts.shell]);
}

const SCRIPTS: Record<Shell, string> = {
  bash: `# gw completion for bash.
# This shell:       source <(gw completion bash)
# Every new shell:  gw completion bash > ~/.local/share/bash-completion/completions/gw
#                   (or add the source line to ~/.bashrc)
_gw_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local IFS=$'\\n'
  local out line directive
  out=$(command gw __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
  directive="\${out##*$'\\n'}"
  if [[ "$out" == *$'\\n'* ]]; then out="\${out%$'\\n'*}"; else out=""; fi
  # --option=value: bash splits at "=", the word being completed is what follows it.
  [[ "$cur" == "=" ]] && cur=""
  COMPREPLY=()
  for line in $out; do
    line="\${line%%$'\\t'*}"
    [[ "$line" == "$cur"* ]] && COMPREPLY+=("$line")
  done
  if [[ "$directive" == ":files" ]]; then
    COMPREPLY+=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
  fi
  return 0
}
complete -F _gw_complete gw
`,
  zsh: `#compdef gw
# gw completion for zsh.
# This shell (after compinit):  source <(gw completion zsh)
# Every new shell:              gw completion zsh > "\${fpath[1]}/_gw"
_gw() {
  local -a lines described
  local line directive
  lines=("\${(@f)$(command gw __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  directive="\${lines[-1]}"
  lines=("\${(@)lines[1,-2]}")
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    if [[ "$line" == *$'\\t'* ]]; then
      described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      described+=("\${line//:/\\\\:}")
    fi
  done
  (( \${#described} )) && _describe -t gw 'gw' described
  [[ "$directive" == ":files" ]] && _files
  return 0
}
if [[ "\${funcstack[1]}" == "_gw" ]]; then _gw "$@"; else compdef _gw gw; fi
`,
  fish: `# gw completion for fish.
# This shell:       gw completion fish | source
# Every new shell:  gw completion fish > ~/.config/fish/completions/gw.fish
function __gw_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l cur (commandline -ct)
    set -l out (command gw __complete -- $words "$cur" 2>/dev/null)
    or return
    set -l directive $out[-1]
    set -e out[-1]
    printf '%s\\n' $out
    if test "$directive" = ":files"
        __fish_complete_path "$cur"
    end
end
complete -c gw -f -a '(__gw_complete)'
`,
};

// ---- the engine ---------------------------------------------------------------------------------

export interface CompletionSources {
  profiles(explicitConfig?: string): Promise<string[]>;
  currencies(explicitConfig?: string): Promise<string[]>;
}

export interface Completion {
  candidates: string[];
  files: boolean;
}

function visibleOptions(command: Command): Option[] {
  return command.options.filter((o) => !o.hidden);
}

/** The command's options and its ancestors' (global) options. */
function optionsFor(command: Command): Option[] {
  const all: Option[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) all.push(...visibleOptions(c));
  return all;
}

function findOption(command: Command, name: string): Option | undefined {
  return optionsFor(command).find((o) => o.long === name || o.short === name);
}

function subcommands(command: Command): Command[] {
  return command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
}

const CURRENCY_POSITIONS: Record<string, number[]> = { pay: [1], balance: [0], rate: [0, 1] };

/** What may come at the last word of `words` (the words after `gw`). */
export async function complete(program: Command, input: readonly string[], sources: CompletionSources): Promise<Completion> {
  // bash splits --option=value at "=": glue the pieces back.
  // The value after "=" is then the word being completed: its candidates are plain values.
  const words: string[] = [];
  let splitAtEquals = false;
  for (let i = 0; i < input.length; i++) {
    const word = input[i] ?? '';
    if (word === '=' && words.length > 0 && (words[words.length - 1] ?? '').startsWith('--')) {
      words[words.length - 1] += `=${input[i + 1] ?? ''}`;
      splitAtEquals = i + 2 >= input.length;
      i++;
    } else words.push(word);
  }
  const current = words.pop() ?? '';
  let command = program;
  let positional = 0;
  let pending: Option | undefined;
  let explicitConfig: string | undefined;
  let afterDashes = false;
  let help = false;
  for (const word of words) {
    if (command === program && positional === 0 && !help && word === 'help') {
      help = true;
      continue;
    }
    if (pending !== undefined) {
      if (pending.long === '--config') explicitConfig = word;
      pending = undefined;
      continue;
    }
    if (!afterDashes && word === '--') {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && word.startsWith('-')) {
      const [name, value] = word.split(/=(.*)/s, 2);
      const option = findOption(command, name ?? '');
      if (option?.long === '--config' && value !== undefined) explicitConfig = value;
      if (option !== undefined && (option.required || option.optional) && value === undefined) pending = option;
      continue;
    }
    const sub = subcommands(command).find((c) => c.name() === word || c.aliases().includes(word));
    if (sub !== undefined && positional === 0) {
      command = sub;
      continue;
    }
    positional++;
  }
  const filter = (values: readonly string[], prefix = current): string[] =>
    values.filter((v) => v.startsWith(prefix) || v.toLowerCase().startsWith(prefix.toLowerCase()));
  const valuesFor = async (option: Option, prefix: string): Promise<Completion> => {
    if (option.argChoices !== undefined) return { candidates: filter(option.argChoices, prefix), files: false };
    switch (option.long) {
      case '--profile':
        return { candidates: filter(await sources.profiles(explicitConfig), prefix), files: false };
      case '--api':
        return { candidates: filter(['legacy', 'v1'], prefix), files: false };
      case '--pay-currency':
        return { candidates: filter(await sources.currencies(explicitConfig), prefix), files: false };
      case '--fee-paid-by-payer':
        return { candidates: filter(['0', '1'], prefix), files: false };
      case '--config':
      case '--qr-out':
        return { candidates: [], files: true };
      default:
        return { candidates: [], files: false };
    }
  };

  if (pending !== undefined) return valuesFor(pending, current);
  if (current.startsWith('--') && current.includes('=')) {
    const [name = '', value = ''] = current.split(/=(.*)/s, 2);
    const option = findOption(command, name);
    if (option === undefined) return { candidates: [], files: false };
    const values = await valuesFor(option, value);
    return splitAtEquals ? values : { ...values, candidates: values.candidates.map((v) => `${name}=${v}`) };
  }
  if (current.startsWith('-')) {
    const options = optionsFor(command).filter((o) => o.long !== undefined && o.long !== '--version' && !o.negate);
    const negated = optionsFor(command).filter((o) => o.negate && o.long !== undefined);
    const list = [...options, ...negated].map((o) => `${o.long ?? ''}\t${o.description}`);
    list.push('--help\tshow help for the command');
    return { candidates: list.filter((line) => line.startsWith(current)), files: false };
  }
  const path = commandPath(command);
  const subs = subcommands(command);
  if (subs.length > 0 && positional === 0) {
    // The line the parent's help shows: a registry row's summary (src/commands/registry.ts).
    const names = subs.map((c) => `${c.name()}\t${c.summary() || c.description()}`);
    if (command === program) names.push('help\tshow help for a command');
    return { candidates: names.filter((line) => line.startsWith(current)), files: false };
  }
  if (help) return { candidates: positional === 0 ? filter(subcommands(program).map((c) => c.name())) : [], files: false };
  if (path === 'completion' && positional === 0) return { candidates: filter(SHELLS), files: false };
  if (/^config (set|get|unset)$/.test(path) && positional === 0) return { candidates: filter(SETTING_KEYS), files: false };
  if (path === 'config set' && positional === 1) {
    const key = words[words.length - 1] ?? '';
    if (/^api$/i.test(key)) return { candidates: filter(['legacy', 'v1']), files: false };
    if (/^receipt[-_]?width$/i.test(key)) return { candidates: filter(['32', '42', '48']), files: false };
    return { candidates: [], files: false };
  }
  if (CURRENCY_POSITIONS[path]?.includes(positional)) return { candidates: filter(await sources.currencies(explicitConfig)), files: false };
  return { candidates: [], files: false };
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null && c.parent !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The hidden `gw __complete -- <words…>` that the shell scripts call. */
export function newCmdComplete(f: Factory, program: Command): Command {
  return new CommanderCommand('__complete')
    .description('complete a command line (used by the scripts of gw completion)')
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[] = []) => {
      const result = await complete(program, words, completionSources(f));
      f.io.out(`${result.candidates.map((c) => `${c}\n`).join('')}${result.files ? ':files' : ':none'}\n`);
    });
}

// ---- sources: config files and the currency cache -------------------------------------------------

function completionSources(f: Factory): CompletionSources {
  let loaded: Promise<{ profiles: string[]; baseUrl?: string }> | undefined;
  const load = (explicitConfig?: string): Promise<{ profiles: string[]; baseUrl?: string }> => {
    loaded ??= (async () => {
      const origin = { cwd: f.origin.cwd, home: f.origin.home, env: f.env };
      const { mayHaveConfig } = await import('../config/candidates.js');
      if (explicitConfig === undefined && !mayHaveConfig(origin)) return { profiles: [], ...(f.env.GATEWAY_BASE_URL && { baseUrl: f.env.GATEWAY_BASE_URL }) };
      const { loadConfigFiles } = await import('../config/load.js');
      const { resolveConfigReport } = await import('../config/resolve.js');
      const found = await loadConfigFiles({ ...origin, ...(explicitConfig !== undefined && { explicitFile: explicitConfig }), tolerant: true });
      const profiles = new Set<string>();
      for (const layer of found.layers) {
        const content = layer.content as { profiles?: unknown } | null;
        if (content !== null && typeof content === 'object' && typeof content.profiles === 'object' && content.profiles !== null) {
          for (const name of Object.keys(content.profiles)) if (/^[^\s\u0000-\u001f]+$/.test(name)) profiles.add(name);
        }
      }
      const report = resolveConfigReport({ flags: {}, env: f.env, layers: found.layers });
      return { profiles: [...profiles].sort(), ...(report.config.baseUrl && { baseUrl: report.config.baseUrl.value.href }) };
    })().catch(() => ({ profiles: [] }));
    return loaded;
  };
  return {
    profiles: async (explicitConfig) => (await load(explicitConfig)).profiles,
    currencies: async (explicitConfig) => {
      const { baseUrl } = await load(explicitConfig);
      const cached = await readCurrencyCache(f.env, f.origin.home);
      const list = baseUrl !== undefined ? cached[cacheKey(baseUrl)] : undefined;
      if (list !== undefined && list.length > 0) return list;
      return knownCoins();
    },
  };
}

/** The coins gw knows (its network registry): the fallback when no accepted list was seen. */
export async function knownCoins(): Promise<string[]> {
  const { NETWORKS, TOKENS } = await import('../payment-uri/networks.js');
  const symbols = new Set<string>();
  for (const network of Object.values(NETWORKS)) symbols.add(network.nativeSymbol);
  for (const token of TOKENS) symbols.add(token.symbol);
  return [...symbols].sort();
}
