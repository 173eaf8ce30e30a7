// The completion scripts loaded into real shells, with the built gw on PATH: bash (always: it is
// the shell this machine and CI have), and zsh and fish where they are installed. bash's
// completion is driven the way readline drives it: COMP_WORDS and COMP_CWORD set, the completion
// function called, COMPREPLY read back.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, tempDir, writeFile } from '../support/gw.js';

const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

let bin: string;
let home: string;
let env: Record<string, string>;

beforeAll(() => {
  bin = tempDir('gw-bin-');
  const shim = path.join(bin, 'gw');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${GW_BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
  home = tempDir('gw-home-');
  writeFile(home, '.config/gateway/config.yaml', 'profiles:\n  shop: {}\n  staging: {}\n');
  writeFile(home, 'invoice-draft.txt', '');
  env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    LANG: 'C.UTF-8',
  };
});

function shell(command: string, args: string[], script: string): string {
  return execFileSync(command, [...args, script], { cwd: home, env, encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** What bash offers for each case's words (the last one is the word under the cursor), in one bash. */
function bashComplete(cases: string[][]): string[][] {
  const quote = (w: string): string => `'${w.replace(/'/g, "'\\''")}'`;
  const script = ['source <(gw completion bash)'];
  for (const words of cases) {
    script.push(
      `COMP_WORDS=(gw ${words.map(quote).join(' ')}); COMP_CWORD=${words.length}; COMPREPLY=()`,
      '_gw_complete',
      `printf '%s\\n' "\${COMPREPLY[@]}" '---'`,
    );
  }
  const out = shell('bash', ['--norc', '--noprofile', '-c'], script.join('\n'));
  return out
    .split('---\n')
    .slice(0, cases.length)
    .map((block) => block.split('\n').filter((l) => l !== ''));
}

describe('bash', () => {
  it('source <(gw completion bash) registers the completion function for gw', () => {
    expect(shell('bash', ['--norc', '--noprofile', '-c'], 'source <(gw completion bash); complete -p gw').trim()).toBe('complete -F _gw_complete gw');
  });

  // One case per path through the script (gw's answers themselves, for every kind of word, are
  // tested in process in test/cli/completion.test.ts): candidates filtered by the word under the
  // cursor, a value after bash's split of --opt=value, read from the config file, file names when
  // gw says so, and nothing at all.
  it('completes commands, values after --opt=, profiles from the config file, currencies and files', () => {
    const cases: Array<[string[], string[]]> = [
      [['pa'], ['pay', 'payments', 'payout', 'payouts']],
      [
        ['--profile', '=', 's'],
        ['shop', 'staging'],
      ], // --profile=s, as bash splits it
      [
        ['pay', '25', 'US'],
        ['USDC', 'USDT'],
      ],
      [['pay', '25', 'USDT', '--qr-out', 'invoice'], ['invoice-draft.txt']],
      [['rate', 'BTC', 'USDT', 'extra'], []],
    ];
    expect(bashComplete(cases.map(([words]) => words))).toEqual(cases.map(([, expected]) => expected));
  });
});

describe.skipIf(!has('zsh'))('zsh', () => {
  it('source <(gw completion zsh) after compinit registers _gw for gw', () => {
    const out = shell('zsh', ['-f', '-c'], 'autoload -Uz compinit && compinit -u -D && source <(gw completion zsh) && print -r -- $_comps[gw]');
    expect(out.trim()).toBe('_gw');
  });
});

describe.skipIf(!has('fish'))('fish', () => {
  it('gw completion fish | source: complete -C lists candidates with descriptions', () => {
    const out = shell(
      'fish',
      ['--no-config', '-c'],
      'gw completion fish | source; complete -C "gw pa"; complete -C "gw --qr-theme "; complete -C "gw --profile s"',
    );
    expect(out).toMatch(/^pay\tcreate a white-label payment/m);
    expect(out).toMatch(/^dark$/m);
    expect(out).toMatch(/^light$/m);
    expect(out).toMatch(/^shop$/m);
    expect(out).toMatch(/^staging$/m);
  });
});
