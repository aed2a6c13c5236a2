import type { Identity } from './identity.js';

/** A Format A filter object, or a list of them that must all hold; any `val` may be `{ "claim": "path" }`. */
export type FilterJson = Readonly<Record<string, unknown>> | readonly Readonly<Record<string, unknown>>[];

/** A `where`; the library form also takes a function of the identity, checked on each call. */
export type WhereRule = FilterJson | ((identity: Identity) => FilterJson);

/** `{ "claim": "org.id" }`: a member of the token's claims, by dotted path. */
export interface ClaimJson {
  readonly claim: string;
}

interface Fields {
  /** Only these fields. */
  readonly columns?: readonly string[];
  /** Every field but these. */
  readonly exclude?: readonly string[];
}

export interface ReadRule extends Fields {
  readonly where?: WhereRule;
}

export interface CreateRule extends Fields {
  /** Field → literal or claim, written by the server; the client may not send these fields. */
  readonly set?: Readonly<Record<string, unknown>>;
  readonly check?: FilterJson;
}

export interface UpdateRule extends CreateRule {
  readonly where?: WhereRule;
}

export interface DeleteRule {
  readonly where?: WhereRule;
}

/** One role's rules on one collection (or on every collection, under `"*"`). */
export interface CollectionRules {
  readonly read?: boolean | ReadRule;
  readonly create?: boolean | CreateRule;
  readonly update?: boolean | UpdateRule;
  readonly delete?: boolean | DeleteRule;
  readonly evaluate?: boolean;
}

/** The `roles` of colapi.config.json, wrapped: `{ roles: { <role>: { <collection> | "*": CollectionRules } } }`. */
export interface AccessRules {
  readonly roles: Readonly<Record<string, Readonly<Record<string, CollectionRules>>>>;
}
