// The sandbox's HTTP server (node:http): reads each request's body within bounds and sends the
// reply that serve.ts makes. Statuses and envelopes are serve.ts's; this file only carries them.
// The same sandbox also answers in memory (in-memory.ts), for the gw process that embeds it.
//
// `listen: false` (a `--sandbox` run that ends as soon as its output is written, docs/sandbox.md)
// makes no server at all: nothing could reach its port before the process ends, and listening is
// what loads Node's cluster, child_process, dgram and dns modules (node:http, server included, is
// loaded by gw's own client either way). Its
// answers then carry no link into it (envelopes.ts sandboxLink), and its URL names no machine.

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../errors.js';
import { closeServer } from '../util/close-server.js';
import { readRequestBody } from '../util/request-body.js';
import type { GatewayReply } from './envelopes.js';
import { SandboxGateway } from './gateway.js';
import { InMemoryDispatcher } from './in-memory.js';
import { JournalError, SandboxJournal } from './journal.js';
import { attachNotifications, NotificationDelivery } from './notify.js';
import { sandboxServes, type Route } from './routes.js';
import { BODY_LIMIT, encodeReply, internalErrorReply, sandboxRoutes, serve } from './serve.js';
import { SANDBOX_GENERAL_KEY, SANDBOX_MERCHANT_KEY, SANDBOX_PAYOUT_KEY, type RunningSandbox, type SandboxOptions } from './options.js';

/** Past this many bytes the sandbox stops draining an oversized body and drops the connection. */
const DRAIN_LIMIT = 16 * 1024 * 1024;
/** How long close() lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 250;
/**
 * The URL of a sandbox that does not listen: its requests are this process's own, answered in
 * memory. `.invalid` is reserved (RFC 6761): no name lookup answers it, so nothing is ever sent there.
 */
export const IN_MEMORY_URL = 'http://in-memory.sandbox.invalid';

export async function startSandboxServer(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const merchantKey = options.merchantKey ?? SANDBOX_MERCHANT_KEY;
  const payoutKey = options.payoutKey ?? SANDBOX_PAYOUT_KEY;
  const generalKey = options.generalKey ?? SANDBOX_GENERAL_KEY;
  const routes = sandboxRoutes();
  const listens = options.listen !== false;
  let url = '';
  const gateway = new SandboxGateway({
    merchantKey,
    payoutKey,
    generalKey,
    now: options.now ?? Date.now,
    baseUrl: () => (listens ? url : undefined),
    ...(options.settleSeconds !== undefined && { settleSeconds: options.settleSeconds }),
    ...(options.journal !== undefined && {
      journal: new SandboxJournal(options.journal, options.journalNotice === undefined ? {} : { onNotice: options.journalNotice }),
    }),
  });

  // Notifications: delivered on every payment change (the lifecycle emits them); the control
  // routes reach delivery and the lifecycle's setState through the gateway object.
  const delivery = new NotificationDelivery(merchantKey, options.notifications);
  delivery.listen(gateway.events);
  attachNotifications(gateway, { delivery, control: gateway, merchantKey });

  let server: Server | undefined;
  if (listens) {
    server = await listenOn(host, options.port ?? 0, options.tls, (req, res) => {
      handle(gateway, routes, req, res).catch((error: unknown) => internalError(req, res, error));
    });
    const address = server.address() as AddressInfo;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    url = `${options.tls === undefined ? 'http' : 'https'}://${urlHost}:${address.port}`;
  } else {
    url = IN_MEMORY_URL;
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    gateway.close();
    closing ??= Promise.all([
      // Deliveries on the wire get the same grace as requests in flight.
      delivery.close(CLOSE_GRACE_MS),
      server === undefined ? undefined : closeServer(server, CLOSE_GRACE_MS),
    ]).then(() => undefined);
    return closing;
  };

  // The same handling, in memory, for the gw process that embeds this sandbox (`--sandbox`).
  const dispatcher = new InMemoryDispatcher(async (request) => {
    // A journal gw cannot use fails the command with its own error (exit 78), not as a gateway failure.
    const reply = await serve(gateway, routes, request).catch((error: unknown) => {
      if (error instanceof JournalError) throw error;
      return internalErrorReply(request.target);
    });
    return reply === 'aborted' ? reply : encodeReply(reply);
  });

  return {
    url,
    ...(options.tls !== undefined && { caFile: options.tls.caFile }),
    merchantKey,
    payoutKey,
    generalKey,
    gateway,
    serves: sandboxServes,
    dispatcher,
    close,
  };
}

/** The server, listening (HTTPS with `tls`); node:http is loaded only here. */
async function listenOn(host: string, port: number, tls: SandboxOptions['tls'], listener: RequestListener): Promise<Server> {
  const server = tls === undefined ? (await import('node:http')).createServer(listener) : await httpsServer(tls.caFile, listener);
  // A malformed request line or headers: answer 400 when the socket still can, never throw.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // Errors after listening (e.g. EMFILE on accept) must not crash the process.
  server.on('error', () => {});
  return server;
}

/**
 * An HTTPS server with a certificate made now (tls.ts, loaded only here), its CA's PEM written to
 * `caFile` first (folder created 0700; the file replaced whole, 0644: a certificate is public).
 */
async function httpsServer(caFile: string, listener: RequestListener): Promise<Server> {
  const [{ makeSandboxCertificates }, https] = await Promise.all([import('./tls.js'), import('node:https')]);
  const certificates = makeSandboxCertificates();
  try {
    mkdirSync(path.dirname(caFile), { recursive: true, mode: 0o700 });
    const partial = `${caFile}.${process.pid}.tmp`;
    writeFileSync(partial, certificates.ca, { mode: 0o644 });
    renameSync(partial, caFile);
  } catch (error) {
    // Not a bind failure: said as what it is, before anything listens.
    throw new ConfigError(
      `cannot write the sandbox's CA certificate to ${caFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'choose another file with --tls-ca',
    );
  }
  // An https.Server is a net.Server as an http.Server is: listen, close and the connection calls are the same.
  return https.createServer({ key: certificates.key, cert: certificates.cert }, listener) as unknown as Server;
}

async function handle(gateway: SandboxGateway, routes: readonly Route[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const reply = await serve(gateway, routes, {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    headers: req.headers,
    body: () => readRequestBody(req, { limit: BODY_LIMIT, drainLimit: DRAIN_LIMIT }),
  });
  if (reply !== 'aborted') send(res, reply);
}

function send(res: ServerResponse, reply: GatewayReply): void {
  if (res.headersSent || res.destroyed) return;
  const { status, headers, body } = encodeReply(reply);
  res.writeHead(status, headers);
  res.end(body);
}

function internalError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  try {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    send(res, internalErrorReply(req.url ?? '/', error instanceof JournalError ? error.message : undefined));
  } catch {
    res.destroy();
  }
}
