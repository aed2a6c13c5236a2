import { ApiError } from '@colapi/query-ast';

/** One entity-tag of a precondition header: its opaque text (quotes included) and whether it is weak. */
export interface EntityTag {
  readonly opaque: string;
  readonly weak: boolean;
}

/** A parsed `If-Match` or `If-None-Match`: `*`, or the list of entity-tags it names. */
export type TagCondition = '*' | readonly EntityTag[];

/** One entity-tag (RFC 9110 §8.8.3): `W/` optional, then a quoted string of etagc characters. */
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

/**
 * The value of a precondition header, or undefined when it is absent. A value that is neither `*` nor a
 * list of entity-tags is 400 naming the header: silently ignoring it would run a write the client meant
 * to make conditional.
 */
export function tagCondition(value: string | undefined, header: string): TagCondition | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '*') return '*';
  const tags: EntityTag[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    // Empty list elements are allowed by RFC 9110's list syntax (§5.6.1) and count for nothing.
    if (item === '') continue;
    const m = ENTITY_TAG.exec(item);
    if (!m) {
      throw new ApiError(
        400,
        'Bad Request',
        `${header} must be "*" or a comma-separated list of entity-tags such as "abc" or W/"abc"`,
        { header },
      );
    }
    tags.push({ opaque: m[2]!, weak: m[1] !== undefined });
  }
  if (tags.length === 0) throw new ApiError(400, 'Bad Request', `${header} names no entity-tag`, { header });
  return tags;
}

/** Content-codings compression() sends, each marking the tag of its bytes (`"abc-br"` for `"abc"`). */
const CODINGS = ['br', 'gzip'] as const;

/** The tag of a content-coded representation of the one tagged `current` (compression.ts). */
export const codedTag = (current: string, coding: string): string => `${current.slice(0, -1)}-${coding}"`;

/** Whether a tag a client sent names `current`, as sent or content-coded. */
const names = (opaque: string, current: string): boolean =>
  opaque === current || CODINGS.some((c) => opaque === codedTag(current, c));

/** Strong comparison (RFC 9110 §8.8.3.2): neither weak, and the same opaque text. */
export function strongMatch(condition: TagCondition, current: string): boolean {
  if (condition === '*') return true;
  for (const tag of condition) if (!tag.weak && names(tag.opaque, current)) return true;
  return false;
}

/**
 * Weak comparison: the same opaque text, weak or not. Answers the tag matched as the client holds it (a
 * content-coded one when it got compressed bytes), which a 304 repeats; `current` for `*`; undefined for none.
 */
export function weakMatch(condition: TagCondition, current: string): string | undefined {
  if (condition === '*') return current;
  for (const tag of condition) if (names(tag.opaque, current)) return tag.opaque;
  return undefined;
}
