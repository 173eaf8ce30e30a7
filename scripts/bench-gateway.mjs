// The benchmarks' separate local gateway: a small node:http server on 127.0.0.1 answering each
// legacy endpoint the measured commands call with the gateway's published answer
// (test/fixtures/gateway/legacy/*.json), the same bytes every time. Not gw's sandbox: nothing of gw
// runs in it, so gw and the floor talk to the same cheap, constant server.
//
// Run by scripts/bench-lib.mjs as a child: prints {"url": …} on its first line, then serves until
// its stdin closes (the bench ended, however it ended), 15 minutes pass, or it has answered
// 200,000 requests. Counts what it answered by path; an unexpected path gets 404 and is counted,
// so the bench can say a command asked for something it does not serve.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'gateway', 'legacy');
const answer = (name) => Buffer.from(JSON.stringify(JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')).answer));

/** POST path → the answer's bytes. */
export const ROUTES = {
  '/exchange/rate': answer('rate'),
  '/merchants/inquiry': answer('payment-info'),
  '/merchants/list': answer('payment-history'),
  '/merchants/request/whitelabel': answer('create-payment'),
};

const MAX_REQUESTS = 200_000;
const MAX_MS = 15 * 60_000;
const counts = {};
let answered = 0;

const server = http.createServer((req, res) => {
  // The body is read (as a real gateway would) before the answer goes out.
  req.resume();
  req.on('end', () => {
    const body = req.method === 'POST' ? ROUTES[req.url] : undefined;
    const key = body ? req.url : `unexpected ${req.method} ${req.url}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (++answered >= MAX_REQUESTS) setImmediate(stop);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"result":404,"message":"not served by the bench gateway"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
});
server.keepAliveTimeout = 1000;

function stop() {
  server.close();
  server.closeAllConnections();
  process.exit(0);
}

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.stdin.on('data', (chunk) => {
  if (String(chunk).includes('counts')) process.stdout.write(`${JSON.stringify(counts)}\n`);
});
process.stdin.on('end', stop);
process.stdin.on('close', stop);
setTimeout(stop, MAX_MS).unref();
