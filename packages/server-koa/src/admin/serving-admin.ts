import cluster from 'node:cluster';
import { adminServer, type AdminServer } from './admin-server.js';
import { clusterMetrics, clusterReadiness } from './cluster-admin.js';
import type { ServingChecks } from './serving-checks.js';

export interface ServingAdminOptions {
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1: give the API's host. */
  readonly host?: string;
  /** The processes serving the API: 1, this one (give `checks`); more, the workers of this cluster primary. */
  readonly workers: number;
  /** This process's checks (servingChecks); needed unless this is the primary of more than one worker. */
  readonly checks?: ServingChecks;
  /** Milliseconds each worker's database has to answer (default 1000); the primary waits a second longer. */
  readonly readyTimeout?: number;
}

/**
 * The admin listener of a server: a single process answers its own checks and metrics; the primary of a
 * cluster asks its workers (ready only when all `workers` are) and sums their metrics (prom-client's
 * cluster aggregation). Listen before the catalogue is read, so that /live answers meanwhile.
 */
export function servingAdmin(options: ServingAdminOptions): Promise<AdminServer> {
  const primary = cluster.isPrimary && options.workers > 1;
  const { checks } = options;
  if (!primary && !checks) throw new Error('a single process’s admin listener answers its own checks: give checks');
  return adminServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    readiness: primary ? clusterReadiness(options.workers, (options.readyTimeout ?? 1000) + 1000) : checks!.readiness,
    metrics: primary ? clusterMetrics() : checks!.metrics.registry,
  });
}
