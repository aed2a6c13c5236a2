import { isDeepStrictEqual } from 'node:util';
import { allVariants, headersOf, JSONAPI, type BenchRequest, type Scenario } from './scenarios.js';

/**
 * Before any load, both servers must answer each scenario with the same document, up to what may differ by
 * design:
 * - the origin of links (the floor's relationship links are relative, its other links absolute) and how a
 *   link's query is percent-encoded (`page%5Bsize%5D` or `page[size]`): links compare as path and decoded query;
 * - an empty `included` or `meta` member and a missing one;
 * - a `jsonapi` member inside a resource object (the target repeats it in a created resource, as
 *   Flask-Restless did);
 * - the order of `included` (JSON:API gives it no meaning);
 * - a zero fraction of seconds in a time of day (`21:13:00.000000`: the floor prints MariaDB's TIME(6) as the
 *   driver gives it, the target drops the zero fraction);
 * - a number's digits past the fourth decimal (MariaDB's avg of integers is a DECIMAL of 4 decimals, which
 *   the floor sends as it is; the target computes a double): 44.55408163265306 and 44.5541 are equal (within
 *   half a unit of the fourth decimal), 44.554 and 44.5541 are not;
 * - the id of a created resource;
 * - with `tiesBy`, the order and choice of rows among equal sort keys: then the sequence of sort keys must be
 *   equal, rows present in both must be equal, and each row that only the baseline chose must equal the
 *   target's own answer for that resource (`GET /api/<type>/<id>`).
 */

type Json = unknown;

function url(s: string, origin: string): string {
  const rest = s.startsWith(origin) ? s.slice(origin.length) : s;
  if (!rest.startsWith('/')) return rest;
  const u = new URL(rest, 'http://x');
  const query = [...u.searchParams].map(([k, v]) => `${k}=${v}`).join('&');
  return `${decodeURIComponent(u.pathname)}${query ? `?${query}` : ''}`;
}

const isResource = (v: Record<string, Json>) => typeof v.type === 'string' && typeof v.id === 'string';
const empty = (v: Json) =>
  Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0;

function normalise(value: Json, origin: string, createdId: string | undefined, top = true): Json {
  if (typeof value === 'string') {
    if (/^\d\d:\d\d:\d\d\.0+$/.test(value)) return value.slice(0, 8);
    let s = url(value, origin);
    if (createdId !== undefined) {
      if (s === createdId) return 'NEW';
      s = s.replace(new RegExp(`/(\\w+)/${createdId}(?=/|$)`, 'g'), '/$1/NEW');
    }
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => normalise(v, origin, createdId, false));
  if (value && typeof value === 'object') {
    const o = value as Record<string, Json>;
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(o)) {
      if ((k === 'included' || k === 'meta') && empty(v)) continue;
      if (k === 'jsonapi' && !top && isResource(o)) continue;
      out[k] = normalise(v, origin, createdId, false);
    }
    if (Array.isArray(out.included)) {
      const key = (r: Json) => `${(r as { type: string }).type}/${String((r as { id: string }).id).padStart(12, '0')}`;
      out.included = [...out.included].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    }
    return out;
  }
  return value;
}

/** Equal to 4 decimals: within half a unit of the fourth. */
const sameNumber = (a: number, b: number) => a === b || Math.abs(a - b) <= 0.00005 + 1e-12;

/** The first path at which two JSON values differ, for a useful message. */
function firstDifference(a: Json, b: Json, path = '$'): string | undefined {
  if (typeof a === 'number' && typeof b === 'number' && sameNumber(a, b)) return undefined;
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, Json>)[k], (b as Record<string, Json>)[k], `${path}.${k}`);
      if (d) return d;
    }
    // Every member is equal up to the numbers' fourth decimal.
    if (Object.keys(a).length === Object.keys(b).length) return undefined;
  }
  return `${path}: target ${JSON.stringify(a)?.slice(0, 300)} vs baseline ${JSON.stringify(b)?.slice(0, 300)}`;
}

interface Answer {
  readonly status: number;
  readonly location: Json;
  readonly body: Json;
}

async function answer(
  origin: string,
  method: string,
  r: BenchRequest,
  headers: Record<string, string>,
): Promise<Answer> {
  const res = await fetch(`${origin}${r.path}`, { method, headers, ...(r.body ? { body: r.body } : {}) });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${origin}${r.path} answered ${res.status} with no JSON: ${text.slice(0, 200)}`);
  }
  const createdId = method === 'POST' ? (body as { data?: { id?: string } }).data?.id : undefined;
  const location = res.headers.get('location');
  return {
    status: res.status,
    location: location && normalise(location, origin, createdId),
    body: normalise(body, origin, createdId),
  };
}

type Resource = { type: string; id: string; attributes?: Record<string, Json> };

/** `data` compared up to ties of `key` (see the top of this file). */
async function compareUpToTies(t: Json, b: Json, key: string, target: string): Promise<string | undefined> {
  const td = (t as { data: Resource[] }).data;
  const bd = (b as { data: Resource[] }).data;
  if (!Array.isArray(td) || !Array.isArray(bd)) return firstDifference(t, b);
  const rest = (d: Json) => ({ ...(d as Record<string, Json>), data: undefined });
  const outside = firstDifference(rest(t), rest(b));
  if (outside) return outside;
  const keys = (d: Resource[]) => d.map((r) => r.attributes?.[key]);
  const k = firstDifference(keys(td), keys(bd), `$.data[*].attributes.${key}`);
  if (k) return k;
  const byId = new Map(td.map((r) => [`${r.type}/${r.id}`, r]));
  for (const r of bd) {
    const mine = byId.get(`${r.type}/${r.id}`);
    if (mine) {
      const d = firstDifference(mine, r, `$.data[${r.type}/${r.id}]`);
      if (d) return d;
      continue;
    }
    const one = await answer(target, 'GET', { path: `/api/${r.type}/${r.id}` }, { accept: JSONAPI });
    const d = firstDifference(
      (one.body as { data: Json }).data,
      r,
      `$.data[${r.type}/${r.id}] (the target's GET /api/${r.type}/${r.id})`,
    );
    if (d) return d;
  }
  return undefined;
}

export interface VerifyOptions {
  /** Requests of the scenario's sequence checked besides its example (and every variant when they are few). */
  readonly samples?: number;
  /** Undoes a scenario's writes (runs after each server's answer when `s.writes`), so that both get the same request. */
  readonly reset?: () => Promise<void>;
}

/** Checks that both servers answer a scenario's example and the first requests of its sequence alike. */
export async function verifyScenario(
  s: Scenario,
  target: string,
  baseline: string,
  o: VerifyOptions = {},
): Promise<number> {
  const requests: BenchRequest[] = [
    { path: s.path, ...(s.body ? { body: s.body } : {}) },
    ...Array.from({ length: o.samples ?? 6 }, (_, i) => s.request(i, 0)),
    ...(allVariants(s) ?? []),
  ];
  for (const r of requests) {
    const at = `${s.name} ${s.method} ${r.path}`;
    const t = await answer(target, s.method, r, headersOf(s));
    if (s.writes) await o.reset?.();
    const b = await answer(baseline, s.method, r, headersOf(s));
    if (s.writes) await o.reset?.();
    if (t.status !== s.status)
      throw new Error(
        `${at}: the target answered ${t.status}, not ${s.status}: ${JSON.stringify(t.body).slice(0, 400)}`,
      );
    if (b.status !== t.status)
      throw new Error(
        `${at}: the baseline answered ${b.status}, the target ${t.status}: ${JSON.stringify(b.body).slice(0, 400)}`,
      );
    if (t.location !== b.location)
      throw new Error(`${at}: Location differs: ${String(t.location)} vs ${String(b.location)}`);
    const diff = s.tiesBy ? await compareUpToTies(t.body, b.body, s.tiesBy, target) : firstDifference(t.body, b.body);
    if (diff) throw new Error(`${at}: the documents differ at ${diff}`);
  }
  return requests.length;
}
