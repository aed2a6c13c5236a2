import { ApiError } from '@colapi/query-ast';

const TITLES: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large', 415: 'Unsupported Media Type' };

/** What @hapi/bourne (koa-body's JSON parser) throws for valid JSON with a `__proto__` member. */
const PROTO_MEMBER = 'Object contains forbidden prototype property';

/** Most members looked at to find a `__proto__` member's place: the body is at most the body limit anyway. */
const MAX_VISITS = 100_000;

/**
 * The error of a request body koa-body refused: it carries a status of its own (bad JSON 400, too large 413,
 * bad charset 415). Undefined for any other error.
 */
export function bodyError(error: unknown): ApiError | undefined {
  const { status, message, body } = (error ?? {}) as { status?: unknown; message?: unknown; body?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 400 && message === PROTO_MEMBER) {
    // Valid JSON, refused because a member named "__proto__" would rewrite an object's prototype.
    const pointer = typeof body === 'string' ? protoPointer(body) : undefined;
    const at = pointer === undefined ? '' : ` (at ${pointer})`;
    return ApiError.badRequest(
      `"__proto__" is not an acceptable member name in a request body${at}`,
      pointer === undefined ? undefined : { pointer },
    );
  }
  const detail =
    status === 400
      ? 'the request body is not valid JSON'
      : status === 413
        ? 'the request body is too large'
        : 'the request body cannot be read';
  return new ApiError(status, TITLES[status] ?? 'Bad Request', detail);
}

/** The JSON pointer of the first `__proto__` member, breadth first; JSON.parse makes it a plain own property. */
function protoPointer(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const queue: [unknown, string][] = [[parsed, '']];
  for (let i = 0; i < queue.length && i < MAX_VISITS; i++) {
    const [node, pointer] = queue[i]!;
    if (node === null || typeof node !== 'object') continue;
    for (const key of Object.keys(node)) {
      const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key === '__proto__') return here;
      queue.push([(node as Record<string, unknown>)[key], here]);
    }
  }
  return undefined;
}
