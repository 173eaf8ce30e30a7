// Reading an HTTP answer's body within a size limit: the transport's one reader.
import type { Readable } from 'node:stream';

/**
 * An answer's body, read through events (less to set up than an async iterator, for the one answer
 * most commands read); 'too-large' as soon as it passes maxBytes, with the stream destroyed (what
 * was kept then is in `read.kept`). With `keep`, only that many bytes are kept and the rest read
 * and dropped (`truncated`). Fails with the stream's error, or ERR_STREAM_PREMATURE_CLOSE if it
 * closes before its end.
 */
export function readBody(
  stream: Readable,
  maxBytes: number,
  read: { size: number; kept?: Buffer[] },
  keep = Number.POSITIVE_INFINITY,
): Promise<{ chunks: Buffer[]; truncated: boolean } | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    read.kept = chunks;
    let kept = 0;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
    };
    // A stream that failed before anyone listened (the parser refused the body in the same read
    // as the head) has nothing more to emit.
    if (stream.errored) return reject(stream.errored);
    if (stream.destroyed && !stream.readableEnded) return reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      read.size += chunk.length;
      if (read.size > maxBytes) {
        settle(() => resolve('too-large'));
        stream.destroy();
        return;
      }
      if (kept >= keep) return;
      const piece = kept + chunk.length > keep ? chunk.subarray(0, keep - kept) : chunk;
      chunks.push(piece);
      kept += piece.length;
    });
    stream.once('end', () => settle(() => resolve({ chunks, truncated: read.size > kept })));
    stream.once('error', (error) => settle(() => reject(error)));
    stream.once('close', () => settle(() => reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))));
  });
}
