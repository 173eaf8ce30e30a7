// Reading a request's body on gw's own servers (gw listen, the sandbox) without ever holding more
// than a set number of bytes.
import type { IncomingMessage } from 'node:http';

export interface BodyLimits {
  /** The most bytes kept: a larger body is 'too-large'. */
  limit: number;
  /**
   * Without it, a body over `limit` is refused as soon as it is known (the request is paused).
   * With it, a body up to this size is read to its end and then refused, so the client gets the
   * answer instead of a reset connection; a larger one is cut off ('aborted').
   */
  drainLimit?: number;
}

/** The body, or why there is none: 'too-large' (declared or streamed), 'aborted' (the client went away). */
export function readRequestBody(req: IncomingMessage, { limit, drainLimit }: BodyLimits): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > (drainLimit ?? limit)) {
      resolve('too-large');
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (value: Buffer | 'too-large' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total <= limit) chunks.push(chunk);
      else if (drainLimit === undefined) {
        req.pause();
        settle('too-large');
      } else if (total > drainLimit) {
        req.destroy();
        settle('aborted');
      }
    });
    req.on('end', () => settle(total > limit ? 'too-large' : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total)));
    req.on('error', () => settle('aborted'));
    req.on('close', () => settle('aborted'));
  });
}
