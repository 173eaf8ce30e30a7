// A QR code drawn for this terminal (the one renderer, src/qr), or '' with one warning when the
// terminal is too narrow for it: a cut code would not scan. `advice` says what to do instead.
import type { IOStreams } from '../output/iostreams.js';

export async function terminalQr(io: IOStreams, text: string, advice: string): Promise<string> {
  const { renderTerminalQr, qrWidth } = await import('../qr/index.js');
  const width = qrWidth(text, io.qrRenderOptions());
  const columns = io.width();
  if (io.stdoutIsTTY && width > columns) {
    io.warn(`the QR code needs ${width} columns and the terminal has ${columns}: ${advice}`);
    return '';
  }
  return renderTerminalQr(text, io.qrRenderOptions());
}
