// Payment QR codes: the module matrix, the terminal rendering and image export.
export { QUIET_ZONE, qrMatrix, qrSymbol, type QrLevel, type QrMatrix, type QrSymbol } from './matrix.js';
export { QR_THEMES, QrTooWideError, qrSize, qrWidth, renderTerminalQr, type QrCharset, type QrTheme, type TerminalQrOptions } from './terminal.js';
export { QR_IMAGE_EXTENSIONS, qrCaption, qrPng, qrSvg, writeQrImage, type PaymentCaption, type QrImageOptions } from './image.js';
