// gw init driven through a real terminal (tmux), as a person would: arrow keys and Enter on the
// prompts, keys typed without echo, a refused key asked again, and the file it wrote. Skipped where
// tmux is not installed. Bounded: every wait has a deadline, the tmux server is this test's own.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { GW_BIN, tempDir } from '../support/gw.js';
import { withSandbox } from '../support/sandbox.js';

const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
const SOCKET = `gw-init-test-${process.pid}`;
const SESSION = 'init';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8', timeout: 5000 });
}

const screen = (): string => tmux('capture-pane', '-t', SESSION, '-p', '-J', '-S', '-200');

async function waitFor(pattern: RegExp, ms = 10_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = screen();
    if (pattern.test(text)) return text;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} on the screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let sandbox: RunningSandbox;
let home: string;

beforeAll(async () => {
  if (!hasTmux) return;
  sandbox = await withSandbox();
  home = tempDir('gw-tmux-');
  const bin = path.join(home, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  writeFileSync(path.join(bin, 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW_BIN}" "$@"\n`);
  chmodSync(path.join(bin, 'gw'), 0o755);
  const env = [`HOME=${home}`, `XDG_CONFIG_HOME=${home}/.config`, `PATH=${bin}:/usr/bin:/bin`, 'LANG=C.UTF-8', 'TERM=xterm-256color', 'PS1=$ '];
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', SESSION, '-x', '100', '-y', '40', 'env', '-i', ...env, 'bash', '--norc', '--noprofile');
});

afterAll(async () => {
  if (!hasTmux) return;
  spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  await sandbox.close();
});

describe.skipIf(!hasTmux)('gw init in a terminal', () => {
  it('asks, checks each key live (a refused one again), echoes no key, writes 0600', async () => {
    const typed = (text: string): void => void tmux('send-keys', '-t', SESSION, '-l', text);
    const key = (...keys: string[]): void => void tmux('send-keys', '-t', SESSION, ...keys);
    typed('gw init; echo "EXIT=$?"');
    key('Enter');
    await waitFor(/\? Which gateway\?/);
    key('Enter'); // "My gateway account"
    await waitFor(/\? Gateway base URL/);
    typed(sandbox.url);
    key('Enter');
    await waitFor(/\? Merchant API key/);
    typed('mk_wrong_typed_0000');
    key('Enter');
    await waitFor(/✗ merchant key refused: Invalid merchant API key[\s\S]*\? What now with the merchant key\?/);
    key('Enter'); // "Type it again"
    await waitFor(/Type it again\n\? Merchant API key/);
    typed(sandbox.merchantKey);
    key('Enter');
    await waitFor(/✓ merchant key accepted[\s\S]*\? Payout API key/);
    typed(sandbox.payoutKey);
    key('Enter');
    await waitFor(/✓ payout key accepted[\s\S]*\? Profile name/);
    key('Enter');
    const done = await waitFor(/EXIT=\d+/);
    expect(done).toMatch(/EXIT=0/);
    expect(done).toMatch(/Created .*config\.yaml \(mode 0600\):/);
    for (const secret of ['mk_wrong_typed_0000', sandbox.merchantKey, sandbox.payoutKey]) expect(done).not.toContain(secret);
    const file = path.join(home, '.config', 'gateway', 'config.yaml');
    expect(readFileSync(file, 'utf8')).toBe(`baseUrl: "${sandbox.url}"\nmerchantKey: "${sandbox.merchantKey}"\npayoutKey: "${sandbox.payoutKey}"\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);
});
