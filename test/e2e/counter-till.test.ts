// gw counter in a real terminal (tmux on a private socket) at 80×24, with the embedded sandbox:
// two customers typed as keystrokes — the first followed to PAID, the second not waited for (Esc)
// — then q: exit 0, the shell's screen back, and the day's summary on it.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gw, GW_BIN, removeDir, tempDir } from '../support/gw.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

describe.runIf(hasTmux)('gw counter in a real terminal (tmux, 80×24)', () => {
  it('two sales on --sandbox, q: exit 0, the summary on the normal screen', { timeout: 90_000 }, async () => {
    const home = tempDir();
    const socket = `gw-till-${process.pid}`;
    const tmux = (...a: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...a], { encoding: 'utf8' });
    const screen = (): string => tmux('capture-pane', '-p', '-t', 'till');
    /** Polls the pane (at most `seconds`) until `test` holds; the pane's text. */
    const until = async (test: (text: string) => boolean, seconds: number): Promise<string> => {
      let text = '';
      for (let i = 0; i < seconds * 5; i++) {
        text = screen();
        if (test(text)) return text;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`the screen never showed what was waited for; it shows:\n${text}`);
    };
    const command = [
      'env -i',
      `HOME=${home}`,
      `PATH=${JSON.stringify(process.env.PATH ?? '/usr/bin:/bin')}`,
      'TERM=xterm-256color',
      'LANG=C.UTF-8',
      `sh -c ${JSON.stringify(`echo SHELL-SCREEN-MARKER; ${JSON.stringify(process.execPath)} ${JSON.stringify(GW_BIN)} counter --sandbox; echo EXIT=$?; sleep 60`)}`,
    ].join(' ');
    try {
      tmux('new-session', '-d', '-s', 'till', '-x', '80', '-y', '24', command);
      // The prompt, on the alternate screen (the shell's line is not on it).
      let text = await until((t) => t.includes('Amount'), 20);
      expect(text).toContain('gw counter · next customer');
      expect(text).toContain('SANDBOX');
      expect(text).toContain('Charge in USDT, paid in USDT');
      expect(text).toContain('q end the day');
      expect(text).not.toContain('SHELL-SCREEN-MARKER');

      // First customer: 25, Enter; the counter screen, then PAID in block letters.
      tmux('send-keys', '-t', 'till', '2', '5', 'Enter');
      text = await until((t) => t.includes('Pay exactly 25 USDT'), 20);
      expect(text).toMatch(/Track ID +\d{9}/);
      text = await until((t) => t.includes('The payment is complete.'), 40);
      expect(text).toContain('25 USDT received.');
      expect(text).toMatch(/Enter: next customer · the prompt comes back in \d+ s/);
      tmux('send-keys', '-t', 'till', 'Enter');

      // Second customer: 7.5, shown, then Esc: back to the prompt, the payment left open.
      text = await until((t) => t.includes('Last sale:') && t.includes('paid.'), 20);
      tmux('send-keys', '-t', 'till', '7', '.', '5', 'Enter');
      text = await until((t) => t.includes('Pay exactly 7.5 USDT'), 20);
      const trackId = /Track ID +(\d{9})/.exec(text)?.[1];
      expect(trackId).toBeDefined();
      tmux('send-keys', '-t', 'till', 'Escape');
      text = await until((t) => t.includes('Today: 2 sales, 1 still open'), 20);

      // q: the day ends; the normal screen comes back with the summary.
      tmux('send-keys', '-t', 'till', 'q');
      text = await until((t) => /EXIT=\d+/.test(t), 30);
      expect(text).toContain('EXIT=0');
      expect(text).toContain('SHELL-SCREEN-MARKER');
      expect(text).toContain('gw counter: the day ends');
      expect(text).toContain('2 sales');
      expect(text).toMatch(/^paid +1 +25 USDT$/m);
      expect(text).toContain('Asked:   32.5 USDT (2)');
      expect(text).toContain('Still open (1)');
      expect(text).toContain(`gw status ${trackId} --wait --sandbox`);

      // The payment left open is an ordinary payment: a later run finds it (the sandbox's journal).
      const later = await gw(['status', trackId ?? '', '--sandbox', '--json'], { env: { HOME: home }, cwd: home });
      expect([0, 8]).toContain(later.exitCode);
      expect(JSON.parse(later.stdout)).toMatchObject({ trackId, amount: '7.5', currency: 'USDT' });
    } finally {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
      removeDir(home);
    }
  });
});
