// IOStreams.readKeys and onResize: raw mode on a terminal's stdin for as long as keys are read (and
// off again after), keys parsed from what the terminal sends, nothing read where stdin is not a
// terminal; resizes of the terminal stdout is on.
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/output/iostreams.js';
import type { Key } from '../../src/output/keys.js';
import type { InStream, OutStream } from '../../src/output/streams.js';

class FakeTty implements InStream {
  isTTY: boolean;
  raw: boolean[] = [];
  listeners: Array<(chunk: unknown) => void> = [];
  constructor(isTTY = true) {
    this.isTTY = isTTY;
  }
  setRawMode(mode: boolean): void {
    this.raw.push(mode);
  }
  on(_event: 'data', listener: (chunk: unknown) => void): void {
    this.listeners.push(listener);
  }
  off(_event: 'data', listener: (chunk: unknown) => void): void {
    this.listeners = this.listeners.filter((l) => l !== listener);
  }
  resume(): void {}
  pause(): void {}
  send(text: string): void {
    for (const l of this.listeners) l(Buffer.from(text, 'utf8'));
  }
}

class FakeOut {
  isTTY = true;
  columns = 80;
  rows = 24;
  resize: Array<() => void> = [];
  write(): boolean {
    return true;
  }
  on(event: string, listener: () => void): void {
    if (event === 'resize') this.resize.push(listener);
  }
  /** What IOStreams takes: an OutStream that also emits 'resize', as a terminal's does. */
  get stream(): OutStream {
    return this as unknown as OutStream;
  }
  off(event: string, listener: () => void): void {
    if (event === 'resize') this.resize = this.resize.filter((l) => l !== listener);
  }
}

describe('IOStreams.readKeys', () => {
  it('raw mode while reading, keys parsed, raw mode off when stopped', () => {
    const stdin = new FakeTty();
    const io = new IOStreams({ stdout: new FakeOut().stream, stderr: new FakeOut().stream, stdin, env: {} });
    const keys: Key[] = [];
    const stop = io.readKeys((key) => keys.push(key));
    expect(stdin.raw).toEqual([true]);
    stdin.send('7\r\u001b[A\u0003');
    expect(keys).toEqual([{ name: 'char', ch: '7' }, { name: 'enter' }, { name: 'up' }, { name: 'ctrl-c' }]);
    stop();
    expect(stdin.raw).toEqual([true, false]);
    stdin.send('8');
    expect(keys).toHaveLength(4);
  });

  it('stdin not a terminal: nothing read, no raw mode', () => {
    const stdin = new FakeTty(false);
    const io = new IOStreams({ stdout: new FakeOut().stream, stderr: new FakeOut().stream, stdin, env: {} });
    io.readKeys(() => undefined)();
    expect(stdin.raw).toEqual([]);
    expect(stdin.listeners).toHaveLength(0);
  });

  it('onResize: the terminal stdout is on, until stopped', () => {
    const stdout = new FakeOut();
    const io = new IOStreams({ stdout: stdout.stream, stderr: new FakeOut().stream, env: {} });
    let calls = 0;
    const stop = io.onResize(() => calls++);
    for (const l of stdout.resize) l();
    stop();
    expect(calls).toBe(1);
    expect(stdout.resize).toHaveLength(0);
  });
});
