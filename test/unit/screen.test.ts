// IOStreams' screen and live line, seen through a model terminal: what a person sees after the
// counter screen was drawn and redrawn, and that nothing of the kind happens off a terminal.
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/output/iostreams.js';
import { VirtualTerminal } from '../support/terminal.js';

function tty(width = 40, height = 10, extra: Parameters<typeof IOStreams.test>[0] = {}) {
  const t = IOStreams.test({ stdoutTTY: true, stderrTTY: true, width, height, ...extra });
  const screen = (): VirtualTerminal => new VirtualTerminal(width, height).write(t.stdout());
  return { ...t, screen };
}

describe('drawScreen', () => {
  it('redraws the block in place: only the new lines are visible, nothing scrolls', () => {
    const { io, screen, stdout } = tty();
    io.out('$ gw pay 25 USDT\n');
    io.drawScreen(['line one', 'line two', 'line three']);
    const before = stdout().length;
    io.drawScreen(['line one', 'line 2', 'line three', 'line four']);
    // Only what changed is written again.
    expect(stdout().slice(before)).not.toContain('line one');
    expect(stdout().slice(before)).not.toContain('line three');
    expect(screen().lines().slice(0, 6)).toEqual(['$ gw pay 25 USDT', 'line one', 'line 2', 'line three', 'line four', '']);
    io.drawScreen(['short']);
    expect(screen().lines().slice(0, 4)).toEqual(['$ gw pay 25 USDT', 'short', '', '']);
    expect(screen().scrollback).toEqual([]);
  });

  it('clearScreen: the previous payment is no longer visible above the new one', () => {
    const { io, screen } = tty();
    io.drawScreen(['previous payment', 'its QR']);
    io.endScreen();
    io.clearScreen();
    io.drawScreen(['new payment']);
    expect(screen().text().trim()).toBe('new payment');
  });

  it('a line wider than the terminal is cut, so the redraw arithmetic holds', () => {
    const { io, screen } = tty(20, 6);
    io.drawScreen(['x'.repeat(50), 'second']);
    io.drawScreen(['y'.repeat(50), 'second']);
    expect(screen().lines().slice(0, 3)).toEqual([`${'y'.repeat(18)}…`, 'second', '']);
  });

  it('a block taller than the screen: changes at its bottom are redrawn in place', () => {
    const { io, screen } = tty(20, 5);
    const block = (status: string): string[] => ['a', 'b', 'c', 'd', 'e', 'f', status];
    io.drawScreen(block('waiting'));
    io.drawScreen(block('paid'));
    expect(screen().lines()).toEqual(['d', 'e', 'f', 'paid', '']);
  });

  it('a change above the top of the screen cannot be reached: the screen is cleared and drawn again', () => {
    const { io, screen } = tty(20, 5);
    io.drawScreen(['a', 'b', 'c', 'd', 'e', 'f', 'waiting'], { clear: true });
    io.drawScreen(['A', 'b', 'c', 'd', 'e', 'f', 'paid'], { clear: true });
    expect(screen().lines()).toEqual(['d', 'e', 'f', 'paid', '']);
    expect(screen().scrollback.slice(-3)).toEqual(['A', 'b', 'c']);
  });

  it('into a pipe: each call prints its lines, without escape codes', () => {
    const t = IOStreams.test({ stdoutTTY: false });
    t.io.clearScreen();
    t.io.drawScreen(['a', 'b']);
    t.io.drawScreen(['c']);
    expect(t.stdout()).toBe('a\nb\nc\n');
  });

  it('never in JSON mode, never on TERM=dumb', () => {
    const json = IOStreams.test({ stdoutTTY: true, json: true });
    expect(json.io.canRedraw()).toBe(false);
    const dumb = IOStreams.test({ stdoutTTY: true, env: { TERM: 'dumb' } });
    expect(dumb.io.canRedraw()).toBe(false);
    dumb.io.clearScreen();
    expect(dumb.stdout()).toBe('');
  });
});

describe('liveLine', () => {
  it('on a terminal: one line on stderr redrawn in place, removed before anything else is written', () => {
    const { io, stderr } = tty(30);
    io.liveLine('⠋ Waiting for payment');
    io.liveLine('⠙ Waiting for payment · a very long line that does not fit');
    io.warn('something');
    const term = new VirtualTerminal(30, 5).write(stderr());
    expect(term.lines()[0]).toBe('gw: warning: something');
    expect(stderr()).toContain('\r\u001b[2K⠙ Waiting for payment · a ve…');
  });

  it('into a pipe or with --json: nothing at all', () => {
    const piped = IOStreams.test({ stderrTTY: false });
    piped.io.liveLine('⠋ Waiting');
    piped.io.endLiveLine();
    expect(piped.stderr()).toBe('');
    const json = IOStreams.test({ stderrTTY: true, json: true });
    json.io.liveLine('⠋ Waiting');
    expect(json.stderr()).toBe('');
  });
});
