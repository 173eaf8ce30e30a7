// Types for the QR model that qrcode-terminal vendors (Kazuhiko Arase's generator, CommonJS).
// Only what src/qr uses is declared. The package has no "exports" map, so these deep paths resolve.

declare module 'qrcode-terminal/vendor/QRCode/index.js' {
  /** Error correction level codes as the QR format information encodes them (L 1, M 0, Q 3, H 2). */
  type ErrorCorrectLevelCode = 0 | 1 | 2 | 3;

  class QRCode {
    /** typeNumber is the QR version 1..40, or -1 to let the model choose (see src/qr/matrix.ts: we never do). */
    constructor(typeNumber: number, errorCorrectLevel: ErrorCorrectLevelCode);
    typeNumber: number;
    /** Row-major, true = dark; null only before make(). */
    modules: (boolean | null)[][] | null;
    /** Appends an 8-bit byte segment; every UTF-16 code unit is written as one byte (ASCII only!). */
    addData(data: string): void;
    make(): void;
    getModuleCount(): number;
    isDark(row: number, col: number): boolean;
  }
  export = QRCode;
}

declare module 'qrcode-terminal/vendor/QRCode/QRErrorCorrectLevel.js' {
  const QRErrorCorrectLevel: { readonly L: 1; readonly M: 0; readonly Q: 3; readonly H: 2 };
  export = QRErrorCorrectLevel;
}

declare module 'qrcode-terminal/vendor/QRCode/QRRSBlock.js' {
  interface QRRSBlock {
    /** Codewords in this block, data plus error correction. */
    totalCount: number;
    dataCount: number;
  }
  const QRRSBlock: {
    getRSBlocks(typeNumber: number, errorCorrectLevel: 0 | 1 | 2 | 3): QRRSBlock[];
  };
  export = QRRSBlock;
}
