import { isDeepStrictEqual } from 'node:util';
import { headersOf, type Scenario } from './scenarios.js';

/** Origins and the created id differ between the two servers by design; everything else must not. */
function normalise(value: unknown, origin: string, createdId?: string): unknown {
  if (typeof value === 'string') {
    let s = value.split(origin).join('ORIGIN');
    if (createdId !== undefined) s = s.replace(new RegExp(`/task/${createdId}\\b`, 'g'), '/task/NEW');
    return createdId !== undefined && value === createdId ? 'NEW' : s;
  }
  if (Array.isArray(value)) return value.map((v) => normalise(v, origin, createdId));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, origin, createdId)]));
  }
  return value;
}

/** The first path at which two JSON values differ, for a useful message. */
function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: target ${JSON.stringify(a)?.slice(0, 300)} vs baseline ${JSON.stringify(b)?.slice(0, 300)}`;
}

async function answer(origin: string, s: Scenario) {
  const res = await fetch(`${origin}${s.path}`, { method: s.method, headers: headersOf(s), ...(s.body ? { body: s.body } : {}) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${origin}${s.path} answered ${res.status} with no JSON: ${text.slice(0, 200)}`);
  }
  const createdId = s.method === 'POST' ? (body as { data?: { id?: string } }).data?.id : undefined;
  const location = res.headers.get('location');
  return { status: res.status, location: location && normalise(location, origin, createdId), body: normalise(body, origin, createdId) };
}

/** Checks that both servers answer a scenario with the same status, Location and document. */
export async function verifyScenario(s: Scenario, target: string, baseline: string): Promise<void> {
  const [t, b] = [await answer(target, s), await answer(baseline, s)];
  if (t.status !== s.status) throw new Error(`${s.name}: the target answered ${t.status}, not ${s.status}: ${JSON.stringify(t.body).slice(0, 400)}`);
  if (b.status !== t.status) throw new Error(`${s.name}: the baseline answered ${b.status}, the target ${t.status}`);
  if (t.location !== b.location) throw new Error(`${s.name}: Location differs: ${String(t.location)} vs ${String(b.location)}`);
  const diff = firstDifference(t.body, b.body);
  if (diff) throw new Error(`${s.name}: the documents differ at ${diff}`);
}
