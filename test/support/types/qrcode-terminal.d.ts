// Types for the QR model qrcode-terminal vendors (Kazuhiko Arase's generator), which the QR tests
// use as an independent encoder to check gw's against. Only what the tests use is declared.
declare module 'qrcode-terminal/vendor/QRCode/index.js' {
  class QRCode {
    /** typeNumber is the QR version 1..40, or -1 to let the model choose. */
    constructor(typeNumber: number, errorCorrectLevel: 0 | 1 | 2 | 3);
    typeNumber: number;
    modules: (boolean | null)[][] | null;
    addData(data: string): void;
    make(): void;
  }
  export = QRCode;
}

declare module 'qrcode-terminal/vendor/QRCode/QRErrorCorrectLevel.js' {
  const QRErrorCorrectLevel: { readonly L: 1; readonly M: 0; readonly Q: 3; readonly H: 2 };
  export = QRErrorCorrectLevel;
}

declare module 'qrcode-terminal' {
  const qrcodeTerminal: {
    generate(input: string, options: { small?: boolean }, callback: (output: string) => void): void;
  };
  export = qrcodeTerminal;
}
