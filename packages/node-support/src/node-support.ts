/**
 * The Node.js releases colapi is built and tested on. Every package's `engines` says the same (a test
 * checks), and `.ci/run` runs the suite on each.
 *
 * 22.12 is the first 22 with `require(esm)` unflagged and the oldest that better-sqlite3 13 (N-API) is
 * tested on; Node 20 is past its end of life and better-sqlite3 13 crashes on it.
 */
export const SUPPORTED_NODE = [
  { major: 22, minimum: '22.12.0' },
  { major: 24, minimum: '24.0.0' },
] as const;

/** The `engines.node` range every package declares. */
export const ENGINES_RANGE = SUPPORTED_NODE.map((r) => `^${r.minimum}`).join(' || ');

export type NodeVerdict =
  /** A supported release. */
  | { readonly kind: 'supported' }
  /** Older than the oldest supported release, or an older patch of a supported major: it cannot run. */
  | { readonly kind: 'unsupported'; readonly message: string }
  /** A later major than colapi is tested on: it probably runs, but nobody has checked. */
  | { readonly kind: 'untested'; readonly message: string };

function parse(version: string): [number, number, number] {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return [0, 0, 0];
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function atLeast(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
}

const wanted = SUPPORTED_NODE.map((r) => (r.minimum.endsWith('.0.0') ? String(r.major) : `${r.minimum}+`)).join(' or ');

/** Says whether `version` (as `process.versions.node` spells it, with or without a `v`) is one colapi supports. */
export function nodeVerdict(version: string): NodeVerdict {
  const v = parse(version);
  const release = SUPPORTED_NODE.find((r) => r.major === v[0]);
  if (release && atLeast(v, parse(release.minimum))) return { kind: 'supported' };
  const newest = SUPPORTED_NODE[SUPPORTED_NODE.length - 1]!;
  if (!release && v[0] > newest.major) {
    return {
      kind: 'untested',
      message: `Node.js ${version.replace(/^v?/, 'v')} is newer than colapi is tested on (Node.js ${wanted}); continuing.`,
    };
  }
  return {
    kind: 'unsupported',
    message: `Node.js ${version.replace(/^v?/, 'v')} is not supported: colapi needs Node.js ${wanted} (see "Supported Node.js" in its README).`,
  };
}

/**
 * For a command's entry point, before it imports anything that could crash on the wrong runtime (native
 * modules): prints one line to stderr, prefixed with the command's name, and answers whether to go on.
 * An unsupported release sets exit code 1; an untested later one only warns.
 */
export function checkNode(command: string, version: string = process.versions.node): boolean {
  const verdict = nodeVerdict(version);
  if (verdict.kind === 'supported') return true;
  process.stderr.write(`${command}: ${verdict.message}\n`);
  if (verdict.kind === 'untested') return true;
  process.exitCode = 1;
  return false;
}
