/** Who a request is: what {@link Authenticator.authenticate} answers. */
export interface Identity {
  /** The role the request acts as: read from the token, or the configured anonymous role. */
  readonly role: string;
  /** The token's `sub`, when it has one. */
  readonly sub?: string;
  /** Every claim of the verified token (none for an anonymous request). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** True when the request had no credentials and was given the anonymous role. */
  readonly anonymous: boolean;
}
