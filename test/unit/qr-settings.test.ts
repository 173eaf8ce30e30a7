// Every colour setting × theme: IOStreams.qrRenderOptions() decides how the QR is drawn, the
// renderer draws it, and the decoder paints it as a dark- and a light-themed terminal would show
// it (ZXing's reader, no inversion). On a terminal the QR sets its own black and white whatever
// decoration colour says; where it cannot (a pipe, TERM=dumb) it is drawn for the --qr-theme
// background and says so once; a locale without UTF-8 gets ASCII cells.
import { describe, expect, it } from 'vitest';
import { IOStreams, localeCharset, type TestIOOptions } from '../../src/output/iostreams.js';
import { qrWidth, renderTerminalQr } from '../../src/qr/index.js';
import { decodeTerminalQr } from '../support/qr-decode.js';

const URI = 'bitcoin:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx?amount=0.00038127';
const SHORT = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe'; // a bare Tron address: small enough for ASCII at 80 columns

interface Setting {
  name: string;
  io: TestIOOptions;
  noColorFlag?: boolean;
  theme?: 'dark' | 'light';
  /** Which themes the drawing must scan on (the others must NOT scan: the test can fail). */
  scans: Array<'dark' | 'light'>;
  colour: boolean;
  ascii?: boolean;
  notice?: RegExp;
}

const TTY = { stdoutTTY: true, stderrTTY: true, width: 120 } as const;
const PIPE = { stdoutTTY: false, stderrTTY: false } as const;

const SETTINGS: Setting[] = [
  { name: 'terminal', io: { ...TTY }, scans: ['dark', 'light'], colour: true },
  { name: 'terminal, NO_COLOR=1', io: { ...TTY, env: { NO_COLOR: '1' } }, scans: ['dark', 'light'], colour: true },
  { name: 'terminal, --no-color', io: { ...TTY }, noColorFlag: true, scans: ['dark', 'light'], colour: true },
  { name: 'terminal, FORCE_COLOR=0', io: { ...TTY, env: { FORCE_COLOR: '0' } }, scans: ['dark', 'light'], colour: true },
  { name: 'terminal, --qr-theme light (colours explicit: theme not needed)', io: { ...TTY }, theme: 'light', scans: ['dark', 'light'], colour: true },
  {
    name: 'terminal, TERM=dumb',
    io: { ...TTY, env: { TERM: 'dumb' } },
    scans: ['dark'],
    colour: false,
    notice: /dark background .*TERM=dumb.*--qr-theme light/,
  },
  {
    name: 'terminal, TERM=dumb, --qr-theme light',
    io: { ...TTY, env: { TERM: 'dumb' } },
    theme: 'light',
    scans: ['light'],
    colour: false,
    notice: /light background \(--qr-theme light/,
  },
  { name: 'pipe', io: { ...PIPE }, scans: ['dark'], colour: false, notice: /dark background .*stdout is not a terminal/ },
  { name: 'pipe, --qr-theme dark', io: { ...PIPE }, theme: 'dark', scans: ['dark'], colour: false, notice: /dark background \(--qr-theme dark/ },
  { name: 'pipe, --qr-theme light', io: { ...PIPE }, theme: 'light', scans: ['light'], colour: false, notice: /light background/ },
  { name: 'pipe, NO_COLOR=1, --qr-theme light', io: { ...PIPE, env: { NO_COLOR: '1' } }, theme: 'light', scans: ['light'], colour: false, notice: /light/ },
  { name: 'pipe, FORCE_COLOR=1 (the reader takes colours)', io: { ...PIPE, env: { FORCE_COLOR: '1' } }, scans: ['dark', 'light'], colour: true },
  { name: 'terminal, LANG=C', io: { ...TTY, env: { LANG: 'C' } }, scans: ['dark', 'light'], colour: true, ascii: true },
  { name: 'terminal, LC_ALL=POSIX, NO_COLOR=1', io: { ...TTY, env: { LC_ALL: 'POSIX', NO_COLOR: '1' } }, scans: ['dark', 'light'], colour: true, ascii: true },
  { name: 'pipe, LANG=C', io: { ...PIPE, env: { LANG: 'C' } }, scans: ['dark'], colour: false, ascii: true, notice: /dark background/ },
  {
    name: 'pipe, LC_CTYPE=en_US.ISO-8859-1, --qr-theme light',
    io: { ...PIPE, env: { LC_CTYPE: 'en_US.ISO-8859-1' } },
    theme: 'light',
    scans: ['light'],
    colour: false,
    ascii: true,
    notice: /light background/,
  },
  {
    name: 'TERM=dumb, LANG=C, --qr-theme light',
    io: { ...TTY, env: { TERM: 'dumb', LANG: 'C' } },
    theme: 'light',
    scans: ['light'],
    colour: false,
    ascii: true,
    notice: /light background .*TERM=dumb/,
  },
];

function draw(setting: Setting, text = URI): { out: string; stderr: string; io: IOStreams } {
  const t = IOStreams.test(setting.io);
  if (setting.noColorFlag) t.io.setNoColor(true);
  if (setting.theme) t.io.setQrTheme(setting.theme);
  const out = renderTerminalQr(text, t.io.qrRenderOptions());
  return { out, stderr: t.stderr(), io: t.io };
}

describe.each(SETTINGS)('QR on $name', (setting) => {
  it(`scans on ${setting.scans.join(' and ')} theme(s), and only there`, () => {
    const { out } = draw(setting, setting.ascii ? SHORT : URI);
    for (const theme of ['dark', 'light'] as const) {
      expect(decodeTerminalQr(out, theme), `${theme} theme`).toBe(setting.scans.includes(theme) ? (setting.ascii ? SHORT : URI) : null);
    }
  });

  it(`${setting.colour ? 'sets both colours of every cell' : 'uses no escape codes'}${setting.ascii ? ', ASCII only' : ''}`, () => {
    const { out } = draw(setting, setting.ascii ? SHORT : URI);
    if (setting.colour) {
      for (const line of out.trimEnd().split('\n')) expect(line).toMatch(/^\x1b\[[0-9;]*(40|107)m/);
    } else {
      expect(out).not.toContain('\x1b');
    }
    if (setting.ascii) expect(out).toMatch(/^[\x00-\x7f]*$/);
    else expect(out).toMatch(/[▀▄█]/);
  });

  it(setting.notice ? 'says which background it drew for, once, on stderr' : 'says nothing about it', () => {
    const { stderr, io } = draw(setting);
    renderTerminalQr(URI, io.qrRenderOptions()); // a second code in the same run
    if (setting.notice) {
      // One message (on a terminal, wrapped to its width).
      expect(stderr.replace(/\n +/g, ' ')).toMatch(setting.notice);
      expect(stderr.replace(/\n +/g, ' ').trimEnd().split('\n')).toHaveLength(1);
    } else {
      expect(stderr).toBe('');
    }
  });
});

describe('qrRenderOptions: the decisions', () => {
  it('the locale: LC_ALL, then LC_CTYPE, then LANG; unset means UTF-8', () => {
    expect(localeCharset({})).toBe('unicode');
    expect(localeCharset({ LANG: 'C.UTF-8' })).toBe('unicode');
    expect(localeCharset({ LANG: 'en_US.utf8' })).toBe('unicode');
    expect(localeCharset({ LANG: 'C' })).toBe('ascii');
    expect(localeCharset({ LANG: 'en_US.UTF-8', LC_ALL: 'C' })).toBe('ascii');
    expect(localeCharset({ LANG: 'C', LC_CTYPE: 'de_DE.UTF-8' })).toBe('unicode');
    expect(localeCharset({ LANG: 'C', LC_ALL: '', LC_CTYPE: 'de_DE.UTF-8' })).toBe('unicode');
  });

  it('with --json the QR goes to stderr: decided by stderr, not stdout', () => {
    const t = IOStreams.test({ stdoutTTY: false, stderrTTY: true, json: true });
    expect(t.io.qrRenderOptions().color).toBe(true);
    const piped = IOStreams.test({ stdoutTTY: true, stderrTTY: false, json: true });
    expect(piped.io.qrRenderOptions().color).toBe(false);
    expect(JSON.parse(piped.stderr())).toEqual({ notice: { message: expect.stringMatching(/stderr is not a terminal/) } });
  });

  it('an ASCII code wider than the terminal is replaced by a line saying so; half blocks fit', () => {
    const t = IOStreams.test({ stdoutTTY: true, width: 80, env: { LANG: 'C' } });
    expect(qrWidth(URI, { charset: 'ascii' })).toBe(2 * qrWidth(URI));
    expect(qrWidth(URI, { charset: 'ascii' })).toBeGreaterThan(80);
    const out = renderTerminalQr(URI, t.io.qrRenderOptions());
    expect(out).toMatch(
      /^\[QR code not drawn: it needs 90 columns and the terminal has 80: LANG=C is not a UTF-8 locale, .*run gw with LANG=C\.UTF-8 \(or GW_UTF8=1, or --qr-charset utf8, .*\); or save the code with --qr-out/,
    );
    const utf8 = IOStreams.test({ stdoutTTY: true, width: 80, env: { LANG: 'en_US.UTF-8' } });
    expect(decodeTerminalQr(renderTerminalQr(URI, utf8.io.qrRenderOptions()), 'light')).toBe(URI);
  });

  it('GW_UTF8=1 draws half blocks whatever the locale; GW_UTF8=0 asks for ASCII; the notice names the setting', () => {
    expect(localeCharset({ LC_ALL: 'C', GW_UTF8: '1' })).toBe('unicode');
    expect(localeCharset({ LANG: 'en_US.UTF-8', GW_UTF8: '0' })).toBe('ascii');
    expect(IOStreams.test({ stdoutTTY: true, env: { LC_ALL: 'POSIX', LANG: 'C' } }).io.qrRenderOptions().locale).toBe('LC_ALL=POSIX');
    expect(IOStreams.test({ stdoutTTY: true, env: { LANG: 'C', GW_UTF8: '1' } }).io.qrRenderOptions()).toMatchObject({ charset: 'unicode' });
    expect(IOStreams.test({ stdoutTTY: true, env: { LANG: 'C', GW_UTF8: '1' } }).io.qrRenderOptions().locale).toBeUndefined();
    expect(IOStreams.test({ stdoutTTY: true, env: { GW_UTF8: '0' } }).io.qrRenderOptions().locale).toBe('GW_UTF8=0');
  });

  it('--qr-charset wins over the locale and GW_UTF8', () => {
    const utf8 = IOStreams.test({ stdoutTTY: true, env: { LANG: 'C', GW_UTF8: '0' } });
    utf8.io.setQrCharset('unicode');
    expect(utf8.io.qrRenderOptions()).toMatchObject({ charset: 'unicode' });
    const ascii = IOStreams.test({ stdoutTTY: true, env: { LANG: 'en_US.UTF-8', GW_UTF8: '1' } });
    ascii.io.setQrCharset('ascii');
    expect(ascii.io.qrRenderOptions()).toMatchObject({ charset: 'ascii', locale: '--qr-charset ascii' });
    expect(renderTerminalQr(URI, { ...ascii.io.qrRenderOptions(), maxWidth: 40 })).toMatch(/--qr-charset ascii asks for ASCII/);
  });

  it('into a pipe there is no width limit', () => {
    const t = IOStreams.test({ stdoutTTY: false, width: 20, env: { LANG: 'C' } });
    expect(t.io.qrRenderOptions().maxWidth).toBeUndefined();
  });
});
