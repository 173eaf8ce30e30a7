// The one object that knows the terminal (after gh's IOStreams). It decides, once:
// - whether stdin/stdout/stderr are terminals, the terminal's width and height;
// - whether colour is on (stdout and stderr separately);
// - human or JSON output, where warnings, notices and failures go and in which form;
// - how the QR code is drawn (qrRenderOptions(): explicit colours, theme, characters);
// - whether gw may ask questions, and who asks them (the Prompter: a terminal library for a
//   person, a script in tests).
// It is also the only writer: every byte gw prints goes through `out`/`err`, which scrub the keys,
// and it remembers whether stdout could not take what was written (disk full, bad descriptor), so
// a command whose output was lost does not exit 0.
//
// Commands never look at process.stdin, process.stdout, process.env or process.argv: they ask this object.
// `IOStreams.test()` builds the same object over in-memory buffers for in-process tests.
import { ExitCode, GwError, UsageError } from '../errors.js';
import type { QrCharset, QrTheme, TerminalQrOptions } from '../qr/terminal.js';
import { FdStream, realStream } from './fd-stream.js';
import { toJson } from './json.js';
import { loadColor, paletteFor, type Palette } from './palette.js';
import type { Prompter } from './prompter.js';
import { scrubSecrets, terminalSafe } from './sanitize.js';
import { CLEAR_LINE, CLEAR_SCREEN, fitLiveLine, RedrawnBlock } from './screen.js';
import { GW_COMMANDS, wrapText } from './wrap.js';
import { ENTER_ALT_SCREEN, type Key, LEAVE_ALT_SCREEN, parseKeys } from './keys.js';
import type { InStream, OutStream } from './streams.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface IOStreamsOptions {
  stdout: OutStream;
  stderr: OutStream;
  /**
   * stdin, or a function that gives it: the real process passes `() => process.stdin`, because
   * merely touching process.stdin sets up a stream (and loads modules) that most commands never use.
   */
  stdin?: InStream | (() => InStream);
  env: Env;
  /** Who asks questions; default: the terminal prompts (@inquirer/prompts) on stdin and stderr. */
  prompter?: Prompter;
  /** Spinners where canAnimate() (default true; IOStreams.test: only when asked). */
  spinners?: boolean;
}

/** How the terminal QR code is drawn (see src/qr/terminal.ts). */
export type QrStyle = 'color' | 'glyph';

/** What the QR renderer needs from the terminal: src/qr/terminal.ts TerminalQrOptions. */
export type QrRenderOptions = TerminalQrOptions;

/** The most a command reads from piped stdin (a key, a value). */
const MAX_INPUT_BYTES = 64 * 1024;

/**
 * The character set of the user's locale: LC_ALL, else LC_CTYPE, else LANG (the first one set,
 * as POSIX orders them). A locale that is set and does not name UTF-8 ("C", "POSIX",
 * "en_US.ISO-8859-1") cannot show the QR's block characters: ASCII. None set at all: UTF-8, as
 * every current terminal and Node itself write. GW_UTF8=1 says the terminal shows UTF-8 whatever
 * the locale says (half blocks); GW_UTF8=0 asks for ASCII.
 */
export function localeCharset(env: Env): QrCharset {
  if (env.GW_UTF8 === '1') return 'unicode';
  if (env.GW_UTF8 === '0') return 'ascii';
  const locale = localeSetting(env);
  if (locale === undefined) return 'unicode';
  return /utf-?8/i.test(locale) ? 'unicode' : 'ascii';
}

/** The locale variable in force, as `NAME=value` (LC_ALL, else LC_CTYPE, else LANG), or undefined. */
export function localeSetting(env: Env): string | undefined {
  for (const name of ['LC_ALL', 'LC_CTYPE', 'LANG'] as const) {
    const value = env[name];
    if (value !== undefined && value !== '') return `${name}=${value}`;
  }
  return undefined;
}

/** FORCE_COLOR asks for colour even into a pipe (1–3, or set empty); 0 or false does not. */
function forceColorOn(env: Env): boolean {
  const force = env.FORCE_COLOR;
  return force !== undefined && force !== '0' && force !== 'false';
}

/** The widest a block of prose is wrapped to, however wide the terminal. */
const MAX_PROSE_WIDTH = 100;
const DEFAULT_WIDTH = 80;
const DEFAULT_HEIGHT = 24;

/**
 * Colour is on when the stream is a terminal, unless NO_COLOR (any non-empty value), --no-color,
 * or TERM=dumb says otherwise; FORCE_COLOR (1–3) turns it on even when piped, FORCE_COLOR=0 off.
 */
export function colorLevel(isTTY: boolean, noColorFlag: boolean, env: Env): 0 | 1 | 2 | 3 {
  if (noColorFlag) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (!isTTY || env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return env.TERM?.includes('256') ? 2 : 1;
}

export class IOStreams {
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  #stdin: InStream | undefined;
  /** Keys in use: scrubbed from everything written. The factory adds them as it learns them. */
  readonly secrets: string[] = [];

  #json = false;
  #sandbox = false;
  #qrTheme: QrTheme | undefined;
  #qrCharset: QrCharset | undefined;
  #qrNoticeGiven = false;
  #prompter: Prompter | undefined;
  #outLevel: 0 | 1 | 2 | 3;
  #errLevel: 0 | 1 | 2 | 3;
  #chalk: Palette | undefined;
  #errChalk: Palette | undefined;
  #width: number | undefined;
  #height: number | undefined;
  #stdoutError: NodeJS.ErrnoException | undefined;
  #pending = 0;
  #drained: Array<() => void> = [];
  /** The block drawScreen() last drew, redrawn in place. */
  readonly #screen = new RedrawnBlock();
  /** Whether a live line is on stderr (liveLine), to clear before anything else is written there. */
  #liveLine = false;
  /** gw's command names, which start a command to run in a message (setCommandWords). */
  #commandWords: readonly string[] = GW_COMMANDS;

  constructor(private readonly options: IOStreamsOptions) {
    this.stdoutIsTTY = options.stdout.isTTY === true;
    this.stderrIsTTY = options.stderr.isTTY === true;

    this.#outLevel = colorLevel(this.stdoutIsTTY, false, options.env);
    this.#errLevel = colorLevel(this.stderrIsTTY, false, options.env);
    options.stdout.on?.('error', (error) => this.#recordStdoutError(error));
    this.#prompter = options.prompter;
  }

  /** stdin, set up on first use. */
  #stdinStream(): InStream | undefined {
    if (this.#stdin === undefined && this.options.stdin !== undefined) {
      this.#stdin = typeof this.options.stdin === 'function' ? this.options.stdin() : this.options.stdin;
    }
    return this.#stdin;
  }

  /** Whether stdin is a terminal (a person could answer a question). */
  get stdinIsTTY(): boolean {
    return this.#stdinStream()?.isTTY === true;
  }

  // --- Modes ------------------------------------------------------------------------------------

  /** Output is one JSON document on stdout; messages are JSON lines on stderr. */
  get json(): boolean {
    return this.#json;
  }

  setJson(json: boolean): void {
    this.#json = json;
  }

  /** --no-color: turns colour off on both streams. */
  setNoColor(noColor: boolean): void {
    this.#outLevel = colorLevel(this.stdoutIsTTY, noColor, this.options.env);
    this.#errLevel = colorLevel(this.stderrIsTTY, noColor, this.options.env);
    this.#chalk = undefined;
    this.#errChalk = undefined;
  }

  /** A run against the embedded sandbox: JSON documents say so, and a banner goes to stderr. */
  setSandbox(sandbox: boolean): void {
    this.#sandbox = sandbox;
  }

  get sandbox(): boolean {
    return this.#sandbox;
  }

  /** --qr-charset: the characters a QR is drawn with, whatever the locale and GW_UTF8 say. */
  setQrCharset(charset: QrCharset | undefined): void {
    this.#qrCharset = charset;
  }

  /**
   * gw's command names (src/cli.ts gives the registry's): in a message wrapped to the terminal,
   * `gw` and one of them start a command to run, kept whole on a line of its own (src/output/wrap.ts).
   */
  setCommandWords(words: readonly string[]): void {
    this.#commandWords = [...words];
  }

  get commandWords(): readonly string[] {
    return this.#commandWords;
  }

  /** --qr-theme: the background a QR is drawn for where its colours cannot be set. */
  setQrTheme(theme: QrTheme | undefined): void {
    this.#qrTheme = theme;
  }

  /**
   * Loads what colour output needs (chalk), when stdout or stderr can have colour: before a
   * command runs (runCli). --no-color can only turn colour off after that.
   */
  async loadColor(): Promise<void> {
    if (this.#outLevel > 0 || this.#errLevel > 0) await loadColor();
  }

  /** Colour for stdout. */
  get chalk(): Palette {
    this.#chalk ??= paletteFor(this.#outLevel);
    return this.#chalk;
  }

  /** Colour for stderr (progress lines, notices). */
  get errChalk(): Palette {
    this.#errChalk ??= paletteFor(this.#errLevel);
    return this.#errChalk;
  }

  get color(): boolean {
    return this.#outLevel > 0;
  }

  /** The environment variable, for the few decisions that belong to the user's environment. */
  env(name: string): string | undefined {
    return this.options.env[name];
  }

  // --- Input --------------------------------------------------------------------------------------

  /**
   * Reads stdin to its end (a command that takes its input from a pipe: `gw webhook verify < body`).
   * Keeps at most `limit` bytes: a longer input is 'too-large', read no further.
   */
  async readStdin(limit: number): Promise<Buffer | 'too-large'> {
    const stdin = this.#stdinStream();
    const chunks: Buffer[] = [];
    let total = 0;
    if (stdin?.[Symbol.asyncIterator] === undefined) return Buffer.alloc(0);
    for await (const chunk of stdin as AsyncIterable<unknown>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk as Uint8Array);
      total += bytes.length;
      if (total > limit) return 'too-large';
      chunks.push(bytes);
    }
    return Buffer.concat(chunks, total);
  }

  // --- Terminal geometry ------------------------------------------------------------------------

  /** Columns of the terminal stdout is on: set by a test, else the terminal's, else COLUMNS, else 80. */
  width(): number {
    if (this.#width !== undefined) return this.#width;
    const columns = this.options.stdout.columns ?? this.options.stderr.columns;
    if (columns !== undefined && columns > 0) return columns;
    const fromEnv = Number(this.options.env.COLUMNS);
    return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH;
  }

  /** Rows of the terminal, as width(). */
  height(): number {
    if (this.#height !== undefined) return this.#height;
    const rows = this.options.stdout.rows ?? this.options.stderr.rows;
    if (rows !== undefined && rows > 0) return rows;
    const fromEnv = Number(this.options.env.LINES);
    return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_HEIGHT;
  }

  /** The width prose (help, hints) wraps to: the terminal's, up to a readable maximum. */
  proseWidth(): number {
    return Math.min(this.width(), MAX_PROSE_WIDTH);
  }

  setSize(width: number, height: number = DEFAULT_HEIGHT): void {
    this.#width = width;
    this.#height = height;
  }

  // --- Decisions --------------------------------------------------------------------------------

  /** Draw the payment QR by default: a human on a terminal, not JSON. */
  drawQrByDefault(): boolean {
    return this.stdoutIsTTY && !this.#json;
  }

  /**
   * Explicit black and white cells wherever the stream can be told its colours; glyphs otherwise.
   * Decoration colour (NO_COLOR, --no-color, FORCE_COLOR=0) does not enter into it: the QR's
   * black and white are content.
   */
  qrStyle(stream: 'stdout' | 'stderr' = this.#json ? 'stderr' : 'stdout'): QrStyle {
    const tty = stream === 'stdout' ? this.stdoutIsTTY : this.stderrIsTTY;
    return (tty && this.options.env.TERM !== 'dumb') || forceColorOn(this.options.env) ? 'color' : 'glyph';
  }

  /**
   * How every terminal QR code is drawn: the one place that decides it. `stream` is where it is
   * written (default: stderr in JSON mode, where pay draws it, else stdout).
   * - On a terminal (TERM other than dumb), or with FORCE_COLOR: both colours of every cell are
   *   set explicitly, whatever NO_COLOR, --no-color or FORCE_COLOR=0 say about decoration.
   * - Elsewhere (a pipe, a file, TERM=dumb): glyphs for a dark background, or a light one with
   *   --qr-theme light; one notice line on stderr says which (once per run).
   * - A locale without UTF-8 (LC_ALL, LC_CTYPE, LANG), unless GW_UTF8=1: ASCII cells, two
   *   columns per module; `locale` names the setting for the notices.
   * - On a terminal, a code wider than the terminal is replaced by a line saying so.
   */
  qrRenderOptions(stream: 'stdout' | 'stderr' = this.#json ? 'stderr' : 'stdout'): QrRenderOptions {
    const charset = this.#qrCharset ?? localeCharset(this.options.env);
    const tty = stream === 'stdout' ? this.stdoutIsTTY : this.stderrIsTTY;
    const color = this.qrStyle(stream) === 'color';
    const asked = this.#qrCharset !== undefined ? '--qr-charset ascii' : this.options.env.GW_UTF8 === '0' ? 'GW_UTF8=0' : undefined;
    const locale = charset === 'ascii' ? (asked ?? localeSetting(this.options.env)) : undefined;
    const options: QrRenderOptions = {
      color,
      charset,
      ...(locale !== undefined && { locale }),
      ...(tty && { maxWidth: this.width(), tooWide: 'explain' as const }),
    };
    if (color) return options;
    const theme = this.#qrTheme ?? 'dark';
    if (!this.#qrNoticeGiven) {
      this.#qrNoticeGiven = true;
      const why = !tty ? `${stream} is not a terminal` : 'TERM=dumb';
      this.note(
        this.#qrTheme === undefined
          ? `the QR code is drawn for a dark background (its colours cannot be set: ${why}); on a light background use --qr-theme light`
          : `the QR code is drawn for a ${theme} background (--qr-theme ${theme}; its colours cannot be set: ${why})`,
      );
    }
    return { ...options, theme };
  }

  /** A spinner while gw waits for an answer (src/output/spinner.ts): where canAnimate(), never with --json. */
  canSpin(): boolean {
    return this.options.spinners !== false && this.canAnimate() && !this.#json;
  }

  /** Animation (spinners, lines redrawn in place) only for a person watching stderr. */
  canAnimate(): boolean {
    return this.stderrIsTTY && this.options.env.TERM !== 'dumb';
  }

  /** A screen redrawn in place (the counter screen): human output on a terminal that moves its cursor. */
  canRedraw(): boolean {
    return this.stdoutIsTTY && !this.#json && this.options.env.TERM !== 'dumb';
  }

  // --- Screens and live lines -------------------------------------------------------------------

  /** Clears the terminal's screen (not its scrollback) and homes the cursor; only where canRedraw(). */
  clearScreen(): void {
    if (!this.canRedraw()) return;
    this.out(CLEAR_SCREEN);
    this.#screen.forget();
  }

  /**
   * Draws `lines` on stdout; on a terminal (canRedraw), a second call redraws the same block in
   * place, rewriting only the lines that changed (the cursor moves up over the block, so the
   * block must fit the screen: the counter screen does). After a change of terminal size the
   * screen is cleared first when `clear` allows it, else the block is drawn again below.
   * Elsewhere each call prints the lines.
   */
  drawScreen(lines: readonly string[], options: { clear?: boolean } = {}): void {
    if (!this.canRedraw()) {
      this.out(lines.length === 0 ? '' : `${lines.join('\n')}\n`);
      return;
    }
    this.out(this.#screen.redraw(lines, this.width(), this.height(), options.clear === true));
  }

  /** Forgets the drawn screen: what is written next goes below it and is never redrawn. */
  endScreen(): void {
    this.#screen.forget();
  }

  /** A one-line status on stderr, redrawn in place (only where canAnimate(), never in JSON mode). */
  liveLine(text: string): void {
    if (!this.canAnimate() || this.#json) return;
    this.#write(this.options.stderr, `${CLEAR_LINE}${fitLiveLine(text, this.width())}`, false);
    this.#liveLine = true;
  }

  /** Removes the live line, if one is shown. */
  endLiveLine(): void {
    if (!this.#liveLine) return;
    this.#liveLine = false;
    this.#write(this.options.stderr, CLEAR_LINE, false);
  }

  // --- Full screen (gw counter) -----------------------------------------------------------------

  /**
   * The terminal's keys, read raw (no echo, no line editing; Ctrl-C is a key, not a signal), given
   * to `onKey` until the returned function is called, which leaves raw mode. Only where stdin is a
   * terminal; elsewhere nothing is read.
   */
  readKeys(onKey: (key: Key) => void): () => void {
    const stdin = this.#stdinStream();
    if (stdin?.isTTY !== true || stdin.on === undefined) return () => undefined;
    const listener = (chunk: unknown): void => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      for (const key of parseKeys(text)) onKey(key);
    };
    stdin.setRawMode?.(true);
    stdin.on('data', listener);
    stdin.resume?.();
    return () => {
      stdin.off?.('data', listener);
      stdin.setRawMode?.(false);
      stdin.pause?.();
    };
  }

  /** Calls `listener` when the terminal stdout is on changes size (SIGWINCH); returns the function that stops it. */
  onResize(listener: () => void): () => void {
    const stdout = this.options.stdout as unknown as { on?(event: 'resize', l: () => void): unknown; off?(event: 'resize', l: () => void): unknown };
    if (!this.stdoutIsTTY || stdout.on === undefined) return () => undefined;
    stdout.on('resize', listener);
    return () => stdout.off?.('resize', listener);
  }

  /** Switches a terminal to its alternate screen (the shell's screen comes back untouched after leaveAltScreen). */
  enterAltScreen(): void {
    if (!this.canRedraw()) return;
    this.out(ENTER_ALT_SCREEN);
    this.#screen.forget();
  }

  leaveAltScreen(): void {
    if (!this.canRedraw()) return;
    this.out(LEAVE_ALT_SCREEN);
    this.#screen.forget();
  }

  // --- Reading ----------------------------------------------------------------------------------

  /** gw may ask questions: a prompter was given, or stdin and stderr are both terminals. */
  canPrompt(): boolean {
    return this.#prompter !== undefined || (this.stdinIsTTY && this.stderrIsTTY);
  }

  /** Who asks: the one given, else the terminal prompts on stdin/stderr (loaded on first use). */
  async prompter(): Promise<Prompter> {
    if (this.#prompter === undefined) {
      const { TerminalPrompter } = await import('./prompter.js');
      this.#prompter = new TerminalPrompter(this.#stdinStream(), realStream(this.options.stderr), this.#errLevel > 0);
    }
    return this.#prompter;
  }

  /** Everything piped to stdin as text (at most 64 KiB), for a value that must not go on the command line. */
  async readInput(): Promise<string> {
    const input = await this.readStdin(MAX_INPUT_BYTES);
    if (input === 'too-large') throw new UsageError(`standard input is larger than ${MAX_INPUT_BYTES / 1024} KiB`);
    return input.toString('utf8');
  }

  // --- Writing ----------------------------------------------------------------------------------

  /** Writes to stdout, keys scrubbed. */
  out(text: string): void {
    // On the terminal the live line is on, it goes before anything else is written.
    if (this.stdoutIsTTY) this.endLiveLine();
    this.#write(this.options.stdout, text, true);
  }

  /** Writes to stderr, keys scrubbed (below a live line, which it removes first). */
  err(text: string): void {
    this.endLiveLine();
    this.#write(this.options.stderr, text, false);
  }

  /** The command's JSON document on stdout; `"sandbox": true` added on sandbox runs. */
  printJson(value: Record<string, unknown>): void {
    this.out(`${toJson(this.#sandbox ? { ...value, sandbox: true } : value)}\n`);
  }

  /** A warning on stderr: `gw: …`, or a `{"warning": {...}}` line with --json. */
  warn(message: string): void {
    if (this.#json) this.err(`${toJson({ warning: { message: terminalSafe(message) } }, 0)}\n`);
    else this.err(this.#fitted(`gw: warning: ${terminalSafe(message)}\n`, '    '));
  }

  /**
   * Human text for stderr, wrapped at word boundaries to its width when it is a terminal, a command
   * to run whole on a line of its own (src/output/wrap.ts); continuation lines start with `indent`.
   */
  #fitted(text: string, indent: string): string {
    if (!this.stderrIsTTY) return text;
    const columns = this.options.stderr.columns ?? this.width();
    return wrapText(text, Math.max(20, columns - 1), indent, this.#commandWords);
  }

  /**
   * One of Node's runtime warnings (process 'warning': deprecations, MaxListenersExceededWarning,
   * an insecure TLS setting…) as one sanitised warning line, `gw: warning: the runtime warns: …`
   * (or a JSON line), keys scrubbed, the same warning once; never Node's raw multi-line text.
   */
  runtimeWarning(warning: Error): void {
    const line = `${warning.name}: ${warning.message}`.split('\n', 1)[0] ?? warning.name;
    if (this.#runtimeWarnings.has(line)) return;
    this.#runtimeWarnings.add(line);
    this.warn(`the runtime warns: ${line.slice(0, 300)}`);
  }

  readonly #runtimeWarnings = new Set<string>();

  /** A note about how something was done, on stderr: `gw: …`, or a `{"notice": {...}}` line with --json. */
  note(message: string): void {
    if (this.#json) this.err(`${toJson({ notice: { message: terminalSafe(message) } }, 0)}\n`);
    else this.err(this.#fitted(`gw: ${terminalSafe(message)}\n`, '    '));
  }

  /** Information for a person (banners, progress notes) on stderr; nothing in JSON mode. */
  notice(text: string): void {
    if (!this.#json) this.err(this.#fitted(text.endsWith('\n') ? text : `${text}\n`, text.startsWith('gw: ') ? '    ' : ''));
  }

  /** The SANDBOX label. */
  sandboxLabel(chalk: Palette = this.errChalk): string {
    return chalk.bgYellow.black(' SANDBOX ');
  }

  /** On sandbox runs, one banner line on stderr (human output only). */
  sandboxBanner(): void {
    if (this.#sandbox) this.notice(`${this.sandboxLabel()} test gateway on this machine: nothing here is real money`);
  }

  /** One failure: a `gw: …` line and a `hint: …` line, or one JSON line with --json. */
  reportFailure(error: GwError): void {
    const message = terminalSafe(error.message);
    const hint = error.hint === undefined ? undefined : terminalSafe(error.hint);
    if (this.#json) {
      const body: Record<string, unknown> = { message, exitCode: error.exitCode, ...error.jsonFields() };
      if (hint !== undefined) body.hint = hint;
      this.err(`${toJson({ error: body }, 0)}\n`);
    } else {
      this.err(this.#fitted(`gw: ${message}\n`, '    '));
      if (hint !== undefined) this.err(this.#fitted(`hint: ${hint}\n`, '      '));
    }
  }

  /**
   * Resolves once everything written to stdout has been handed to the system. Throws a GwError
   * when stdout refused it (disk full, a read-only or bad descriptor): the output was not
   * delivered. A closed pipe (EPIPE: `gw … | head -1`) is not a failure: the reader had enough.
   */
  async flush(): Promise<void> {
    if (this.#pending > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
    const error = this.#stdoutError;
    if (error !== undefined && error.code !== 'EPIPE') {
      throw new GwError(ExitCode.IOERR, `the output could not be written to stdout (${error.code ?? error.message})`);
    }
  }

  /**
   * Writes to stdout (keys scrubbed) and resolves once the system has taken the bytes: the write's
   * callback came without an error and, when stdout is a regular file, the file was fsync'd.
   * Rejects with the stdout error (EPIPE, ENOSPC, EBADF…), also one met by an earlier write: a
   * record that could not be kept. For `gw listen`, which acknowledges only what it recorded.
   */
  outConfirmed(text: string): Promise<void> {
    if (this.#stdoutError !== undefined) return Promise.reject(this.#stdoutError);
    const stdout = this.options.stdout;
    return new Promise((resolve, reject) => {
      const settle = (error?: Error | null): void => {
        if (error) this.#recordStdoutError(error);
        const failed = this.#stdoutError;
        if (failed !== undefined) reject(failed);
        else resolve();
      };
      this.#pending++;
      const done = (error?: Error | null): void => {
        this.#pending--;
        if (this.#pending === 0) for (const drained of this.#drained.splice(0)) drained();
        if (error || stdout.sync === undefined) settle(error);
        else stdout.sync(settle);
      };
      try {
        stdout.write(scrubSecrets(text, this.secrets), done);
      } catch (error) {
        done(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * stdout looks closed (`gw … >&-`: see FdStream.looksClosed). Writes to it succeed and go nowhere,
   * so a command whose output is the record of a side effect (gw pay) asks before exiting 0.
   */
  get stdoutLooksClosed(): boolean {
    return this.options.stdout.looksClosed === true;
  }

  /**
   * stdout is the process's own descriptor 1 (a pipe or file written directly, or Node's stream
   * for a terminal), not a test's buffer: what changes the whole process (V8's heap flags of a
   * streamed listing, src/cmdutil/stream-heap.ts) is done only then.
   */
  get stdoutIsProcess(): boolean {
    const stdout = this.options.stdout;
    return stdout instanceof FdStream || (stdout as { fd?: unknown }).fd === 1;
  }

  /** True once stdout's reader went away (EPIPE): nothing more needs writing. */
  get stdoutClosed(): boolean {
    return this.#stdoutError?.code === 'EPIPE';
  }

  #recordStdoutError(error: Error): void {
    this.#stdoutError ??= error as NodeJS.ErrnoException;
  }

  #write(stream: OutStream, text: string, isStdout: boolean): void {
    if (text === '') return;
    const safe = scrubSecrets(text, this.secrets);
    if (isStdout && this.#stdoutError !== undefined) return;
    this.#pending++;
    const done = (error?: Error | null): void => {
      if (error && isStdout) this.#recordStdoutError(error);
      this.#pending--;
      if (this.#pending === 0) for (const resolve of this.#drained.splice(0)) resolve();
    };
    try {
      stream.write(safe, done);
    } catch (error) {
      // A synchronous write to a file or pipe can throw (EBADF, ENOSPC) instead of calling back.
      done(error instanceof Error ? error : new Error(String(error)));
    }
  }

  // --- Tests ------------------------------------------------------------------------------------

  /** An IOStreams over in-memory buffers, with settable terminal facts. */
  static test(options: TestIOOptions = {}): TestIO {
    const stdout = new MemoryStream(options.stdoutTTY ?? false, options.width, options.height);
    const stderr = new MemoryStream(options.stderrTTY ?? options.stdoutTTY ?? false, options.width, options.height);
    const env: Record<string, string | undefined> = { ...options.env };
    if (options.color === true) env.FORCE_COLOR = '1';
    if (options.color === false) env.NO_COLOR = '1';
    const input = options.stdin === undefined ? [] : [typeof options.stdin === 'string' ? Buffer.from(options.stdin, 'utf8') : options.stdin];
    const stdin: InStream = {
      isTTY: options.stdinTTY ?? false,
      async *[Symbol.asyncIterator]() {
        yield* input;
      },
    };
    const io = new IOStreams({
      stdout,
      stderr,
      stdin,
      env,
      spinners: options.spinners === true,
      ...(options.prompter !== undefined && { prompter: options.prompter }),
    });
    if (options.json) io.setJson(true);
    return { io, stdout: () => stdout.text, stderr: () => stderr.text };
  }
}

export interface TestIOOptions {
  /** What stdin holds (nothing by default). */
  stdin?: string | Buffer;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  /** true: FORCE_COLOR=1; false: NO_COLOR=1; undefined: from the TTY flags and env. */
  color?: boolean;
  width?: number;
  height?: number;
  json?: boolean;
  env?: Record<string, string | undefined>;
  /** What is piped to stdin. */
  prompter?: Prompter;
  /** Show spinners where the terminal facts allow them (default false: a test's output stays exact). */
  spinners?: boolean;
}

export interface TestIO {
  io: IOStreams;
  stdout(): string;
  stderr(): string;
}

/** An in-memory stdout/stderr for tests (a plain object: node:stream is not loaded for it). */
class MemoryStream implements OutStream {
  text = '';

  constructor(
    readonly isTTY: boolean,
    readonly columns: number | undefined,
    readonly rows: number | undefined,
  ) {}

  write(chunk: string, callback?: (error?: Error | null) => void): boolean {
    this.text += chunk;
    if (callback) queueMicrotask(() => callback());
    return true;
  }
}
