import {
  adminServer,
  ApiMetrics,
  clusterMetrics,
  clusterReadiness,
  databaseReadiness,
  readinessOf,
  reportToPrimary,
  type AdminServer,
  type Readiness,
} from '@colapi/server-koa';
import type { Database } from '@colapi/sql-compiler';
import cluster from 'node:cluster';
import type { DemoConfig } from './config.js';

/** What one serving process measures and answers: its metrics and its readiness, draining included. */
export interface ServingChecks {
  readonly metrics: ApiMetrics;
  readonly readiness: () => Promise<Readiness>;
  /** From now on this process is not ready. */
  drain(): void;
}

/**
 * The checks of a process that serves the demo: its database once open (`database()`), the metrics, and
 * whether it drains. A cluster worker reports them to the primary, whose admin listener answers for all.
 */
export function servingChecks(database: () => Database | undefined): ServingChecks {
  const metrics = new ApiMetrics();
  let draining = false;
  const base = databaseReadiness({ database, loaded: () => database() !== undefined });
  const readiness = async () => {
    const report = await base();
    return readinessOf(
      { ...report.checks, draining: draining ? 'draining: the process is stopping' : 'ok' },
      report.replicas ? { replicas: report.replicas } : {},
    );
  };
  reportToPrimary(readiness, metrics.registry);
  return { metrics, readiness, drain: () => void (draining = true) };
}

/**
 * The admin listener of `--admin-port`, on the API's host: a single process answers its own checks; a
 * cluster primary asks its workers (ready only when all `config.workers` are) and aggregates their metrics.
 */
export function startAdmin(config: DemoConfig, checks?: ServingChecks): Promise<AdminServer> {
  const primary = cluster.isPrimary && config.workers > 1;
  return adminServer({
    port: config.adminPort ?? 0,
    host: config.host,
    readiness: primary ? clusterReadiness(config.workers) : checks!.readiness,
    metrics: primary ? clusterMetrics() : checks!.metrics.registry,
  });
}
