import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  readonly name: string;
  readonly selfMs: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly totalMs: number;
  /** Self time by function, busiest first. */
  readonly functions: readonly ProfileEntry[];
  /** Self time by where the code lives: a package, node's internals, the garbage collector. */
  readonly areas: readonly ProfileEntry[];
  /**
   * Self time by the package that asked for it: time in Node's internals (a socket write, a URL parse, a
   * JSON.parse) counts for the nearest package on the stack, so that `node` and `(native)` do not hide who
   * spends; the socket writes stay apart (`… [socket write]`), since what they cost is mostly the kernel's.
   */
  readonly callers: readonly ProfileEntry[];
}

/** Where a script lives, in a word: `knex`, `@colapi/sql-compiler`, `node`, … */
function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1]!;
  const own = /\/(packages|test-fixtures|bench)\/([^/]+)?/.exec(url);
  if (own) return own[1] === 'packages' ? `@colapi/${own[2]}` : own[1]!;
  return url;
}

/** The nearest package on the stack of a sample (see `callers`), or Node's outermost frame when there is none. */
function callerOf(byId: Map<number, ProfileNode>, parent: Map<number, number>, id: number): string {
  let outermost = byId.get(id)!.callFrame.functionName;
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { url, functionName } = byId.get(at)!.callFrame;
    const a = area(url, functionName);
    if (a !== 'node' && a !== '(native)' && !a.startsWith('(')) return a;
    if (functionName !== '(root)') outermost = functionName;
  }
  return `node (${outermost})`;
}

function top(map: Map<string, number>, total: number, n: number): ProfileEntry[] {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, selfMs: Math.round(us / 1000), percent: Math.round((us / total) * 1000) / 10 }));
}

/** Self time per function and per area of the server's `.cpuprofile` in a folder (node --cpu-prof). */
export function summariseProfile(dir: string, n = 25): ProfileSummary | undefined {
  // tsx's module loader runs in a thread of its own, which writes a small profile too: the server's is the largest.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size);
  const file = files.at(-1);
  if (!file) return undefined;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  const callers = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    total += us;
    const caller =
      callerOf(byId, parent, id) +
      (functionName === 'writev' || functionName === 'writeBuffer' ? ' [socket write]' : '');
    callers.set(caller, (callers.get(caller) ?? 0) + us);
    const where = url
      ? `${url.replace(/^.*\/(node_modules\/\.pnpm\/[^/]+\/node_modules\/|packages\/|bench\/|test-fixtures\/)/, '')}:${lineNumber + 1}`
      : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
    const a = area(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  return {
    file: join(dir, file),
    totalMs: Math.round(total / 1000),
    functions: top(functions, total, n),
    areas: top(areas, total, 15),
    callers: top(callers, total, 20),
  };
}
