import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on 127.0.0.1 (random port) that answers JSON and counts the requests it receives. */
export interface CountingServer {
  readonly url: string;
  /** Requests received so far. */
  readonly requests: number;
  /** What the next requests are answered with (JSON), and with which status. */
  body: unknown;
  status: number;
  close(): Promise<void>;
}

/** Starts a {@link CountingServer}; `delayMs` holds each answer back, so concurrent requests overlap. */
export async function startCountingServer(body: unknown, delayMs = 0): Promise<CountingServer> {
  let requests = 0;
  const state = { body, status: 200 };
  const server = createServer((_request, response) => {
    requests++;
    setTimeout(() => {
      response.writeHead(state.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(state.body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    get requests() {
      return requests;
    },
    get body() {
      return state.body;
    },
    set body(value) {
      state.body = value;
    },
    get status() {
      return state.status;
    },
    set status(value) {
      state.status = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
