// Servers on 127.0.0.1 that stall a client before any HTTP happens:
// - startSilentServer(): accepts TCP connections and never sends a byte, so a TLS client's
//   handshake (or a proxy client's CONNECT) never completes;
// - startStalledListener(): a port whose TCP handshake itself never completes. A child Node
//   process listens with a backlog of 1 and then blocks its own event loop (Atomics.wait), so it
//   never accepts; a few idle connections fill the kernel's accept queue, after which the kernel
//   drops further SYNs and a client's connect() just waits. The child blocks for at most
//   `maxMs` and is killed by close() (and on the test process's exit).
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface SilentServer {
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Bytes received so far (a TLS ClientHello, a CONNECT request…). */
  readonly received: Buffer;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let received = Buffer.alloc(0);
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    get received() {
      return received;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface StalledListener {
  readonly port: number;
  close(): Promise<void>;
}

const CHILD = `
const net = require('node:net');
const server = net.createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n', () => {
    // Never return to the event loop: nothing is ever accepted.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[1]));
    process.exit(0);
  });
});
`;

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function connects(port: number, withinMs: number): Promise<{ socket: Socket; connected: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const timer = setTimeout(() => resolve({ socket, connected: false }), withinMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve({ socket, connected: true });
    });
  });
}

export async function startStalledListener(maxMs = 30_000): Promise<StalledListener> {
  const child = spawn(process.execPath, ['-e', CHILD, String(maxMs)], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.add(child);
  const fillers: Socket[] = [];
  const close = async (): Promise<void> => {
    for (const socket of fillers) socket.destroy();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    }
    children.delete(child);
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', () => reject(new Error('the stalled listener exited early')));
      child.stdout!.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    });
    // Fill the accept queue until a connection no longer completes (2 on Linux with backlog 1).
    for (let i = 0; i < 8; i++) {
      const { socket, connected } = await connects(port, 300);
      fillers.push(socket);
      if (!connected) return { port, close };
    }
    throw new Error('could not fill the accept queue of the stalled listener');
  } catch (error) {
    await close();
    throw error;
  }
}
