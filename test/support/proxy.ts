// A real HTTP proxy on 127.0.0.1 for the tests, as a node:http server: CONNECT opens a TCP
// tunnel (for https:// targets), and absolute-form requests ("GET http://host:port/path") are
// forwarded (for http:// targets), as corporate proxies do. It records what it saw, can require
// credentials (answering 407 otherwise), refuse every CONNECT with a status, or swallow CONNECT
// requests without answering. Targets are limited to loopback addresses: it never connects out.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxySighting {
  method: string;
  /** CONNECT: host:port; otherwise the absolute URL as received. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface ProxyBehaviour {
  /** "user:password" the proxy requires (Proxy-Authorization: Basic …); otherwise 407. */
  credentials?: string;
  /** Answer every CONNECT with this status instead of opening a tunnel. */
  refuseWith?: number;
  /** Read CONNECT requests and never answer them. */
  silent?: boolean;
}

export interface TestProxy {
  readonly url: string;
  readonly port: number;
  readonly seen: readonly ProxySighting[];
  /** Sets how the proxy behaves from now on (and forgets what it saw). */
  behave(behaviour: ProxyBehaviour): void;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function splitHostPort(target: string): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target);
  if (!m) return undefined;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

export async function startTestProxy(initial: ProxyBehaviour = {}): Promise<TestProxy> {
  let behaviour = initial;
  let seen: ProxySighting[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  const authorized = (headers: IncomingHttpHeaders): boolean =>
    behaviour.credentials === undefined || headers['proxy-authorization'] === `Basic ${Buffer.from(behaviour.credentials).toString('base64')}`;

  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    if (!authorized(req.headers)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"', 'content-type': 'text/plain' });
      res.end('proxy authentication required');
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) {
      res.writeHead(403).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || 80, method: req.method, path: `${url.pathname}${url.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    track(client);
    seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    if (behaviour.silent) return;
    if (!authorized(req.headers)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (behaviour.refuseWith !== undefined) {
      client.end(`HTTP/1.1 ${behaviour.refuseWith} Refused By Test Proxy\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const target = splitHostPort(req.url ?? '');
    if (!target || !LOOPBACK.has(target.host)) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  server.on('connection', track);
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get seen() {
      return seen;
    },
    behave(next: ProxyBehaviour) {
      behaviour = next;
      seen = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
