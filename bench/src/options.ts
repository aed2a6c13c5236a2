import { eachArgument } from './arguments.js';

export type DbKind = 'postgres' | 'mysql' | 'sqlite';
/** What the target is measured against: the floor server (../shared/bench) or the bench's own baseline. */
export type BaselineKind = 'floor' | 'own';

export interface BenchOptions {
  readonly db: DbKind;
  /** Default: the floor on PostgreSQL and MariaDB, the own baseline on SQLite (the floor serves no SQLite). */
  readonly baseline: BaselineKind;
  /** Connections of each server's database pool (PostgreSQL, MariaDB), the floor's default 16. */
  readonly pool: number;
  /** Seconds of each measured run. */
  readonly duration: number;
  readonly connections: number;
  /** Measured runs per server and scenario; the median is reported. */
  readonly rounds: number;
  /** Seconds of the unmeasured warm-up run per server and scenario. */
  readonly warmup: number;
  /** Only the scenarios whose names contain one of these (all when empty). */
  readonly only: readonly string[];
  /** Also measure the target with this many cluster workers (0: skip). */
  readonly scaleWorkers: number;
  /** Run the growth measurements (page depth, 10× data, meta.total modes) instead of the comparison. */
  readonly growth: boolean;
  /** Data multiplier of the growth run's large dataset. */
  readonly growthScale: number;
  /** Measure the page at row 1,000,000 of the growth data set by page[number] and by cursor (deep-page.ts). */
  readonly deepPage: boolean;
  /** Write a CPU profile of the target (node --cpu-prof) into this folder. */
  readonly cpuProf?: string;
  /** Where the JSON results go; default bench/results/<db>.json. */
  readonly out?: string;
  /**
   * Compare the conformance target on a pooler with read replicas against the same target on the primary
   * alone (bench/src/topology.ts) instead of the target against the baseline. PostgreSQL only.
   */
  readonly topology: boolean;
  /** The topology's primary; default $PG_PRIMARY_URL (what `tools/pg-topology/topology.sh env` prints). */
  readonly primaryUrl?: string;
  /** A transaction-mode pooler in front of the primary; default $PG_BOUNCER_URL; `none`: no pooler. */
  readonly poolerUrl?: string;
  /** Streaming replicas of the primary; default $PG_REPLICA_URL; `none`: no replica. */
  readonly replicaUrls?: readonly string[];
  /** Cluster workers of both targets of the topology comparison. */
  readonly workers: number;
  /**
   * The access variant: the target under an HS256 token and a tenant rule on every collection, against the
   * same target without access control (bench/src/access-rules.ts), instead of against the floor.
   */
  readonly access: boolean;
  /**
   * With --access: PostgreSQL's native mode (`auth.databaseRoles`) as well, each request in a transaction that
   * first sets the role and the claims (the bench's role `member` is created and granted the tables).
   */
  readonly native: boolean;
  /**
   * The target of another checkout (a worktree of an earlier commit, built) as the baseline instead of the
   * floor: an A/B of two builds in one run, alternating, so that the ratio is after ÷ before. Since the floor
   * is the same for both, a ratio of 1 means the build's ratio to the floor did not move.
   */
  readonly against?: string;
  /**
   * Command-line options of node for the target alone (`--target-node-options "--max-semi-space-size=16"`),
   * split at spaces: how a deployment tunes V8, measured against the same build without them (`--against`
   * this checkout) or against the floor, which runs with node's defaults.
   */
  readonly targetNodeOptions: readonly string[];
}

const USAGE = `pnpm bench [--db postgres|mysql|sqlite] [--baseline floor|own] [--pool n] [--duration s] [--connections n]
           [--rounds n] [--warmup s] [--only name,name] [--scale-workers n|0] [--growth [--growth-scale n]] [--deep-page] [--cpu-prof dir]
           [--target-node-options "flags"] [--out file]
       pnpm bench --access [--native] [--db postgres|mysql|sqlite] [--rounds n] [--duration s] [--only name,name] [--out file]
       pnpm bench --topology [--workers n] [--primary-url url] [--pooler-url url|none] [--replica-urls url,url|none]
           [--duration s] [--connections n] [--rounds n] [--warmup s] [--only name,name] [--out file]
       pnpm bench --against <checkout> [--db postgres|mysql] [--rounds n] [--duration s] [--only name,name] [--target-node-options "flags"] [--out file]`;

/** Parses the command line; throws with the usage on anything unknown. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const o = {
    db: 'postgres' as DbKind,
    baseline: undefined as BaselineKind | undefined,
    pool: 16,
    duration: 10,
    connections: 16,
    rounds: 3,
    warmup: 2,
    only: [] as string[],
    scaleWorkers: 0,
    growth: false,
    growthScale: 10,
    deepPage: false,
    cpuProf: undefined as string | undefined,
    out: undefined as string | undefined,
    topology: false,
    primaryUrl: undefined as string | undefined,
    poolerUrl: undefined as string | undefined,
    replicaUrls: undefined as string[] | undefined,
    workers: 2,
    access: false,
    native: false,
    against: undefined as string | undefined,
    targetNodeOptions: [] as string[],
  };
  const number = (name: string, v: string | undefined, min: number) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`${name} needs a number ≥ ${min}\n${USAGE}`);
    return n;
  };
  eachArgument(argv, USAGE, (a, value) => {
    if (a === '--db') {
      const v = value();
      if (v !== 'postgres' && v !== 'mysql' && v !== 'sqlite')
        throw new Error(`--db must be postgres, mysql or sqlite\n${USAGE}`);
      o.db = v;
    } else if (a === '--baseline') {
      const v = value();
      if (v !== 'floor' && v !== 'own') throw new Error(`--baseline must be floor or own\n${USAGE}`);
      o.baseline = v;
    } else if (a === '--pool') o.pool = number(a, value(), 1);
    else if (a === '--duration') o.duration = number(a, value(), 1);
    else if (a === '--connections') o.connections = number(a, value(), 1);
    else if (a === '--rounds') o.rounds = number(a, value(), 1);
    else if (a === '--warmup') o.warmup = number(a, value(), 0);
    else if (a === '--only') o.only = value().split(',').filter(Boolean);
    else if (a === '--scale-workers') o.scaleWorkers = number(a, value(), 0);
    else if (a === '--growth') o.growth = true;
    else if (a === '--deep-page') o.deepPage = true;
    else if (a === '--growth-scale') o.growthScale = number(a, value(), 1);
    else if (a === '--cpu-prof') o.cpuProf = value();
    else if (a === '--out') o.out = value();
    else if (a === '--topology') o.topology = true;
    else if (a === '--access') o.access = true;
    else if (a === '--native') o.native = true;
    else if (a === '--against') o.against = value();
    else if (a === '--target-node-options') o.targetNodeOptions = value().split(' ').filter(Boolean);
    else if (a === '--primary-url') o.primaryUrl = value();
    else if (a === '--pooler-url') o.poolerUrl = value();
    else if (a === '--replica-urls')
      o.replicaUrls = value()
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
    else if (a === '--workers') o.workers = number(a, value(), 1);
    else if (a === '--help' || a === '-h') throw new Error(USAGE);
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  });
  // Every run is bounded: a bench that forgets to stop would hold the machine.
  if (o.duration > 120) throw new Error('--duration is at most 120 seconds');
  if (o.topology && (o.db !== 'postgres' || o.growth || o.cpuProf))
    throw new Error(`--topology measures PostgreSQL alone, without --growth or --cpu-prof\n${USAGE}`);
  if (o.native && (!o.access || o.db !== 'postgres'))
    throw new Error(`--native is a variant of --access, on PostgreSQL only\n${USAGE}`);
  if (o.against !== undefined && o.access)
    throw new Error(`--against compares two builds without access control\n${USAGE}`);
  // Only node's own options: a script or an --eval there would replace the target.
  const notOption = o.targetNodeOptions.find(
    (f) => !/^--[a-z][a-z0-9-]*(=\S+)?$/.test(f) || /^--(eval|print|require|import)\b/.test(f),
  );
  if (notOption !== undefined)
    throw new Error(`--target-node-options takes node's --flags only, not ${notOption}\n${USAGE}`);
  if (!Number.isInteger(o.workers) || o.workers > 64) throw new Error('--workers is a whole number up to 64');
  const baseline = o.baseline ?? (o.db === 'sqlite' ? 'own' : 'floor');
  if (baseline === 'floor' && o.db === 'sqlite')
    throw new Error('the floor server serves PostgreSQL and MariaDB/MySQL, not SQLite: --baseline own');
  return { ...o, baseline };
}
