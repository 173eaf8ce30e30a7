// gw's own requests to the sandbox it embeds (`--sandbox`), served without a socket. The transport
// hands each request to this dispatcher (undici's dispatcher interface, which undici's own
// MockAgent implements the same way), and it answers through the sandbox's request handling
// (serve.ts), the same code that answers on the sandbox's port.
//
// Everything above the dispatcher is the transport's usual path: the deadline, the retries, the
// size cap, the decoding and --verbose. What it leaves out is what a process talking to itself does
// not need: a TCP connection to its own port and HTTP parsing at both ends, about 13 ms of a
// `gw pay --sandbox` run (docs/performance.md). The sandbox still listens on its port, for
// everything else: the QRCode links it hands out, and any other client.
import type { Dispatcher } from 'undici';
import { BODY_LIMIT, type EncodedReply, type IncomingRequest } from './serve.js';

/** Answers one request: its reply as bytes, or 'aborted' when the request went away first. */
export type Answer = (request: IncomingRequest) => Promise<EncodedReply | 'aborted'>;

export class InMemoryDispatcher {
  constructor(private readonly answer: Answer) {}

  /** undici's Dispatcher.dispatch: the answer reaches the handler after this returns, as from a socket. */
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      handler.onError?.(error);
    };
    handler.onConnect?.((reason) => fail(reason instanceof Error ? reason : new Error('the request was aborted')));
    if (settled) return true;

    let body: Buffer;
    try {
      body = bodyBytes(options.body);
    } catch (error) {
      queueMicrotask(() => fail(error as Error));
      return true;
    }
    const headers = headerRecord(options.headers);
    if (body.length > 0) headers['content-length'] = String(body.length);
    let read = false;
    const request: IncomingRequest = {
      method: options.method,
      target: options.path,
      headers,
      body: async () => {
        if (read) return 'aborted';
        read = true;
        return body.length > BODY_LIMIT ? 'too-large' : body;
      },
    };
    this.answer(request).then(
      (reply) => {
        if (settled) return;
        if (reply === 'aborted') return fail(new Error('the request was aborted'));
        handler.onHeaders?.(
          reply.status,
          Object.entries(reply.headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]),
          () => undefined,
          '',
        );
        if (settled) return;
        settled = true;
        if (reply.body.length > 0) handler.onData?.(reply.body);
        handler.onComplete?.([]);
      },
      (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
    );
    return true;
  }
}

/** The request body as bytes: gw's transport sends a string or nothing. */
function bodyBytes(body: Dispatcher.DispatchOptions['body']): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('the in-memory sandbox takes a string or bytes as a request body');
}

/** Header names in lower case and repeated values joined by ", ", as node:http hands them to a server. */
function headerRecord(headers: Dispatcher.DispatchOptions['headers']): IncomingRequest['headers'] {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const joined = (Array.isArray(value) ? value : [value]).map(String).join(', ');
    const existing = record[key];
    record[key] = existing === undefined ? joined : `${existing}, ${joined}`;
  };
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), headers[i + 1]);
  } else if (headers !== undefined && headers !== null) {
    for (const [name, value] of Object.entries(headers as Record<string, unknown>)) add(name, value);
  }
  return record;
}
