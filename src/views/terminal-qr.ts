// A QR code drawn for this terminal (the one renderer, src/qr), or '' with one warning when the
// terminal is too narrow for it: a cut code would not scan. `advice` says what to do instead.
//
// On a terminal the code is also sized to stay on the screen with the `after` lines printed below
// it (the text, notices and prompt that follow): the first way of drawing it (SCREEN_QR_LADDER,
// the counter screen's, best error correction first) that fits the width and the rows left; when
// none fits those rows, the smallest that fits the width (the terminal's scrollback keeps it whole);
// when even that is taller than the screen, '' and one warning, as for a narrow one.
import type { IOStreams } from '../output/iostreams.js';

export async function terminalQr(io: IOStreams, text: string, advice: string, after = 0): Promise<string> {
  const { asciiReason, qrChoices, renderTerminalQr } = await import('../qr/index.js');
  const options = io.qrRenderOptions();
  const tty = io.json ? io.stderrIsTTY : io.stdoutIsTTY;
  if (!tty) return renderTerminalQr(text, options);
  const columns = io.width();
  const choices = qrChoices(text, options);
  const wide = choices.filter((c) => c.columns <= columns);
  if (wide.length === 0) {
    const narrowest = Math.min(...choices.map((c) => c.columns));
    io.warn(`the QR code needs ${narrowest} columns and the terminal has ${columns}: ${advice}`);
    return '';
  }
  const smallest = wide.reduce((a, b) => (b.rows < a.rows ? b : a));
  // A code taller than the screen can never be scanned whole from it.
  if (smallest.rows > io.height() - 1) {
    const why = options.charset === 'ascii' ? `: ${asciiReason(options.locale)}` : '';
    io.warn(`the QR code needs ${smallest.rows} lines and the terminal has ${io.height()}${why}; ${advice}`);
    return '';
  }
  const rows = io.height() - after - 1; // and a spare line: the line a shell leaves before its prompt, a status line
  return (wide.find((c) => c.rows <= rows) ?? smallest).draw();
}
