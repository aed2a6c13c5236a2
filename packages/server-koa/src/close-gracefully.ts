import type { Server } from 'node:http';

/**
 * Stops `server` from accepting connections and resolves once it is closed. Keep-alive connections would
 * hold close() open: each is closed as soon as its last request is answered (busy ones finish first), and
 * all of them once `graceMs` is over.
 */
export async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(timer);
}
