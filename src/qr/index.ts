// Payment QR codes: the module matrix, the terminal rendering and image export.
export { QUIET_ZONE, qrMatrix, qrSymbol, type QrLevel, type QrMatrix, type QrSymbol } from './matrix.js';
export {
  asciiReason,
  MIN_QUIET_ZONE,
  QR_THEMES,
  qrChoices,
  QrTooWideError,
  qrSize,
  qrWidth,
  renderTerminalQr,
  SCREEN_QR_LADDER,
  type QrCharset,
  type QrChoice,
  type QrRung,
  type QrTheme,
  type TerminalQrOptions,
} from './terminal.js';
export { QR_IMAGE_EXTENSIONS, qrCaption, qrPng, qrSvg, writeQrImage, type PaymentCaption, type QrImageOptions } from './image.js';
