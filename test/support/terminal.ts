// A small terminal for tests: it interprets what gw writes (text, CR/LF with the tty's onlcr, SGR,
// cursor up/down/home, erase in line and display) on a screen of a given size with scrollback,
// so a test asserts what a person would SEE after everything was drawn and redrawn, and can give
// the visible screen, colours included, to the QR decoder (like tmux capture-pane -e).
export interface Cell {
  ch: string;
  /** The SGR sequences in force when the cell was written (since the last reset). */
  pen: string;
}

const blank = (): Cell => ({ ch: ' ', pen: '' });

export class VirtualTerminal {
  readonly scrollback: string[] = [];
  private cells: Cell[][];
  private row = 0;
  private col = 0;
  private pendingWrap = false;
  private pen = '';

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    this.cells = Array.from({ length: rows }, () => Array.from({ length: columns }, blank));
  }

  write(text: string): this {
    const csi = /\u001b\[([0-9;?]*)([@-~])/y;
    let i = 0;
    while (i < text.length) {
      csi.lastIndex = i;
      const m = csi.exec(text);
      if (m !== null) {
        this.control(m[1] ?? '', m[2] ?? '');
        i = csi.lastIndex;
        continue;
      }
      const ch = String.fromCodePoint(text.codePointAt(i) ?? 32);
      i += ch.length;
      if (ch === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else if (ch === '\n') {
        this.col = 0;
        this.pendingWrap = false;
        this.lineFeed();
      } else if (ch === '\u001b') {
        // an escape this terminal does not know: skip the next character
        i++;
      } else {
        if (this.pendingWrap) {
          this.col = 0;
          this.pendingWrap = false;
          this.lineFeed();
        }
        const line = this.cells[this.row]!;
        line[this.col] = { ch, pen: this.pen };
        if (this.col === this.columns - 1) this.pendingWrap = true;
        else this.col++;
      }
    }
    return this;
  }

  private lineFeed(): void {
    if (this.row === this.rows - 1) {
      const top = this.cells.shift()!;
      this.scrollback.push(
        top
          .map((c) => c.ch)
          .join('')
          .trimEnd(),
      );
      this.cells.push(Array.from({ length: this.columns }, blank));
    } else {
      this.row++;
    }
  }

  private control(params: string, final: string): void {
    const n = Math.max(1, Number(params.split(';')[0] || '1'));
    switch (final) {
      case 'm':
        this.pen = params === '' || params === '0' ? '' : `${this.pen}\u001b[${params}m`;
        break;
      case 'A':
        this.row = Math.max(0, this.row - n);
        this.pendingWrap = false;
        break;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + n);
        this.pendingWrap = false;
        break;
      case 'H': {
        const [r = '1', c = '1'] = params.split(';');
        this.row = Math.min(this.rows - 1, Math.max(1, Number(r || '1')) - 1);
        this.col = Math.min(this.columns - 1, Math.max(1, Number(c || '1')) - 1);
        this.pendingWrap = false;
        break;
      }
      case 'J':
        if (params === '2' || params === '3') {
          for (const line of this.cells) line.fill(blank());
          if (params === '3') this.scrollback.length = 0;
        } else {
          this.eraseLine(this.row, this.col, this.columns);
          for (let r = this.row + 1; r < this.rows; r++) this.eraseLine(r, 0, this.columns);
        }
        break;
      case 'K':
        if (params === '2') this.eraseLine(this.row, 0, this.columns);
        else if (params === '1') this.eraseLine(this.row, 0, this.col + 1);
        else this.eraseLine(this.row, this.col, this.columns);
        break;
      default:
        break; // private modes and the rest: no effect on what is shown
    }
  }

  private eraseLine(row: number, from: number, to: number): void {
    const line = this.cells[row]!;
    for (let c = from; c < to; c++) line[c] = blank();
  }

  /** What the screen shows, one string per row, trailing spaces removed. */
  lines(): string[] {
    return this.cells.map((line) =>
      line
        .map((c) => c.ch)
        .join('')
        .trimEnd(),
    );
  }

  text(): string {
    return this.lines().join('\n');
  }

  /** The screen with its colours, as capture-pane -e gives it: for decodeTerminalQr. */
  ansi(): string {
    return this.cells
      .map((line) => {
        let out = '\u001b[0m';
        let pen = '';
        for (const cell of line) {
          if (cell.pen !== pen) {
            out += `\u001b[0m${cell.pen}`;
            pen = cell.pen;
          }
          out += cell.ch;
        }
        return `${out}\u001b[0m`;
      })
      .join('\n');
  }
}

/** The first `columns` cells of each line of ANSI text (escapes kept): the QR beside the text. */
export function leftColumns(text: string, columns: number): string {
  const csi = /\u001b\[[0-9;?]*[@-~]/y;
  return text
    .split('\n')
    .map((line) => {
      let out = '';
      let cells = 0;
      let i = 0;
      while (i < line.length && cells < columns) {
        csi.lastIndex = i;
        const m = csi.exec(line);
        if (m !== null) {
          out += m[0];
          i = csi.lastIndex;
          continue;
        }
        const ch = String.fromCodePoint(line.codePointAt(i) ?? 32);
        out += ch;
        i += ch.length;
        cells++;
      }
      return `${out}\u001b[0m`;
    })
    .join('\n');
}
