import { AccessRulesError, compileRules, type AccessPolicy } from '@colapi/access';
import { AuthConfigError, validateAuthConfig, type AuthConfig } from '@colapi/auth';
import type { Registry } from '@colapi/schema';
import type { AccessOptions } from '@colapi/server-koa';
import { ConfigError, type ColapiConfig } from './validate-config.js';

/** Access control as one generation serves it: the settings checked, and what createApi is given. */
export interface ServedAccess {
  readonly auth: AuthConfig;
  readonly policy: AccessPolicy;
  readonly options: AccessOptions;
}

/**
 * The configuration's `auth` and `roles` checked against the collections served (after renames and
 * exclusions): undefined without them. A rule that does not fit is a ConfigError naming the file and the
 * JSON path (`colapi.config.json: roles.member.book.read.where[0].name: …`), so a start fails with exit 2
 * and a reload keeps the previous generation, exactly as for the rest of the file.
 */
export function checkAccess(
  config: ColapiConfig,
  registry: Registry,
  source: string,
  audit?: (line: string) => void,
): ServedAccess | undefined {
  if (config.auth === undefined) return undefined;
  try {
    const auth = validateAuthConfig(config.auth, source);
    const policy = compileRules({ roles: config.roles }, registry, source);
    // createApi checks both again, as written; they are known to pass.
    return {
      auth,
      policy,
      options: { auth: config.auth, roles: config.roles, ...(audit ? { audit } : {}) },
    };
  } catch (error) {
    // An in-process caller's configuration may not have been through validateConfig.
    if (error instanceof AccessRulesError || error instanceof AuthConfigError) throw new ConfigError(error.message);
    throw error;
  }
}
