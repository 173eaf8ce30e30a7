// HTTP/1.1 exchanges for the transport, on Node's own client (node:http), over the connections
// gw's connector opens (connector.ts). One request at a time per connection, and one connection
// kept between requests where the gateway keeps it alive:
// - for as long as the gateway's Keep-Alive hint says, less a second for the request on its way
//   (Node's servers say 5 s), up to a minute; 10 s when it gives none (nginx, CDNs keep idle
//   connections longer); not at all when the hint is a second or less, or it says close;
// - a connection is never reused after a failure: every failure destroys it.
// node:http and not undici: node:http's parser is Node's own, native; undici's is WebAssembly,
// whose compile and first run cost every gw process about 6 ms and 4 MB at start-up
// (docs/performance.md, docs/libraries.md). What the transport needs from either is one exchange:
// a request written, the head of its answer, and its body as a stream.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { UNREQUESTED_UPGRADE } from './failures.js';

/** A request as it goes on the wire: the path (absolute through a forward proxy), headers (Host included), body. */
export interface OutgoingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | string | null;
}

/** The head of an answer, and its body still to be read. Header names in lower case. */
export interface AnswerHead {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/**
 * What the transport sends requests through: connections of its own (ConnectionPool), or the
 * embedded sandbox answering in memory (src/sandbox/in-memory.ts). The promise rejects with the
 * signal's reason, or the failure, and the body's stream fails as a socket's would.
 */
export interface Exchanger {
  exchange(request: OutgoingRequest, signal: AbortSignal): Promise<AnswerHead>;
}

/** Opens a connection ready for HTTP (TCP, proxy tunnel and TLS done), or fails. */
export type OpenConnection = (callback: (error: Error | null, socket?: Socket) => void) => void;

const noop = (): void => undefined;

/** The longest answer head read; a larger one is a protocol error (HPE_HEADER_OVERFLOW). */
export const MAX_HEADER_BYTES = 16 * 1024;

const DEFAULT_IDLE_MS = 10_000;
const MAX_IDLE_MS = 60_000;
const HINT_MARGIN_MS = 1000;

/** How long an idle connection may be kept after this answer: 0 for not at all. */
export function idleMsAfter(keepAliveHeader: string | string[] | undefined): number {
  const value = Array.isArray(keepAliveHeader) ? keepAliveHeader.join(', ') : keepAliveHeader;
  const hint = value === undefined ? undefined : /(?:^|[\s,;])timeout\s*=\s*"?(\d{1,9})/i.exec(value)?.[1];
  if (hint === undefined) return DEFAULT_IDLE_MS;
  return Math.max(0, Math.min(MAX_IDLE_MS, Number(hint) * 1000 - HINT_MARGIN_MS));
}

/** Node's agent with gw's connector and keep-alive rules: one connection to the one origin. */
class GatewayAgent extends http.Agent {
  /** Idle time allowed after each socket's last answer, set as the answer's head arrives. */
  readonly idleMs = new WeakMap<Socket, number>();

  constructor(private readonly open: OpenConnection) {
    super({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1, scheduling: 'lifo' });
  }

  // Node's agent waits for the callback when this returns nothing (an asynchronous connection).
  override createConnection(_options: http.ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): undefined {
    this.open((error, socket) => (error ? callback?.(error, undefined as unknown as Duplex) : callback?.(null, socket as Socket)));
    return undefined;
  }

  override keepSocketAlive(socket: Socket): boolean {
    const idle = this.idleMs.get(socket) ?? 0;
    if (idle <= 0) return false;
    socket.unref();
    // The agent destroys a free socket whose timeout fires (and clears it when it is reused).
    socket.setTimeout(idle);
    return true;
  }

  /**
   * Takes a connection being closed out of the free list at once: the agent drops it only when it
   * has closed, which may be much later (closeAfterThisTurn), and would meanwhile hand it to the
   * next request, written and then cut off (a connection whose idle time ended, or whose other
   * side the gateway closed: a payment "may have been created" for nothing).
   */
  forget(socket: Socket): void {
    for (const [name, free] of Object.entries(this.freeSockets)) {
      const at = free?.indexOf(socket) ?? -1;
      if (at === -1) continue;
      free?.splice(at, 1);
      if (free?.length === 0) delete (this.freeSockets as Record<string, Socket[]>)[name];
    }
  }

  override reuseSocket(socket: Socket, request: http.ClientRequest): void {
    super.reuseSocket(socket, request);
    socket.setTimeout(0);
  }
}

/** The transport's own connections: node:http over the connector, at most one open at a time. */
export class ConnectionPool implements Exchanger {
  private readonly agent: GatewayAgent;
  private readonly sockets = new Set<Socket>();
  /** Settles when the last request handed to exchange() has ended. */
  private turn: Promise<void> = Promise.resolve();

  constructor(open: OpenConnection) {
    this.agent = new GatewayAgent((callback) =>
      open((error, socket) => {
        if (error || socket === undefined) return callback(error ?? new Error('no connection'));
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        // The gateway closed its side: no request may be written on it, even before it has closed.
        socket.once('end', () => this.agent.forget(socket));
        closeAfterThisTurn(socket, () => this.agent.forget(socket));
        callback(null, socket);
      }),
    );
  }

  /** Whether a connection is open now (a request sent now may go out on it at once). */
  get connected(): boolean {
    return this.sockets.size > 0;
  }

  /**
   * Requests take turns: each starts when the one before it has ended (its answer read, or its
   * failure), so that they share one connection where the gateway keeps it alive. node:http's
   * agent counts a connection only once it is open, and would open one for each request sent
   * meanwhile (the till's look-ups: twenty connections and TLS handshakes at once). A request whose
   * signal fires while it waits fails with the signal's reason, unsent.
   */
  exchange(request: OutgoingRequest, signal: AbortSignal): Promise<AnswerHead> {
    const previous = this.turn;
    let done = noop;
    const ended = new Promise<void>((resolve) => (done = resolve));
    this.turn = previous.then(() => ended);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) return done();
        try {
          this.start(request, signal, done).then(resolve, reject);
        } catch (error) {
          done();
          reject(error);
        }
      });
    });
  }

  /** One request on the agent's connection; `done` once it has ended, however it ends. */
  private start(request: OutgoingRequest, signal: AbortSignal, done: () => void): Promise<AnswerHead> {
    return new Promise((resolve, reject) => {
      // Always framed by Content-Length: node:http would send a GET's body unframed.
      const headers = request.body === null ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
      const req = http.request({
        agent: this.agent,
        // The agent's connections all go to the one origin; host and port only name its pool.
        host: 'gateway',
        method: request.method,
        path: request.path,
        headers,
        setHost: false,
        maxHeaderSize: MAX_HEADER_BYTES,
        signal,
      });
      let answer: IncomingMessage | undefined;
      req.on('error', (error) => {
        // After the head: the body's stream fails with it (a malformed chunk is the parser's
        // error, not the connection closing that follows it).
        if (answer !== undefined && !answer.complete) answer.destroy(error);
        reject(error);
      });
      // A 101 answer switches the connection to another protocol, which no request of gw asks for
      // (RFC 9110 §15.2.2). Without a listener node:http closes the socket without an error and the
      // exchange would wait for the deadline: it fails at once, as an answer that is not HTTP/1.1.
      req.once('upgrade', (_res: IncomingMessage, socket: Duplex) => {
        socket.destroy();
        reject(
          Object.assign(new Error('unrequested 101 Switching Protocols'), {
            code: UNREQUESTED_UPGRADE,
            reason: 'a switch to another protocol (101) that gw did not ask for',
          }),
        );
      });
      // Any other way node:http may give up on a request without an error: it fails as a closed connection, never waits.
      req.once('close', () => {
        if (answer === undefined) reject(Object.assign(new Error('the connection closed before the answer'), { code: 'ECONNRESET' }));
        // After an answer read to its end, its connection is free (or closing) by now: the next request's turn.
        done();
      });
      req.once('response', (res) => {
        answer = res;
        const socket = res.socket;
        if (socket) this.agent.idleMs.set(socket, /\bclose\b/i.test(String(res.headers.connection ?? '')) ? 0 : idleMsAfter(res.headers['keep-alive']));
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      if (request.body === null) req.end();
      else req.end(request.body);
    });
  }

  /**
   * Lets the process exit as soon as the output is written: open connections stop holding it
   * (unref) and are destroyed on the next turn of the event loop, which a finished command does
   * not wait for (src/main.ts).
   */
  close(): void {
    for (const socket of this.sockets) {
      socket.unref();
      socket.destroy();
    }
    this.sockets.clear();
  }

  /** Drops every connection at once, after a failure: none is reused. */
  discard(): void {
    const sockets = [...this.sockets];
    this.sockets.clear();
    for (const socket of sockets) socket.destroy(new Error('discarded'));
  }
}

/**
 * A connection closed without an error (the gateway asked to close it, its idle time is over, or
 * gw is done) leaves the agent's free list at once (`closing`) and is destroyed on the next turn of
 * the event loop that runs (an unref'd immediate: when nothing else wakes the loop, not before the
 * next timer or I/O event, so it must not be handed out meanwhile). Destroying a socket
 * makes Node create process.stderr (net's _destroy compares the socket with it), about 2 ms when
 * stderr is a pipe, in the middle of a command that otherwise never creates it
 * (src/output/fd-stream.ts). A finished command does not wait for that turn: the process exits
 * and the system closes the socket. Every destroy with an error (a failure) happens at once.
 */
function closeAfterThisTurn(socket: Socket, closing: () => void): void {
  const destroy = socket.destroy;
  socket.destroy = function (this: Socket, error?: Error): Socket {
    if (error !== undefined || this.destroyed) return destroy.call(this, error);
    closing();
    this.unref();
    setImmediate(() => destroy.call(this)).unref();
    return this;
  };
}
