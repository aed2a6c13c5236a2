import type { HttpResponse } from '@colapi/wire-format';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The argument of a Format A JSONP callback: the JSON:API document itself, as Flask-Restless 1.0 sends it,
 * so that `argument.data.id` is the resource's id. The answer's status is 200 whatever happened (a script
 * tag runs nothing else), so the real status joins the document's top-level `meta` as `meta.status`, for
 * errors too; their error objects keep their own `status`. Response headers are not copied in: the
 * document's `links` already carry what they say.
 */
export function jsonApiJsonpPayload(response: HttpResponse): object | undefined {
  const document = response.body;
  // Only an onResponse hook could make the body something other than a document: it goes out unwrapped.
  if (!isObject(document)) return undefined;
  const meta = isObject(document.meta) ? document.meta : {};
  return { ...document, meta: { ...meta, status: response.status } };
}
