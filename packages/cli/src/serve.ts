import { answerClientErrors, closeGracefully } from '@colapi/server-koa';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openGeneration, type Generation, type GenerationSettings } from './generation.js';
import type { ColapiConfig } from './validate-config.js';

export interface ServeOptions extends Omit<GenerationSettings, 'config' | 'format'> {
  /** Default `jsonapi`. */
  readonly format?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * The configuration, or a function that reads it: called again on every reload (the CLI rereads its
   * file). With `auth` and `roles`, the API is under access control (createApi's `access`).
   */
  readonly config?: ColapiConfig | (() => ColapiConfig);
}

export interface CatalogueServer {
  readonly server: Server;
  /** e.g. http://127.0.0.1:8080 */
  readonly origin: string;
  /** What new requests are served with. */
  current(): Generation;
  /**
   * Reads the configuration and the catalogue again and serves new requests with them; requests in flight
   * finish on the schema they began with. On failure it throws and the current schema stays served.
   */
  reload(): Promise<Generation>;
  /** Stops accepting connections, lets requests in flight finish (`graceMs` at most), closes the pools. */
  close(graceMs?: number): Promise<void>;
}

/** The URL a client uses for a server bound to `host` (a wildcard address means this machine). */
export function originOf(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** Serves every table of a database as collections: `colapi serve` in-process. */
export async function serveCatalogue(options: ServeOptions): Promise<CatalogueServer> {
  const { port = 0, host = '127.0.0.1', config = {}, ...rest } = options;
  const settings = (): GenerationSettings => ({
    ...rest,
    format: rest.format ?? 'jsonapi',
    config: typeof config === 'function' ? config() : config,
  });
  let current = await openGeneration(settings());
  const retiring = new Set<Promise<void>>();
  const retire = (g: Generation) => {
    const done = g.retire().finally(() => retiring.delete(done));
    retiring.add(done);
  };
  // Each request takes the generation current when it arrives; a reload swaps it for the requests after.
  const server = answerClientErrors(createServer((req, res) => current.handle(req, res)));
  server.listen(port, host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  } catch (error) {
    await current.retire();
    throw error;
  }
  let reloads: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;
  return {
    server,
    origin: originOf(host, (server.address() as AddressInfo).port),
    current: () => current,
    reload() {
      // One reload at a time, in the order asked: the last signal's reading is the one served.
      const next = reloads.then(async () => {
        const fresh = await openGeneration(settings());
        const old = current;
        current = fresh;
        retire(old);
        return fresh;
      });
      reloads = next.catch(() => undefined);
      return next;
    },
    close(graceMs = 10_000) {
      stopping ??= (async () => {
        await closeGracefully(server, graceMs);
        await reloads;
        retire(current);
        await Promise.all(retiring);
      })();
      return stopping;
    },
  };
}
