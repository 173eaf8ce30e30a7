// Types for the one module of the `qrcode` package gw loads: its encoder core (CommonJS), without
// the renderers and their dependencies that the package's index pulls in.
declare module 'qrcode/lib/core/qrcode.js' {
  interface BitMatrix {
    /** Modules per side. */
    size: number;
    /** Row-major, 1 = dark. */
    data: Uint8Array;
  }
  interface QRCodeSymbol {
    modules: BitMatrix;
    version: number;
  }
  const QRCode: {
    create(text: string, options: { errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H'; version?: number }): QRCodeSymbol;
  };
  export default QRCode;
}
