// Payment QR codes: the module matrix, the terminal rendering and image export.
export { QUIET_ZONE, qrMatrix, qrSymbol, type QrLevel, type QrSymbol } from './matrix.js';
export { QrTooWideError, qrWidth, renderTerminalQr, type TerminalQrOptions } from './terminal.js';
export { QR_IMAGE_EXTENSIONS, qrPng, qrSvg, writeQrImage } from './image.js';
