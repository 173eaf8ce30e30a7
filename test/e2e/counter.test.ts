// What only a process shows about the counter flow: Ctrl-C during --wait, and the screen a real
// terminal (tmux) keeps at 80×24 and 100×30, decoded like a phone would read it.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gw, GW_BIN, removeDir, startGw, tempDir } from '../support/gw.js';
import { decodeScreen } from '../support/qr-decode.js';
import { VirtualTerminal } from '../support/terminal.js';

describe('Ctrl-C during gw pay --wait', () => {
  it('exit 130 at once, the payment still open, and how to follow it; a later run does', async () => {
    const home = tempDir();
    try {
      const child = startGw(['pay', '25', 'USDT', '--sandbox', '--wait', '--order-id', 'sig-wait', '--timeout', '120'], { env: { HOME: home } });
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await expect.poll(() => stdout, { timeout: 10_000 }).toMatch(/Track ID +[1-9]\d{8}/);
      const trackId = /Track ID +([1-9]\d{8})/.exec(stdout)![1]!;
      const sentAt = Date.now();
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      // At once: not after the 120 s deadline (a bound roomy enough for a loaded machine).
      expect(Date.now() - sentAt).toBeLessThan(15_000);
      const stderr = String(result.stderr);
      expect(stderr).toContain(`gw: interrupted: payment ${trackId} is still open (`);
      expect(stderr).toContain(`hint: follow it again: gw status ${trackId} --wait --sandbox`);
      expect(stderr).not.toMatch(/^\s+at |Error:/m);

      const later = await gw(['status', trackId, '--sandbox', '--json'], { env: { HOME: home }, cwd: home });
      expect([0, 8]).toContain(later.exitCode);
      expect(JSON.parse(later.stdout)).toMatchObject({ trackId, orderId: 'sig-wait' });
    } finally {
      removeDir(home);
    }
  });
});

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** Runs gw in a tmux pane of the given size and returns the pane as capture-pane -e shows it. */
async function inTmux(width: number, height: number, args: string[]): Promise<{ ansi: string; text: string }> {
  const home = tempDir();
  const socket = `gw-e2e-${process.pid}-${width}x${height}`;
  const tmux = (...a: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...a], { encoding: 'utf8' });
  // printf, not echo: the screen leaves its last row to the shell's prompt, and a line feed after
  // EXIT= would scroll the screen's first line away (a shell's prompt does not end with one).
  const command = [
    'env -i',
    `HOME=${home}`,
    `PATH=${JSON.stringify(process.env.PATH ?? '/usr/bin:/bin')}`,
    'TERM=xterm-256color',
    `sh -c ${JSON.stringify(`echo PREVIOUS-PAYMENT-MARKER; ${JSON.stringify(process.execPath)} ${JSON.stringify(GW_BIN)} ${args.join(' ')}; printf EXIT=$?; sleep 30`)}`,
  ].join(' ');
  try {
    tmux('new-session', '-d', '-x', String(width), '-y', String(height), command);
    let text = '';
    for (let i = 0; i < 300 && !/EXIT=\d+/.test(text); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = tmux('capture-pane', '-p');
    }
    // capture-pane -e writes only the changes of colour from cell to cell, across lines too: replay
    // it on the model terminal, which gives every line its colours in full.
    const ansi = new VirtualTerminal(width, height).write(tmux('capture-pane', '-p', '-e').replace(/\n$/, '')).ansi();
    return { ansi, text };
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    removeDir(home);
  }
}

describe.runIf(hasTmux)('the counter screen in a real terminal (tmux)', () => {
  it.each([
    // A 27-row code at level M: at 80×24 it is drawn smaller (level L, a narrower quiet zone), whole.
    [80, 24, ['pay', '12.345678', 'USDC', '--sandbox'], 'USDC'],
    [100, 30, ['pay', '25', 'USDT', '--sandbox'], 'USDT'],
  ])('%i×%i %j: the whole QR scans with the amount, network and SANDBOX; the previous output is gone', async (width, height, args, coin) => {
    const { ansi, text } = await inTmux(width, height, args as string[]);
    expect(text).toMatch(/EXIT=0/);
    expect(text).not.toContain('PREVIOUS-PAYMENT-MARKER');
    expect(text).toMatch(new RegExp(`Pay exactly ${args[1]!.replace('.', '\\.')} ${coin}`));
    expect(text).toMatch(/on (Tron|Ethereum)/);
    expect(text).toContain('SANDBOX');
    // The whole pane as a camera sees it, text beside the code included.
    const decoded = decodeScreen(ansi, 'light', width);
    expect(decoded).not.toBeNull();
    expect(decodeScreen(ansi, 'dark', width)).toBe(decoded);
    expect(decoded!.replace(/^ethereum:/, '')).toMatch(
      coin === 'USDT' ? /^T[1-9A-HJ-NP-Za-km-z]{33}$/ : /@1\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=12345678$/,
    );
  });
});
