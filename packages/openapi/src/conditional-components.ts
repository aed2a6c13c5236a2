import type { JsonSchema, OpenApiObject } from '@colapi/wire-format';

/** One entity-tag as server-koa parses it (conditional/entity-tags.ts): `W/` optional, then a quoted string. */
const TAG = '(W/)?"[!#-~\\x80-\\xff]*"';

/**
 * What `If-Match` and `If-None-Match` take: `*`, or a comma-separated list of entity-tags (empty members
 * allowed, at least one tag). Anything else the server refuses with 400 naming the header.
 */
const TAG_LIST: JsonSchema = {
  type: 'string',
  pattern: `^[ \\t]*(\\*|(,[ \\t]*)*${TAG}([ \\t]*,([ \\t]*${TAG})?)*)[ \\t]*$`,
};

/** A strong entity-tag, as the server sends it. */
const STRONG_TAG: JsonSchema = { type: 'string', pattern: '^"[!#-~\\x80-\\xff]*"$' };

/** The names of the conditional requests' components; every operation refers to them. */
export const CONDITIONAL = {
  etag: 'ETag',
  resourceTag: 'Resource-ETag',
  resourceTagWhenFound: 'Resource-ETag.when-found',
  ifNoneMatchRead: 'If-None-Match.read',
  ifMatchRead: 'If-Match.read',
  ifMatchWrite: 'If-Match.write',
  ifNoneMatchWrite: 'If-None-Match.write',
  ifMatchBulk: 'If-Match.bulk',
  notModified: 'NotModified',
  preconditionFailed: 'PreconditionFailed',
  preconditionRequired: 'PreconditionRequired',
} as const;

export const headerRef = (name: string): OpenApiObject => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string): OpenApiObject => ({ $ref: `#/components/parameters/${name}` });
export const responseRef = (name: string): OpenApiObject => ({ $ref: `#/components/responses/${name}` });

const RESOURCE_TAG_TEXT =
  "The version of the resource's own row: send it in If-Match to update, replace or delete the resource or change one of its relationships. It is the same whatever include, fields, format or URL the answer was read with (a relationship's answers give its owner's).";

function headers(): Record<string, OpenApiObject> {
  return {
    [CONDITIONAL.etag]: {
      description:
        'A strong entity-tag of exactly these bytes (content type, JSONP callback and body): any change of the answer changes it, an included resource or a sort included. A compressed answer has the coding appended ("abc-gzip", "abc-br"). Send it in If-None-Match to be answered 304 while it holds. A JSONP script that wraps an error carries none.',
      required: true,
      schema: STRONG_TAG,
    },
    [CONDITIONAL.resourceTag]: { description: RESOURCE_TAG_TEXT, required: true, schema: STRONG_TAG },
    [CONDITIONAL.resourceTagWhenFound]: {
      description: `${RESOURCE_TAG_TEXT} Sent when the answer is about one resource that exists.`,
      schema: STRONG_TAG,
    },
  };
}

function parameters(requireIfMatch: boolean): Record<string, OpenApiObject> {
  const required = requireIfMatch ? { required: true } : {};
  const requiredText = requireIfMatch
    ? ' Required on this server: a write without it is 428.'
    : ' Optional on this server (it would be 428 without it only if the server ran with requireIfMatch).';
  return {
    [CONDITIONAL.ifNoneMatchRead]: {
      name: 'If-None-Match',
      in: 'header',
      description:
        'ETags of answers you hold, or *: when one names the current answer (weak comparison; a compressed tag names it too), the answer is 304 without a body.',
      schema: TAG_LIST,
      example: '*',
    },
    [CONDITIONAL.ifMatchRead]: {
      name: 'If-Match',
      in: 'header',
      description: 'ETags of this answer, or *: unless one is the current ETag (strong comparison), the answer is 412.',
      schema: TAG_LIST,
      example: '*',
    },
    [CONDITIONAL.ifMatchWrite]: {
      name: 'If-Match',
      in: 'header',
      ...required,
      description: `The Resource-ETag of the resource at {id} as you last read it (from any GET of it, a relationship's or a related URL's, or from the answer of your last write), or *. The write runs only when one of the tags names the current version (strong comparison: a W/ tag never matches; the ETag of a read names a representation, not the version, and does not match either); else 412 and nothing is written. A missing resource is 404 whatever the tag.${requiredText}`,
      schema: TAG_LIST,
      example: '*',
    },
    [CONDITIONAL.ifNoneMatchWrite]: {
      name: 'If-None-Match',
      in: 'header',
      description:
        'Resource-ETags, or *: when one names the current version of the resource at {id} (* any existing one), the write is 412 and nothing is written.',
      schema: TAG_LIST,
      example: '"not-the-version"',
    },
    [CONDITIONAL.ifMatchBulk]: {
      name: 'If-Match',
      in: 'header',
      ...required,
      description: `A bulk update has no single version: only * applies (a list of tags is 412, and so is any If-None-Match).${requiredText}`,
      schema: { type: 'string', enum: ['*'] },
    },
  };
}

/**
 * The shared headers, parameters and responses of conditional requests (issue 30), as server-koa answers
 * them whatever the format. `errorContent` is the format's error body (its `4XX` content), which 412 and 428
 * carry; 428 is there only when the API requires If-Match.
 */
export function conditionalComponents(
  requireIfMatch: boolean,
  errorContent: OpenApiObject | undefined,
): Record<'headers' | 'parameters' | 'responses', Record<string, OpenApiObject>> {
  const withBody = errorContent ? { content: errorContent } : {};
  return {
    headers: headers(),
    parameters: parameters(requireIfMatch),
    responses: {
      [CONDITIONAL.notModified]: {
        description:
          'Not Modified: If-None-Match names the current ETag. No body; the headers of the 200 but Content-Type, the tag as the client holds it.',
        headers: {
          ETag: headerRef(CONDITIONAL.etag),
          'Resource-ETag': headerRef(CONDITIONAL.resourceTagWhenFound),
        },
      },
      [CONDITIONAL.preconditionFailed]: {
        description:
          'Precondition Failed: If-Match names no current tag, or (on a write) If-None-Match names the current version; the error points at the header (source.header in JSON:API). Nothing was written.',
        ...withBody,
      },
      ...(requireIfMatch
        ? {
            [CONDITIONAL.preconditionRequired]: {
              description:
                'Precondition Required: this server requires If-Match on every write of an existing resource; read the Resource-ETag and send it. Nothing was written.',
              ...withBody,
            },
          }
        : {}),
    },
  };
}

/**
 * The headers of a 200 that is about one resource only when there is one (Format A's to-one related URL):
 * the generator cannot tell such a route from a list on its kind alone, so the format says it.
 */
export const resourceTagWhenFound = (): OpenApiObject => ({
  'Resource-ETag': headerRef(CONDITIONAL.resourceTagWhenFound),
});
