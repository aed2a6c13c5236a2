/** One kind of request the bench sends to both servers. */
export interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  /** The status a correct answer has. */
  readonly status: number;
}

export const JSONAPI = 'application/vnd.api+json';

const HAS_FILTER = [{ name: 'author', op: 'has', val: { name: 'name', op: 'like', val: 'Person 12%' } }];
const FUNCTIONS = [
  { name: 'avg', field: 'age' },
  { name: 'count', field: 'id' },
];
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** The scenarios of issue 6, with ids that exist at every scale. */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'list-deep-page', method: 'GET', path: '/api/person?page[number]=500&page[size]=10', status: 200 },
  { name: 'fetch-by-id', method: 'GET', path: '/api/article/12345', status: 200 },
  { name: 'filter-has-like-sort', method: 'GET', path: `/api/article?filter[objects]=${q(HAS_FILTER)}&sort=-publishtime`, status: 200 },
  { name: 'include-author-comments', method: 'GET', path: '/api/article?include=author,comments&page[size]=20', status: 200 },
  { name: 'related-to-many', method: 'GET', path: '/api/person/4321/articles', status: 200 },
  { name: 'evaluate-avg-count', method: 'GET', path: `/api/eval/person?functions=${q(FUNCTIONS)}`, status: 200 },
  {
    name: 'create',
    method: 'POST',
    path: '/api/task',
    body: JSON.stringify({ data: { type: 'task', attributes: { title: 'bench task', duration: 3600, due: '2024-05-01' } } }),
    status: 201,
  },
];

export function headersOf(s: Scenario): Record<string, string> {
  return s.body === undefined ? { accept: JSONAPI } : { accept: JSONAPI, 'content-type': JSONAPI };
}

export function selectScenarios(only: readonly string[]): Scenario[] {
  return SCENARIOS.filter((s) => only.length === 0 || only.some((o) => s.name.includes(o)));
}
