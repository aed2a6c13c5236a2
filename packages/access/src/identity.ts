/**
 * Who is asking, as the authentication stage answers it. `@colapi/auth` owns the real type; this is the
 * part the rules read (the two will be unified). `claims` is the verified token's payload: a rule's
 * `{ "claim": "sub" }` reads `claims.sub`, never the members beside it.
 */
export interface Identity {
  readonly role: string;
  readonly sub?: string;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly anonymous: boolean;
}
