export { isJwsAlgorithm, JWS_ALGORITHMS, type JwsAlgorithm, type KeyRequirement } from './algorithms.js';
export {
  AUTH_DEFAULTS,
  type AuthConfig,
  type JwksVerifierConfig,
  type PublicKeyVerifierConfig,
  type SecretVerifierConfig,
  type VerifierConfig,
} from './auth-config.js';
export { AUTH_FAILURE_STATUS, AuthError, type AuthFailureReason } from './auth-error.js';
export { auditLine, holdsToken, type AuditFields } from './audit-line.js';
export { createAuthenticator, type Authenticator, type AuthenticatorOptions } from './create-authenticator.js';
export type { Identity } from './identity.js';
export { parseClaimArgument } from './parse-claim-argument.js';
export { MAX_TOKEN_LENGTH } from './read-bearer-token.js';
export { signDevelopmentToken, type DevelopmentTokenOptions } from './sign-development-token.js';
export { AuthConfigError, MIN_SECRET_LENGTH, validateAuthConfig } from './validate-auth-config.js';
