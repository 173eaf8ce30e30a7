// gw pay --qr-out <file.svg|file.png>: the file is checked before the payment exists, and the
// payment's QR image, with its caption, is written there once it does.
import path from 'node:path';
import { ExitCode, GwError } from '../errors.js';
import type { Payment } from '../gateway/gateway.js';
import { parseTimestamp } from '../output/time.js';
import type { PaymentUri } from '../payment-uri/index.js';

/**
 * --qr-out is checked before the payment exists: its folder must exist and be writable (the image
 * is written beside it first, then renamed), and a file already there must be a regular file gw
 * may write.
 */
export async function checkQrOutWritable(file: string): Promise<void> {
  // Loaded here, not at start-up: only --qr-out needs them.
  const { constants } = await import('node:fs');
  const { access, stat } = await import('node:fs/promises');
  const target = path.resolve(file);
  try {
    const existing = await stat(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (existing !== undefined) {
      if (!existing.isFile()) throw Object.assign(new Error('not a regular file'), { code: existing.isDirectory() ? 'EISDIR' : 'ENOTFILE' });
      await access(target, constants.W_OK);
    }
    await access(path.dirname(target), constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new GwError(ExitCode.CANTCREAT, `--qr-out ${file} cannot be written (${code}); no payment was created`);
  }
}

/**
 * Writes the payment's QR image to `file`, captioned with what the payer needs beside the code:
 * amount, network, expiry, track id. Rejects with the file system's error; a file already there is
 * then unchanged.
 */
export async function writePaymentQr(payment: Payment, uri: PaymentUri, file: string, sandbox: boolean): Promise<void> {
  const { writeQrImage, qrCaption } = await import('../qr/index.js');
  const expires = parseTimestamp(payment.expiredAt);
  const caption = qrCaption({
    payAmount: String(payment.payAmount),
    payCurrency: String(payment.payCurrency ?? ''),
    network: uri.networkName,
    ...(expires !== undefined && { expires }),
    trackId: payment.trackId.toString(),
    sandbox,
  });
  await writeQrImage(uri.uri, file, { caption });
}
