// The colours of gw's human output. With colour on (a terminal, FORCE_COLOR) a palette is a chalk
// instance; with colour off (a pipe, a file, NO_COLOR, --no-color, TERM=dumb: every script and
// every --json run) it is PLAIN, which returns the text as it is, and chalk is never loaded:
// setting up its styles is a part of a millisecond that a script would pay on every call.
//
// chalk is an ES module, so it loads asynchronously: runCli() calls loadColor() before any command
// runs, when some output can have colour (IOStreams.loadColor).
import type { ChalkInstance } from 'chalk';

/** The styles gw's output uses: a Palette has each, and PLAIN must answer as chalk does with colour off. */
export const PALETTE_STYLES = ['bold', 'dim', 'red', 'green', 'yellow', 'black', 'bgYellow'] as const;

/** The styles, chained as in chalk (`palette.yellow.bold(text)`); a ChalkInstance is one. */
export type Palette = {
  (...text: unknown[]): string;
  /** 0: no colour; 1–3: as chalk's levels. */
  readonly level: number;
} & { readonly [Style in (typeof PALETTE_STYLES)[number]]: Palette };

/** Colour off: every style, however chained, gives back its text (several arguments joined by a space, as chalk joins them). */
export const PLAIN: Palette = (() => {
  const plain = ((...text: unknown[]) => text.join(' ')) as (...text: unknown[]) => string;
  Object.defineProperty(plain, 'level', { value: 0, enumerable: true });
  for (const style of PALETTE_STYLES) Object.defineProperty(plain, style, { get: () => plain, enumerable: true });
  return Object.freeze(plain) as Palette;
})();

let chalk: typeof import('chalk') | undefined;

/** Loads chalk, which the palettes of a colour level above 0 are made by. */
export async function loadColor(): Promise<void> {
  chalk ??= await import('chalk');
}

/**
 * The palette for a colour level: PLAIN at 0; chalk's above it, once loadColor() has loaded chalk.
 * Before that, PLAIN too: colour is decoration, never a reason to fail (a failure reported before
 * any command ran, say).
 */
export function paletteFor(level: 0 | 1 | 2 | 3): Palette {
  if (level === 0 || chalk === undefined) return PLAIN;
  const instance: ChalkInstance = new chalk.Chalk({ level });
  return instance;
}
