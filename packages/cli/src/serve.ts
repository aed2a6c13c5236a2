import {
  answerClientErrors,
  closeGracefully,
  servingAdmin,
  servingChecks,
  type AdminServer,
  type ApiMetrics,
} from '@colapi/server-koa';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
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
  /**
   * The admin listener (GET /live, /ready, /metrics), apart from the API; none without it. Its host defaults
   * to the API's; `readyTimeout` (milliseconds, default 1000) bounds /ready's wait for the database.
   */
  readonly admin?: { readonly port?: number; readonly host?: string; readonly readyTimeout?: number };
  /**
   * This process is a worker of a `colapi serve --workers` cluster (runPrimary): with `admin`, it measures and
   * answers its checks and metrics to the primary, whose admin listener answers for every worker, and opens
   * no admin listener of its own.
   */
  readonly worker?: boolean;
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
  /** The admin listener, when asked for. */
  readonly admin?: AdminServer;
  /** Stops accepting connections, lets requests in flight finish (`graceMs` at most), closes the pools. */
  close(graceMs?: number): Promise<void>;
  /**
   * What SIGTERM does: /ready answers 503 at once, requests are served for `graceSeconds` more, so that load
   * balancers stop routing here, then close().
   */
  drain(graceSeconds: number): Promise<void>;
}

/** The URL a client uses for a server bound to `host` (a wildcard address means this machine). */
export function originOf(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** What each reading of the catalogue is made with: the configuration read again each time. */
function generationSettings(options: ServeOptions, metrics?: ApiMetrics): () => GenerationSettings {
  const { port: _port, host: _host, config = {}, admin: _admin, worker: _worker, ...rest } = options;
  return () => ({
    ...rest,
    format: rest.format ?? 'jsonapi',
    config: typeof config === 'function' ? config() : config,
    ...(metrics ? { api: { ...rest.api, metrics } } : {}),
  });
}

/**
 * Reads the catalogue once as serveCatalogue would, without serving it: what a `--workers` primary checks
 * and tells before it forks. Retire the generation once told.
 */
export function readCatalogueOnce(options: ServeOptions): Promise<Generation> {
  return openGeneration(generationSettings(options)());
}

/** Serves every table of a database as collections: `colapi serve` in-process. */
export async function serveCatalogue(options: ServeOptions): Promise<CatalogueServer> {
  const { port = 0, host = '127.0.0.1', admin: adminOptions, worker = false } = options;
  let current: Generation | undefined;
  // Measured only with an admin listener to read the figures: without it, nothing on the request's path.
  const checks = adminOptions ? servingChecks(() => current?.database, adminOptions.readyTimeout) : undefined;
  const metrics = checks?.metrics;
  const settings = generationSettings(options, metrics);
  // Listening first: while the catalogue is read, /live answers and /ready says it is not loaded yet.
  const admin =
    adminOptions && !worker
      ? await servingAdmin({
          port: adminOptions.port ?? 0,
          host: adminOptions.host ?? host,
          workers: 1,
          checks: checks!,
        })
      : undefined;
  const open = async () => {
    const g = await openGeneration(settings());
    metrics?.observe(g.database);
    return g;
  };
  try {
    current = await open();
  } catch (error) {
    await admin?.close();
    throw error;
  }
  const retiring = new Set<Promise<void>>();
  const retire = (g: Generation) => {
    const done = g
      .retire()
      .finally(() => metrics?.forget(g.database))
      .finally(() => retiring.delete(done));
    retiring.add(done);
  };
  // Each request takes the generation current when it arrives; a reload swaps it for the requests after.
  const server = answerClientErrors(createServer((req, res) => current!.handle(req, res)));
  server.listen(port, host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  } catch (error) {
    await current.retire();
    await admin?.close();
    throw error;
  }
  let reloads: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;
  const served: CatalogueServer = {
    server,
    origin: originOf(host, (server.address() as AddressInfo).port),
    ...(admin ? { admin } : {}),
    current: () => current!,
    reload() {
      // One reload at a time, in the order asked: the last signal's reading is the one served.
      const next = reloads.then(async () => {
        const fresh = await open();
        const old = current!;
        current = fresh;
        retire(old);
        return fresh;
      });
      next.then(
        () => metrics?.reloaded(true),
        () => metrics?.reloaded(false),
      );
      reloads = next.catch(() => undefined);
      return next;
    },
    close(graceMs = 10_000) {
      stopping ??= (async () => {
        checks?.drain();
        admin?.drain();
        await closeGracefully(server, graceMs);
        await reloads;
        retire(current!);
        await Promise.all(retiring);
        await admin?.close();
      })();
      return stopping;
    },
    async drain(graceSeconds) {
      checks?.drain();
      admin?.drain();
      await sleep(graceSeconds * 1000);
      await served.close();
    },
  };
  return served;
}
