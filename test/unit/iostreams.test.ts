// The IO object: terminal facts and colour, the one JSON writer, warnings and failures in both
// modes, keys scrubbed from everything written, and output that could not be delivered.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitCode, GwError } from '../../src/errors.js';
import { IOStreams } from '../../src/output/iostreams.js';

const ESC = '\u001b';

class Sink extends Writable {
  text = '';
  constructor(
    readonly isTTY: boolean,
    private readonly fail?: NodeJS.ErrnoException,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.fail) {
      done(this.fail);
      return;
    }
    this.text += chunk.toString();
    done();
  }
}

describe('IOStreams', () => {
  it('a TTY gets colour, a pipe does not; each stream decides for itself', () => {
    const io = new IOStreams({ stdout: new Sink(true), stderr: new Sink(false), env: {} });
    expect(io.color).toBe(true);
    expect(io.chalk.red('x')).toBe(`${ESC}[31mx${ESC}[39m`);
    expect(io.errChalk.level).toBe(0);
    const pipe = new IOStreams({ stdout: new Sink(false), stderr: new Sink(true), env: {} });
    expect(pipe.color).toBe(false);
    expect(pipe.chalk.red('x')).toBe('x');
    expect(pipe.errChalk.level).toBe(1);
  });

  it('--no-color turns colour off on both streams, whatever FORCE_COLOR says', () => {
    const io = new IOStreams({ stdout: new Sink(true), stderr: new Sink(true), env: { FORCE_COLOR: '3' } });
    expect(io.chalk.level).toBe(3);
    io.setNoColor(true);
    expect(io.chalk.level).toBe(0);
    expect(io.errChalk.level).toBe(0);
  });

  it('width: set by a test, else the terminal, else COLUMNS, else 80; prose wraps at most at 100', () => {
    const t = IOStreams.test({ width: 132 });
    expect(t.io.width()).toBe(132);
    expect(t.io.proseWidth()).toBe(100);
    expect(IOStreams.test({ env: { COLUMNS: '60' } }).io.width()).toBe(60);
    expect(IOStreams.test().io.width()).toBe(80);
    const io = IOStreams.test().io;
    io.setSize(40, 12);
    expect([io.width(), io.height()]).toEqual([40, 12]);
  });

  it('draws the QR by default only for a person on a terminal, never in JSON mode', () => {
    expect(IOStreams.test({ stdoutTTY: true }).io.drawQrByDefault()).toBe(true);
    expect(IOStreams.test({ stdoutTTY: false }).io.drawQrByDefault()).toBe(false);
    expect(IOStreams.test({ stdoutTTY: true, json: true }).io.drawQrByDefault()).toBe(false);
  });

  it('printJson writes one document and marks sandbox runs', () => {
    const t = IOStreams.test();
    t.io.setSandbox(true);
    t.io.printJson({ rate: '1' });
    expect(JSON.parse(t.stdout())).toEqual({ rate: '1', sandbox: true });
  });

  it('warnings: one line, as JSON in JSON mode, escape codes stripped', () => {
    const human = IOStreams.test();
    human.io.warn(`careful ${ESC}[2J now`);
    expect(human.stderr()).toBe('gw: warning: careful  now\n');
    const json = IOStreams.test({ json: true });
    json.io.warn('careful');
    expect(JSON.parse(json.stderr())).toEqual({ warning: { message: 'careful' } });
  });

  it('notices and the sandbox banner go to stderr, and not in JSON mode', () => {
    const t = IOStreams.test();
    t.io.setSandbox(true);
    t.io.sandboxBanner();
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toContain('SANDBOX');
    const j = IOStreams.test({ json: true });
    j.io.setSandbox(true);
    j.io.sandboxBanner();
    expect(j.stderr()).toBe('');
  });

  it('failures: a gw: line and a hint line, or one JSON line with the details a script reads', () => {
    const error = new GwError(ExitCode.PROTOCOL, 'payment 123 was created, but it is not payable', {
      hint: 'check it',
      trackId: '123',
      payment: 'created',
      result: 100,
    });
    const human = IOStreams.test();
    human.io.reportFailure(error);
    expect(human.stderr()).toBe('gw: payment 123 was created, but it is not payable\nhint: check it\n');
    const json = IOStreams.test({ json: true });
    json.io.reportFailure(error);
    expect(JSON.parse(json.stderr())).toEqual({
      error: { message: 'payment 123 was created, but it is not payable', exitCode: 76, result: 100, payment: 'created', trackId: '123', hint: 'check it' },
    });
    expect(json.stderr().trimEnd().split('\n')).toHaveLength(1);
  });

  it('scrubs every key from everything written, in any form a peer echoes it', () => {
    const t = IOStreams.test();
    t.io.secrets.push('mk_live_SECRET_9f8e7d6c5b4a');
    t.io.out('key=mk_live_SECRET_9f8e7d6c5b4a\n');
    t.io.err('echo: mk%5Flive%5FSECRET%5F9f8e7d6c5b4a and mk\\u005flive_SECRET_9f8e7d6c5b4a and cut mk_live_SECR…\n');
    expect(t.stdout()).toBe('key=****\n');
    expect(t.stderr()).toBe('echo: **** and **** and cut ****…\n');
  });

  it('flush: a stdout that refuses the write (disk full) is exit 74; a closed pipe is not a failure', async () => {
    const full = new IOStreams({ stdout: new Sink(false, Object.assign(new Error('no space'), { code: 'ENOSPC' })), stderr: new Sink(false), env: {} });
    full.out('document\n');
    await expect(full.flush()).rejects.toMatchObject({ exitCode: ExitCode.IOERR, message: expect.stringContaining('ENOSPC') });

    const pipe = new IOStreams({ stdout: new Sink(false, Object.assign(new Error('pipe'), { code: 'EPIPE' })), stderr: new Sink(false), env: {} });
    pipe.out('document\n');
    await expect(pipe.flush()).resolves.toBeUndefined();
    expect(pipe.stdoutClosed).toBe(true);
  });

  it('flush: a write that throws synchronously (bad descriptor) is exit 74 too', async () => {
    const stdout = {
      write: (): boolean => {
        throw Object.assign(new Error('bad fd'), { code: 'EBADF' });
      },
    };
    const io = new IOStreams({ stdout, stderr: new Sink(false), env: {} });
    io.out('x');
    await expect(io.flush()).rejects.toMatchObject({ exitCode: 74 });
  });
});

describe("IOStreams.runtimeWarning: Node's runtime warnings, as src/main.ts routes them for every command", () => {
  const warning = (name: string, message: string): Error => Object.assign(new Error(message), { name });

  it('one sanitised line, its first line only, keys scrubbed, each warning once', () => {
    const t = IOStreams.test();
    t.io.secrets.push('mk_live_SECRET_9f8e7d6c5b4a');
    t.io.runtimeWarning(warning('DeprecationWarning', 'url.parse() \u001b[31mbehavior\u001b[0m mk_live_SECRET_9f8e7d6c5b4a\n    at Object.<anonymous>'));
    t.io.runtimeWarning(warning('DeprecationWarning', 'url.parse() \u001b[31mbehavior\u001b[0m mk_live_SECRET_9f8e7d6c5b4a\n    at again'));
    expect(t.stderr()).toBe('gw: warning: the runtime warns: DeprecationWarning: url.parse() behavior ****\n');
  });

  it('--json: a {"warning"} line', () => {
    const t = IOStreams.test({ json: true });
    t.io.runtimeWarning(warning('Warning', "Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections insecure"));
    expect(JSON.parse(t.stderr())).toEqual({
      warning: { message: "the runtime warns: Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections insecure" },
    });
  });
});
