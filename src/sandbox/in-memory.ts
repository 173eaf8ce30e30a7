// gw's own requests to the sandbox it embeds (`--sandbox`), served without a socket. The transport
// hands each request to this exchanger (the interface its own connections implement,
// src/gateway/http1.ts), and it answers through the sandbox's request handling (serve.ts), the
// same code that answers on the sandbox's port.
//
// Everything above the exchange is the transport's usual path: the deadline, the retries, the
// size cap, the decoding and --verbose. What it leaves out is what a process talking to itself does
// not need: a TCP connection to its own port and HTTP parsing at both ends, about 13 ms of a
// `gw pay --sandbox` run (docs/performance.md). The sandbox still listens on its port, for
// everything else: the QRCode links it hands out, and any other client.
import { Readable } from 'node:stream';
import type { AnswerHead, Exchanger, OutgoingRequest } from '../gateway/http1.js';
import { BODY_LIMIT, type EncodedReply, type IncomingRequest } from './serve.js';

/** Answers one request: its reply as bytes, or 'aborted' when the request went away first. */
export type Answer = (request: IncomingRequest) => Promise<EncodedReply | 'aborted'>;

export class InMemoryDispatcher implements Exchanger {
  constructor(private readonly answer: Answer) {}

  /** The answer arrives after this returns, as from a socket; an abort before it rejects with the signal's reason. */
  exchange(request: OutgoingRequest, signal: AbortSignal): Promise<AnswerHead> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => settle(() => reject(signal.reason as Error));
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        outcome();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const body = bodyBytes(request.body);
      const headers = headerRecord(request.headers);
      if (body.length > 0) headers['content-length'] = String(body.length);
      let read = false;
      const incoming: IncomingRequest = {
        method: request.method,
        target: request.path,
        headers,
        body: async () => {
          if (read) return 'aborted';
          read = true;
          return body.length > BODY_LIMIT ? 'too-large' : body;
        },
      };
      this.answer(incoming).then(
        (reply) =>
          settle(() => {
            if (reply === 'aborted') return reject(new Error('the request was aborted'));
            const answerHeaders: Record<string, string> = Object.create(null) as Record<string, string>;
            for (const [name, value] of Object.entries(reply.headers)) answerHeaders[name.toLowerCase()] = value;
            const stream = new Readable({ read: () => undefined });
            if (reply.body.length > 0) stream.push(reply.body);
            stream.push(null);
            resolve({ statusCode: reply.status, headers: answerHeaders, body: stream });
          }),
        (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
  }
}

/** The request body as bytes: gw's transport sends a string, bytes or nothing. */
function bodyBytes(body: OutgoingRequest['body']): Buffer {
  if (body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** Header names in lower case and repeated values joined by ", ", as node:http hands them to a server. */
function headerRecord(headers: OutgoingRequest['headers']): IncomingRequest['headers'] {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const joined = (Array.isArray(value) ? value : [value]).map(String).join(', ');
    const existing = record[key];
    record[key] = existing === undefined ? joined : `${existing}, ${joined}`;
  };
  for (const [name, value] of Object.entries(headers)) add(name, value);
  return record;
}
