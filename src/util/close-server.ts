// Stopping an HTTP server of gw's own (the sandbox's, gw listen's) the same way: no new
// connections, idle ones closed now, requests in flight given a grace period to finish, then
// their connections cut.
import type { Server } from 'node:http';

/** Settles once the server has closed; requests still in flight after `graceMs` are cut off. */
export function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
