// The payment QR captured from a real terminal (tmux, with its escape codes: capture-pane -e)
// under every colour setting, then painted as a dark- and a light-themed terminal would show it
// and decoded without inversion, as a phone would. On a terminal the code sets its own black and
// white whatever NO_COLOR, --no-color or FORCE_COLOR=0 say; TERM=dumb and pipes get glyphs for the
// --qr-theme background (dark by default); LANG=C gets ASCII cells. Skipped without tmux.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, tempDir } from '../support/gw.js';
import { decodeTerminalQr } from '../support/qr-decode.js';

const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
const SOCKET = `gw-qr-test-${process.pid}`;
const SESSION = 'qr';
let run = 0;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8', timeout: 5000 });
}

async function inTerminal(command: string): Promise<string> {
  const mark = `DONE-${++run}`;
  tmux('send-keys', '-t', SESSION, '-l', `clear; ${command}; echo ${mark}`);
  tmux('send-keys', '-t', SESSION, 'Enter');
  const until = Date.now() + 15_000;
  for (;;) {
    const text = tmux('capture-pane', '-t', SESSION, '-p', '-e');
    if (new RegExp(`^${mark}`, 'm').test(text.replace(/\x1b\[[0-9;]*m/g, ''))) return text;
    if (Date.now() > until) throw new Error(`timed out: ${command}\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(() => {
  if (!hasTmux) return;
  const home = tempDir('gw-qr-tmux-');
  writeFileSync(path.join(home, 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW_BIN}" "$@"\n`);
  chmodSync(path.join(home, 'gw'), 0o755);
  const env = [`HOME=${home}`, `PATH=${home}:/usr/bin:/bin`, 'LANG=C.UTF-8', 'TERM=xterm-256color', 'PS1=$ '];
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', SESSION, '-x', '110', '-y', '90', 'env', '-i', ...env, 'bash', '--norc', '--noprofile');
});

afterAll(() => {
  if (hasTmux) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
});

/**
 * The URI gw printed (the "URI" row of the merchant block) — what the code must hold. On the
 * counter screen the block may stand beside the QR and wrap a long URI onto the lines below, in
 * the same column.
 */
function printedUri(screen: string): string {
  const lines = screen.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const at = lines.findIndex((l) => /(^|\s)URI\s+\S/.test(l));
  if (at < 0) return '(no URI row)';
  const row = /^(.*?(?:^|\s)URI\s+)(\S+)/.exec(lines[at] ?? '');
  if (row === null) return '(no URI row)';
  const column = [...(row[1] ?? '')].length;
  let uri = row[2] ?? '';
  for (const next of lines.slice(at + 1)) {
    const rest = [...next].slice(column).join('');
    const before = [...next].slice(Math.max(0, column - 2), column).join('');
    if (before.trim() !== '' || !/^\S+$/.test(rest)) break;
    uri += rest;
  }
  return uri;
}

const PAY = 'gw pay 0.0005 BTC --sandbox --qr';
/** A fixed address: its QR holds a coin URI without an amount (gw address new). */
const ADDRESS = 'gw address new --network "Bitcoin Network" --sandbox --qr';

/**
 * The screen with the counter screen's text beside the code cut away, as a phone framing the code
 * sees it: each line keeps as many cells as the code is wide, found from the first row of the code
 * (its quiet zone: a run of block or ASCII cells). The cut keeps every escape code of the line (only
 * its characters past the code go), because tmux's capture carries the colours from one line's end
 * into the next line.
 */
function codeOnly(screen: string): string {
  const lines = screen.split('\n');
  const plain = (l: string): string => l.replace(/\x1b\[[0-9;]*m/g, '');
  const first = lines.map(plain).find((l) => /^[▀▄█#]{20,}/.test(l));
  const width = first === undefined ? 0 : (/^[▀▄█#]+/.exec(first)?.[0].length ?? 0);
  if (width === 0) return screen;
  return lines
    .map((line) => {
      let out = '';
      let cells = 0;
      for (let i = 0; i < line.length; ) {
        const sgr = /^\x1b\[[0-9;]*m/.exec(line.slice(i));
        if (sgr) {
          out += sgr[0];
          i += sgr[0].length;
          continue;
        }
        const ch = String.fromCodePoint(line.codePointAt(i) ?? 32);
        if (cells < width) out += ch;
        i += ch.length;
        cells++;
      }
      return out;
    })
    .join('\n');
}

describe.skipIf(!hasTmux)('the QR in a real terminal', () => {
  it.each([
    ['default', PAY, ['dark', 'light']],
    ['NO_COLOR=1', `NO_COLOR=1 ${PAY}`, ['dark', 'light']],
    ['--no-color', `${PAY} --no-color`, ['dark', 'light']],
    ['FORCE_COLOR=0', `FORCE_COLOR=0 ${PAY}`, ['dark', 'light']],
    ['LANG=C (ASCII cells)', `LANG=C ${PAY}`, ['dark', 'light']],
    ['TERM=dumb', `TERM=dumb ${PAY}`, ['dark']],
    ['TERM=dumb --qr-theme light', `TERM=dumb ${PAY} --qr-theme light`, ['light']],
    ['into a pipe', `${PAY} | cat`, ['dark']],
    ['into a pipe, --qr-theme light', `${PAY} --qr-theme light | cat`, ['light']],
    ['into a pipe, LANG=C, --qr-theme light', `LANG=C ${PAY} --qr-theme light | cat`, ['light']],
    ['a fixed address', ADDRESS, ['dark', 'light']],
    ['a fixed address, NO_COLOR=1', `NO_COLOR=1 ${ADDRESS}`, ['dark', 'light']],
    ['a fixed address into a pipe', `${ADDRESS} | cat`, ['dark']],
  ] as const)(
    '%s: scans on the %j theme(s), and only there',
    async (_name, command, themes) => {
      const screen = await inTerminal(command);
      const uri = printedUri(screen);
      expect(uri).toMatch(/^bitcoin:tb1/);
      for (const theme of ['dark', 'light'] as const) {
        expect(decodeTerminalQr(codeOnly(screen), theme), `${theme} theme\n${screen}`).toBe((themes as readonly string[]).includes(theme) ? uri : null);
      }
      if (themes.length === 1) expect(screen).toMatch(new RegExp(`gw: the QR code is drawn for a ${themes[0]} background`));
    },
    30_000,
  );
});

/** A payment link (gw invoice): its QR holds the link, a URL the payer's browser opens, not a coin URI. */
const LINK = 'gw invoice 25 USD --sandbox --qr';

describe.skipIf(!hasTmux)('the QR of a payment link in a real terminal', () => {
  it.each([
    ['default', LINK, ['dark', 'light']],
    ['NO_COLOR=1', `NO_COLOR=1 ${LINK}`, ['dark', 'light']],
    ['into a pipe', `${LINK} | cat`, ['dark']],
  ] as const)(
    '%s: the link’s QR scans where it should, and holds the printed link',
    async (_name, command, themes) => {
      const screen = await inTerminal(command);
      const link = /^Payment link\s+(http\S+)/m.exec(screen.replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/\d{9}$/);
      for (const theme of ['dark', 'light'] as const) {
        expect(decodeTerminalQr(codeOnly(screen), theme), `${theme} theme\n${screen}`).toBe((themes as readonly string[]).includes(theme) ? link : null);
      }
    },
    30_000,
  );
});
