/** The bounds a deployment puts on what one request may ask for. */
export interface QueryLimits {
  /** Page size when the client names none (the specification's 10). */
  readonly defaultPageSize: number;
  /** Largest page a client may ask for. */
  readonly maxPageSize: number;
  /** Deepest `include` path, e.g. 3 allows `a.b.c`. */
  readonly maxIncludeDepth: number;
  /** Deepest nesting of filter objects. */
  readonly maxFilterDepth: number;
  /** Most filter objects in one request. */
  readonly maxFilterNodes: number;
}

export const DEFAULT_LIMITS: QueryLimits = Object.freeze({
  defaultPageSize: 10,
  maxPageSize: 100,
  maxIncludeDepth: 3,
  maxFilterDepth: 8,
  maxFilterNodes: 100,
});
