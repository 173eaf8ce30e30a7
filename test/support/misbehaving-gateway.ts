// A programmable, misbehaving stand-in for the gateway: a real node:http server on 127.0.0.1:0
// whose answer to each request is a "behaviour" taken from a queue (or computed by a function):
// JSON, raw bytes, an HTML 502 page, a truncated body, silence, an endless body, 429/Retry-After,
// a connection reset… Every request is recorded (method, path, headers, raw body text, arrival
// time) together with what happened to its response (bytes written, whether the client hung up),
// so tests can assert exactly what gw sent and how many requests arrived.
//
// close() and reset() destroy every socket (including ones held open on purpose) and resolve fast.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export type Behaviour =
  /** JSON body (a string is sent as is, anything else through JSON.stringify). */
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown }
  /** Arbitrary body bytes with the given status and headers (Content-Length is set). */
  | { kind: 'raw'; status?: number; headers?: Record<string, string>; body: string | Buffer }
  /** Bytes written straight to the socket (status line and headers included; a string is taken as latin1), then end. */
  | { kind: 'socket'; bytes: string | Buffer }
  /** Declares `declared` bytes in Content-Length, sends `body` (fewer bytes), then destroys the socket. */
  | { kind: 'truncated'; status?: number; body: string; declared: number; contentType?: string }
  /** Reads the request and never answers; the socket stays open until the client or close() ends it. */
  | { kind: 'hang' }
  /** Sends status and headers, then never sends the body. */
  | { kind: 'hang-body'; status?: number; contentType?: string }
  /** Sends one byte of body every `intervalMs`, forever (until the client hangs up). */
  | { kind: 'drip'; intervalMs: number; status?: number }
  /**
   * Streams `totalBytes` (default 200 MB) of JSON-looking filler in `chunkBytes` chunks, honouring
   * back-pressure and stopping as soon as the client disconnects; never allocates more than a chunk.
   */
  | { kind: 'huge'; totalBytes?: number; chunkBytes?: number; status?: number; declareLength?: boolean }
  /** TCP reset (RST) as soon as the request has been read. */
  | { kind: 'reset' }
  /** Waits, then behaves as `then`. */
  | { kind: 'delay'; ms: number; then: Behaviour };

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Behaviour => ({ kind: 'json', status, headers, body });
export const raw = (body: string | Buffer, status = 200, headers: Record<string, string> = {}): Behaviour => ({ kind: 'raw', status, headers, body });
export const rawSocket = (bytes: string | Buffer): Behaviour => ({ kind: 'socket', bytes });
export const html502 = (): Behaviour => ({
  kind: 'raw',
  status: 502,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
});
/** A valid JSON start, cut: Content-Length promises more than is sent, then the socket dies. */
export const truncated = (body = '{"result":100,"message":"OK","data":{"BTC":"0.00', declared = 4096): Behaviour => ({
  kind: 'truncated',
  status: 200,
  body,
  declared,
  contentType: 'application/json',
});
export const hang = (): Behaviour => ({ kind: 'hang' });
export const hangBody = (): Behaviour => ({ kind: 'hang-body', status: 200, contentType: 'application/json' });
export const drip = (intervalMs = 100): Behaviour => ({ kind: 'drip', intervalMs, status: 200 });
export const huge = (totalBytes = 200 * 1024 * 1024, options: { declareLength?: boolean; chunkBytes?: number } = {}): Behaviour => ({
  kind: 'huge',
  totalBytes,
  ...options,
});
export const tooMany = (retryAfter?: string): Behaviour => ({
  kind: 'json',
  status: 429,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { result: 124, message: 'Too many requests' },
});
export const unavailable = (): Behaviour => ({
  kind: 'raw',
  status: 503,
  headers: { 'content-type': 'text/plain' },
  body: 'Service Temporarily Unavailable',
});
export const reset = (): Behaviour => ({ kind: 'reset' });

/** Fake keys the end-to-end suites give gw, distinctive enough to grep for in its output. */
export const TEST_MERCHANT_KEY = 'mk_live_SECRET_9f8e7d6c5b4a';
export const TEST_PAYOUT_KEY = 'pk_live_SECRET_1a2b3c4d5e6f';
/** A valid Tron address (base58check), so a payment answer passes gw's address check. */
export const TRON_ADDRESS = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';

/** A successful white-label payment answer (USDT on Tron); `extra` overrides any field. */
export const paymentAnswer = (extra: Record<string, unknown> = {}): Behaviour =>
  json({
    result: 100,
    message: 'OK',
    trackId: 'trk-42',
    amount: 25,
    currency: 'USD',
    payAmount: 25,
    payCurrency: 'USDT',
    network: 'Tron Network',
    address: TRON_ADDRESS,
    rate: 1,
    lifeTime: 60,
    expiredAt: Math.floor(Date.now() / 1000) + 3600,
    createdAt: Math.floor(Date.now() / 1000),
    QRCode: '',
    ...extra,
  });
export const delay = (ms: number, then: Behaviour): Behaviour => ({ kind: 'delay', ms, then });

export interface RecordedResponse {
  /** Body bytes accepted by the socket (after back-pressure), not counting headers. */
  bodyBytesWritten: number;
  /** The client closed the connection before the response was complete. */
  clientClosed: boolean;
  /** The response was sent completely. */
  finished: boolean;
}

export interface RecordedRequest {
  index: number;
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw request body, decoded as UTF-8. */
  body: string;
  /** Date.now() when the request head arrived. */
  at: number;
  response: RecordedResponse;
}

export type Program = Behaviour[] | ((request: RecordedRequest) => Behaviour);

export interface MisbehavingGateway {
  readonly url: string;
  readonly port: number;
  /** Every request received since the last reset(), in order. */
  readonly requests: readonly RecordedRequest[];
  /** TCP connections accepted since the last reset() (with TLS: each is one handshake attempt). */
  readonly connections: number;
  /** With TLS: handshakes that failed since the last reset(), by the server's error code. */
  readonly tlsErrors: readonly string[];
  /**
   * Sets what the next requests get. With a list, request n gets item n; once the list is used
   * up the last item repeats. With a function, it is called for every request.
   */
  program(program: Program): void;
  /** Clears the log and the program (unprogrammed requests get a JSON 500) and destroys open sockets. */
  reset(): void;
  /** Resolves once at least `count` requests have arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Destroys every socket and stops listening. */
  close(): Promise<void>;
}

const UNPROGRAMMED: Behaviour = { kind: 'json', status: 500, body: { result: 500, message: 'misbehaving gateway: no behaviour programmed' } };

function filler(size: number): Buffer {
  // Looks like the start of a JSON string that never ends: valid UTF-8, no control bytes.
  return Buffer.alloc(size, 'a');
}

export interface GatewayOptions {
  /** Serve https:// with this key and certificate (PEM) instead of http://. */
  tls?: { key: string; cert: string };
}

export async function startMisbehavingGateway(initial: Program = [], options: GatewayOptions = {}): Promise<MisbehavingGateway> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests: RecordedRequest[] = [];
  let connections = 0;
  let tlsErrors: string[] = [];
  let program: Program = initial;
  let waiters: Array<() => void> = [];

  const pick = (record: RecordedRequest): Behaviour => {
    if (typeof program === 'function') return program(record);
    if (program.length === 0) return UNPROGRAMMED;
    return program[Math.min(record.index, program.length - 1)] ?? UNPROGRAMMED;
  };

  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const behave = (behaviour: Behaviour, req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void => {
    const socket = req.socket;
    const rec = record.response;
    const alive = (): boolean => !res.destroyed && !socket.destroyed && !rec.clientClosed;
    switch (behaviour.kind) {
      case 'json':
      case 'raw': {
        const body =
          behaviour.kind === 'raw'
            ? Buffer.from(behaviour.body)
            : Buffer.from(typeof behaviour.body === 'string' ? behaviour.body : JSON.stringify(behaviour.body));
        const headers: Record<string, string> = {
          ...(behaviour.kind === 'json' && { 'content-type': 'application/json' }),
          ...behaviour.headers,
          'content-length': String(body.length),
        };
        res.writeHead(behaviour.status ?? 200, headers);
        res.end(body, () => {
          rec.bodyBytesWritten = body.length;
          rec.finished = true;
        });
        return;
      }
      case 'socket': {
        const bytes = typeof behaviour.bytes === 'string' ? Buffer.from(behaviour.bytes, 'latin1') : behaviour.bytes;
        socket.end(bytes, () => {
          rec.bodyBytesWritten = bytes.length;
          rec.finished = true;
        });
        return;
      }
      case 'truncated': {
        const body = Buffer.from(behaviour.body);
        res.writeHead(behaviour.status ?? 200, {
          'content-type': behaviour.contentType ?? 'application/json',
          'content-length': String(Math.max(behaviour.declared, body.length + 1)),
        });
        res.write(body, () => {
          rec.bodyBytesWritten = body.length;
          later(20, () => socket.destroy());
        });
        return;
      }
      case 'hang':
        return;
      case 'hang-body':
        res.writeHead(behaviour.status ?? 200, { 'content-type': behaviour.contentType ?? 'application/json' });
        res.flushHeaders();
        return;
      case 'drip': {
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json' });
        res.write('{');
        rec.bodyBytesWritten = 1;
        const tick = (): void => {
          if (!alive()) return;
          res.write(' ');
          rec.bodyBytesWritten += 1;
          later(behaviour.intervalMs, tick);
        };
        later(behaviour.intervalMs, tick);
        return;
      }
      case 'huge': {
        const total = behaviour.totalBytes ?? 200 * 1024 * 1024;
        const chunkSize = behaviour.chunkBytes ?? 64 * 1024;
        res.writeHead(behaviour.status ?? 200, {
          'content-type': 'application/json',
          ...(behaviour.declareLength === true && { 'content-length': String(total) }),
        });
        const first = Buffer.from('{"result":100,"message":"');
        const chunk = filler(chunkSize);
        let sent = 0;
        const pump = (): void => {
          while (alive() && sent < total) {
            const piece = sent === 0 ? first : sent + chunk.length > total ? chunk.subarray(0, total - sent) : chunk;
            sent += piece.length;
            const ok = res.write(piece);
            rec.bodyBytesWritten = sent;
            if (!ok) {
              res.once('drain', pump);
              return;
            }
          }
          if (alive() && sent >= total) res.end(() => (rec.finished = true));
        };
        pump();
        return;
      }
      case 'reset':
        socket.resetAndDestroy();
        return;
      case 'delay':
        later(behaviour.ms, () => {
          if (alive()) behave(behaviour.then, req, res, record);
        });
        return;
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    const at = Date.now();
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const record: RecordedRequest = {
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
        response: { bodyBytesWritten: 0, clientClosed: false, finished: false },
      };
      requests.push(record);
      res.on('close', () => {
        if (!record.response.finished) record.response.clientClosed = true;
      });
      for (const wake of waiters) wake();
      let behaviour: Behaviour;
      try {
        behaviour = pick(record);
      } catch {
        behaviour = UNPROGRAMMED;
      }
      behave(behaviour, req, res, record);
    });
  };
  const server: Server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : createServer(onRequest);
  server.keepAliveTimeout = 500;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset from the client must not crash the test process.
    socket.on('error', () => undefined);
  });
  server.on('tlsClientError', (error: NodeJS.ErrnoException) => void tlsErrors.push(error.code ?? error.message));
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const destroyAll = (): void => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    get requests() {
      return requests;
    },
    get connections() {
      return connections;
    },
    get tlsErrors() {
      return tlsErrors;
    },
    program(next: Program): void {
      program = next;
    },
    reset(): void {
      destroyAll();
      requests = [];
      program = [];
      connections = 0;
      tlsErrors = [];
    },
    async waitForRequests(count: number, timeoutMs = 5000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} request(s), got ${requests.length}`);
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            clearTimeout(t);
            resolve();
          };
          const t = setTimeout(() => {
            waiters = waiters.filter((w) => w !== wake);
            resolve();
          }, 50);
          waiters.push(wake);
        });
        waiters = [];
      }
    },
    async close(): Promise<void> {
      destroyAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 with nothing listening (bound once on port 0, then closed). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
