// Helpers for the notification tests: an independent signer (crypto.createHmac called here, not
// gw's module), a raw HTTP POST that shows exactly what a server answered, and a recording
// receiver on 127.0.0.1 standing in for a merchant's application.
import { createHmac } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { expect } from 'vitest';
import type { NotificationPayment } from '../../src/notifications/payload.js';

/** The signature a merchant's receiver computes: HMAC-SHA512 over the raw bytes, lower-case hex. */
export function hmacOf(key: string, body: string | Buffer): string {
  return createHmac('sha512', key).update(body).digest('hex');
}

export interface Answer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

/** POSTs exactly these bytes with these headers (Content-Length set unless given); any method. */
export function send(url: string, body: string | Buffer, headers: Record<string, string> = {}, method = 'POST', timeoutMs = 5000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const length = 'transfer-encoding' in headers ? {} : { 'content-length': String(bytes.length) };
    const req = request(url, { method, headers: { ...length, ...headers }, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(bytes);
  });
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** What the next requests get: status, body, and an optional delay (ms). */
  answer: { status: number; body: string; delayMs?: number };
  close(): Promise<void>;
}

/** A merchant's application on 127.0.0.1: records every request and answers as told (default 200 "ok"). */
export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: Receiver = {
    url: '',
    requests,
    answer: { status: 200, body: 'ok' },
    close: () => closeServer(server),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const { status, body, delayMs } = receiver.answer;
      const reply = (): void => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(body);
      };
      if (delayMs === undefined) reply();
      else setTimeout(reply, delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await closeServer(server);
  return port;
}

/** Waits (vitest's poll) until something accepts TCP connections on 127.0.0.1:`port`. */
export async function waitForPort(port: number): Promise<void> {
  await expect
    .poll(
      () =>
        new Promise<boolean>((resolve) => {
          const s = connect(port, '127.0.0.1');
          s.once('connect', () => {
            s.destroy();
            resolve(true);
          });
          s.once('error', () => resolve(false));
        }),
    )
    .toBe(true);
}

/** A paid ETH payment as a notification carries it: the unit tests' sample (override what a test is about). */
export const SAMPLE_PAYMENT: NotificationPayment = {
  trackId: 'sbx4k2m9q1z7a',
  status: 'paid',
  amount: '25.50',
  currency: 'USD',
  payAmount: '0.000390123456789012',
  payCurrency: 'ETH',
  network: 'Ethereum Network',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  receivedAmount: '0.000390123456789012',
  txID: 'ab'.repeat(32),
  description: 'Order "7" – café',
  email: 'payer@example.com',
  orderId: 'ORD-7',
  feePaidByPayer: 1,
  underPaidCover: '2.5',
  createdAt: 1_750_000_000,
  payDate: 1_750_000_300,
};
