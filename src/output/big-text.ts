// Words in large block letters, for the end of a payment at the counter: PAID (or why not) that a
// customer reads from a distance. A 5 × 5 font of full blocks, scaled to the largest size that fits
// the width and height given; no escape codes (the caller colours it).

const FONT: Readonly<Record<string, readonly string[]>> = {
  A: [' ### ', '#   #', '#####', '#   #', '#   #'],
  B: ['#### ', '#   #', '#### ', '#   #', '#### '],
  C: [' ####', '#    ', '#    ', '#    ', ' ####'],
  D: ['#### ', '#   #', '#   #', '#   #', '#### '],
  E: ['#####', '#    ', '#### ', '#    ', '#####'],
  F: ['#####', '#    ', '#### ', '#    ', '#    '],
  G: [' ####', '#    ', '#  ##', '#   #', ' ####'],
  H: ['#   #', '#   #', '#####', '#   #', '#   #'],
  I: ['#####', '  #  ', '  #  ', '  #  ', '#####'],
  J: ['#####', '   # ', '   # ', '#  # ', ' ##  '],
  K: ['#   #', '#  # ', '###  ', '#  # ', '#   #'],
  L: ['#    ', '#    ', '#    ', '#    ', '#####'],
  M: ['#   #', '## ##', '# # #', '#   #', '#   #'],
  N: ['#   #', '##  #', '# # #', '#  ##', '#   #'],
  O: [' ### ', '#   #', '#   #', '#   #', ' ### '],
  P: ['#### ', '#   #', '#### ', '#    ', '#    '],
  Q: [' ### ', '#   #', '# # #', '#  # ', ' ## #'],
  R: ['#### ', '#   #', '#### ', '#  # ', '#   #'],
  S: [' ####', '#    ', ' ### ', '    #', '#### '],
  T: ['#####', '  #  ', '  #  ', '  #  ', '  #  '],
  U: ['#   #', '#   #', '#   #', '#   #', ' ### '],
  V: ['#   #', '#   #', '#   #', ' # # ', '  #  '],
  W: ['#   #', '#   #', '# # #', '## ##', '#   #'],
  X: ['#   #', ' # # ', '  #  ', ' # # ', '#   #'],
  Y: ['#   #', ' # # ', '  #  ', '  #  ', '  #  '],
  Z: ['#####', '   # ', '  #  ', ' #   ', '#####'],
  '!': ['#', '#', '#', ' ', '#'],
};

const GLYPH_ROWS = 5;

/** Sizes tried, largest first: columns and rows per font pixel (two columns make a square pixel). */
const SCALES: ReadonlyArray<readonly [number, number]> = [
  [4, 2],
  [3, 2],
  [2, 1],
  [1, 1],
];

const BLANK: readonly string[] = ['   ', '   ', '   ', '   ', '   '];

function glyph(ch: string): readonly string[] {
  return FONT[ch.toUpperCase()] ?? BLANK;
}

/** Columns `word` takes at horizontal scale `sx` (one pixel of space between letters). */
export function bigTextWidth(word: string, sx: number): number {
  const letters = [...word];
  return letters.reduce((sum, ch) => sum + (glyph(ch)[0]?.length ?? 0) * sx, 0) + Math.max(0, letters.length - 1) * sx;
}

/**
 * `word` in block letters, as lines, at the largest size that fits `maxWidth` columns and
 * `maxHeight` rows; undefined when not even the smallest fits (the caller writes it plainly).
 */
export function bigText(word: string, maxWidth: number, maxHeight: number): string[] | undefined {
  for (const [sx, sy] of SCALES) {
    if (bigTextWidth(word, sx) > maxWidth || GLYPH_ROWS * sy > maxHeight) continue;
    const lines: string[] = [];
    for (let row = 0; row < GLYPH_ROWS; row++) {
      const line = [...word]
        .map((ch) => [...(glyph(ch)[row] ?? '')].map((pixel) => (pixel === '#' ? '█' : ' ').repeat(sx)).join(''))
        .join(' '.repeat(sx))
        .trimEnd();
      for (let i = 0; i < sy; i++) lines.push(line);
    }
    return lines;
  }
  return undefined;
}
