// Colour off is PLAIN, which must write exactly what chalk writes with colour off; colour on is
// chalk itself (src/output/palette.ts).
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/output/iostreams.js';
import { PALETTE_STYLES, paletteFor, PLAIN, type Palette } from '../../src/output/palette.js';

const ESC = '\u001b';
const off = new Chalk({ level: 0 });

/** Every style alone and every ordered pair of styles, as chained in gw (`yellow.bold`). */
const CHAINS: ReadonlyArray<readonly (typeof PALETTE_STYLES)[number][]> = [
  [],
  ...PALETTE_STYLES.map((s) => [s]),
  ...PALETTE_STYLES.flatMap((a) => PALETTE_STYLES.filter((b) => b !== a).map((b) => [a, b])),
];

const styled = (palette: Palette, chain: readonly (typeof PALETTE_STYLES)[number][]): Palette => chain.reduce((p, style) => p[style], palette);

describe('PLAIN', () => {
  it.each(CHAINS.map((chain) => [chain.join('.') || '(none)', chain] as const))('%s writes what chalk writes with colour off', (_name, chain) => {
    for (const args of [['text'], ['two', 'words'], [], [42], ['', 'x'], [`${ESC}[31mred already${ESC}[39m`]]) {
      expect(styled(PLAIN, chain)(...args)).toBe(styled(off, chain)(...args));
    }
  });

  it('says colour is off, and cannot be changed', () => {
    expect(PLAIN.level).toBe(0);
    expect(Object.isFrozen(PLAIN)).toBe(true);
  });
});

describe('paletteFor', () => {
  it('is PLAIN at level 0 and chalk at levels 1-3', () => {
    expect(paletteFor(0)).toBe(PLAIN);
    expect(paletteFor(1).red('x')).toBe(`${ESC}[31mx${ESC}[39m`);
    expect(paletteFor(3).level).toBe(3);
  });
});

describe('IOStreams colour', () => {
  it('gives a pipe the plain palette, and a terminal chalk', () => {
    const { io: pipe } = IOStreams.test();
    expect(pipe.chalk).toBe(PLAIN);
    expect(pipe.errChalk).toBe(PLAIN);
    const { io: tty } = IOStreams.test({ stdoutTTY: true, env: { TERM: 'xterm' } });
    expect(tty.chalk.bold('x')).toBe(`${ESC}[1mx${ESC}[22m`);
  });

  it('turns colour off for --no-color after the first use', () => {
    const { io } = IOStreams.test({ stdoutTTY: true, env: { TERM: 'xterm' } });
    expect(io.chalk.level).toBe(1);
    io.setNoColor(true);
    expect(io.chalk).toBe(PLAIN);
    expect(io.color).toBe(false);
  });
});
