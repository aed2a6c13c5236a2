/**
 * JSON:API 1.1 adds `ext` and `profile` to the top-level `jsonapi` object: arrays of URIs, which the 1.0
 * schema the tests check against refuses (its `jsonapi` allows `version` and `meta` only). In a document
 * that says `"version": "1.1"` they are checked here as 1.1 defines them and taken out of a copy before the
 * 1.0 schema sees it; everything else of the document is still held to that schema. A 1.0 document keeps
 * them refused.
 */
export function without11Members(document: Record<string, unknown>): {
  document: Record<string, unknown>;
  problems: string[];
} {
  const jsonapi = document.jsonapi;
  if (typeof jsonapi !== 'object' || jsonapi === null || Array.isArray(jsonapi)) return { document, problems: [] };
  const { ext, profile, ...rest } = jsonapi as Record<string, unknown>;
  if (rest.version !== '1.1' || (ext === undefined && profile === undefined)) return { document, problems: [] };
  const problems: string[] = [];
  for (const [name, value] of [
    ['ext', ext],
    ['profile', profile],
  ] as const) {
    if (value === undefined) continue;
    const uris =
      Array.isArray(value) && value.every((v) => typeof v === 'string' && /^[a-z][a-z0-9+.-]*:\S+$/i.test(v));
    if (!uris) problems.push(`/jsonapi/${name} is ${JSON.stringify(value)}, not a list of absolute URIs`);
  }
  return { document: { ...document, jsonapi: rest }, problems };
}
