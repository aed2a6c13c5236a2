/** One request of a scenario. */
export interface BenchRequest {
  readonly path: string;
  readonly body?: string;
  /** Headers of this request besides the scenario's (a conditional GET's If-None-Match). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One kind of request the bench sends to both servers. */
export interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The request of this shape that the floor server's README shows: the one named in the tables. */
  readonly path: string;
  readonly body?: string;
  /**
   * The i-th request (0-based) of a run: the same shape with other ids, pages, patterns or names, chosen
   * deterministically from `i` and `salt` (the round), so that both servers of a round get the same sequence
   * and no server is flattered by a cache of one exact URL.
   */
  request(i: number, salt: number): BenchRequest;
  /** The status a correct answer has. */
  readonly status: number;
  /**
   * The status of the baseline's correct answer where it differs: the floor has no conditional requests, so
   * it answers a conditional GET with the full 200 where the target answers 304.
   */
  readonly baselineStatus?: number;
  /**
   * For a conditional scenario: every path its requests use, and the target's entity-tag of each, which
   * `learnTags` (conditional-tags.ts) fills before the runs and each request sends as If-None-Match.
   */
  readonly conditional?: { readonly paths: readonly string[]; readonly tags: Map<string, string> };
  /** Writes rows (tags) that the bench removes before each run, so that every run starts from the same table. */
  readonly writes?: boolean;
  /**
   * The answer's `data` is in this order only up to ties: `sort=-publishtime` leaves the order of articles
   * of the same publishtime to the server (about 60 articles share each of the dataset's 840 times).
   */
  readonly tiesBy?: string;
  /** Headers every request carries besides the media types (the access variant's Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
}

export const JSONAPI = 'application/vnd.api+json';

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** A 32-bit mix of (i, salt): the bench's deterministic choice, the same on every machine and run. */
export function mix(i: number, salt: number): number {
  let x = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}
const pick = <T>(list: readonly T[], i: number, salt: number, lane = 0): T =>
  list[mix(i * 4 + lane, salt) % list.length]!;
/** 1..n */
const upTo = (n: number, i: number, salt: number, lane = 0) => 1 + (mix(i * 4 + lane, salt) % n);

const filterOf = (age: number, like: string) => [
  { name: 'author', op: 'has', val: { name: 'age', op: 'gt', val: age } },
  { name: 'title', op: 'like', val: like },
];
/** Titles are `Article <i> about databases|koa|benchmarks|json`: each pattern keeps a large share of them. */
const LIKES = ['%a%', '%o%', '%e%', '%s%', '%ou%', '%ab%', '%t%', '%b%'];
/** Pairs of functions of the floor's shape (avg|sum|count|min|max of id|age|other). */
const FUNCTION_LISTS = [
  [
    { name: 'avg', field: 'age' },
    { name: 'count', field: 'id' },
  ],
  [
    { name: 'sum', field: 'age' },
    { name: 'count', field: 'id' },
  ],
  [
    { name: 'min', field: 'age' },
    { name: 'max', field: 'age' },
  ],
  [
    { name: 'avg', field: 'other' },
    { name: 'count', field: 'age' },
  ],
  [
    { name: 'max', field: 'id' },
    { name: 'min', field: 'other' },
  ],
  [
    { name: 'count', field: 'other' },
    { name: 'sum', field: 'id' },
  ],
];
/** The target's entity-tags of the conditional scenario's paths (learnTags). */
const CONDITIONAL_TAGS = new Map<string, string>();
const tagBody = (name: string) => JSON.stringify({ data: { type: 'tag', attributes: { name } } });

/**
 * The seven scenarios of the floor server (../shared/bench/README.md), in its shapes, at bench scale 1
 * (10,000 person, 50,000 article rows): `path` is the floor's example, `request(i)` varies it; and a
 * conditional GET answered 304.
 */
export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'list',
    method: 'GET',
    path: '/api/person?page[size]=10&page[number]=37',
    // Pages 1–73: their mean is the example's page 37.
    request: (i, salt) => ({ path: `/api/person?page[size]=10&page[number]=${upTo(73, i, salt)}` }),
    status: 200,
  },
  {
    name: 'get',
    method: 'GET',
    path: '/api/person/4242',
    request: (i, salt) => ({ path: `/api/person/${upTo(10_000, i, salt)}` }),
    status: 200,
  },
  {
    name: 'filter',
    method: 'GET',
    path: `/api/article?filter[objects]=${q(filterOf(40, '%a%'))}&sort=-publishtime&page[size]=20`,
    request: (i, salt) => ({
      path: `/api/article?filter[objects]=${q(filterOf(19 + upTo(41, i, salt), pick(LIKES, i, salt, 1)))}&sort=-publishtime&page[size]=20`,
    }),
    status: 200,
    tiesBy: 'publishtime',
  },
  {
    name: 'include',
    method: 'GET',
    path: '/api/article?include=author,comments&page[size]=20',
    // Pages 1–50 of 20 articles, each with its author and its four comments.
    request: (i, salt) => ({
      path: `/api/article?include=author,comments&page[size]=20&page[number]=${upTo(50, i, salt)}`,
    }),
    status: 200,
  },
  {
    name: 'related',
    method: 'GET',
    path: '/api/person/77/articles?page[size]=10',
    request: (i, salt) => ({ path: `/api/person/${upTo(10_000, i, salt)}/articles?page[size]=10` }),
    status: 200,
  },
  {
    name: 'eval',
    method: 'GET',
    path: `/api/eval/person?functions=${q(FUNCTION_LISTS[0])}`,
    request: (i, salt) => ({ path: `/api/eval/person?functions=${q(pick(FUNCTION_LISTS, i, salt))}` }),
    status: 200,
  },
  {
    // Not one of the floor's seven: the list scenario's pages asked again with the tag of the target's last
    // answer, answered 304 (no body) by the target and in full by the floor, which has no conditional requests.
    name: 'conditional',
    method: 'GET',
    path: '/api/person?page[size]=10&page[number]=37',
    request: (i, salt) => {
      const path = `/api/person?page[size]=10&page[number]=${upTo(73, i, salt)}`;
      return { path, headers: { 'if-none-match': CONDITIONAL_TAGS.get(path) ?? '"unknown"' } };
    },
    status: 304,
    baselineStatus: 200,
    conditional: {
      paths: Array.from({ length: 73 }, (_, i) => `/api/person?page[size]=10&page[number]=${i + 1}`),
      tags: CONDITIONAL_TAGS,
    },
  },
  {
    name: 'create',
    method: 'POST',
    path: '/api/tag',
    body: tagBody('bench tag'),
    // Names are unique (tag.name is): the bench deletes the created tags before each run, so both servers send the same names.
    request: (i, salt) => ({ path: '/api/tag', body: tagBody(`bench-${salt}-${i}`) }),
    status: 201,
    writes: true,
  },
];

/** Every variant a scenario's sequence can produce, when they are few; else undefined. */
export function allVariants(s: Scenario): BenchRequest[] | undefined {
  if (s.name !== 'eval') return undefined;
  return FUNCTION_LISTS.map((f) => ({ path: `/api/eval/person?functions=${q(f)}` }));
}

export function headersOf(s: Scenario): Record<string, string> {
  const media: Record<string, string> =
    s.method === 'GET' ? { accept: JSONAPI } : { accept: JSONAPI, 'content-type': JSONAPI };
  return s.headers ? { ...s.headers, ...media } : media;
}

export function selectScenarios(only: readonly string[]): Scenario[] {
  return SCENARIOS.filter((s) => only.length === 0 || only.some((o) => s.name.includes(o)));
}

/**
 * The deep-page scenarios of the growth data set (issue 30, point 6): the page of 10 comments that ends at
 * `row`, read by `page[number]` (an OFFSET the database walks) and by cursor (`page[after]`, a keyset read
 * by the key's index), and the page at row 10 by cursor beside them. `cursorAt(id)` gives the cursor of
 * the comment `id` as the target signs it (deep-page.ts). Not in SCENARIOS: the floor has no cursors.
 */
export function deepPageScenarios(row: number, cursorAt: (id: number) => string): Scenario[] {
  const get = (name: string, path: string, status = 200): Scenario => ({
    name,
    method: 'GET',
    path,
    request: () => ({ path }),
    status,
  });
  const after = (id: number) => `/api/comment?page[size]=10&page[after]=${encodeURIComponent(cursorAt(id))}`;
  return [
    get(`row ${row.toLocaleString('en')} by page[number]`, `/api/comment?page[number]=${row / 10}&page[size]=10`),
    get(`row ${row.toLocaleString('en')} by cursor`, after(row - 10)),
    get('row 10 by cursor', after(0)),
    get('row 10 by page[number]', '/api/comment?page[number]=1&page[size]=10'),
  ];
}
