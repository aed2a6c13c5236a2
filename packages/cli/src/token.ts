import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { UsageError, type TokenArguments } from './arguments.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from './config-file.js';

/**
 * `colapi token`: a development token for a role of the configuration, signed with its first shared
 * secret (@colapi/auth's signDevelopmentToken), so that `colapi serve` with the same file accepts it. It
 * reads the configuration only, never the database: a role is known by its name in `roles`, whose rules
 * `colapi serve` checks against the collections. Every refusal is a UsageError (one line, exit 2).
 */
export async function developmentToken(args: TokenArguments): Promise<string> {
  const { config, file } = loadConfig(args.config, args.cwd);
  const source = args.config ?? DEFAULT_CONFIG_FILE;
  if (file === undefined)
    throw new UsageError(
      `no ${DEFAULT_CONFIG_FILE} here (or --config FILE): a token is signed with the key of its auth and names one of its roles`,
    );
  if (config.auth === undefined)
    throw new UsageError(
      `${source} has no auth: colapi serve checks no token with it (add auth and roles; see colapi --help)`,
    );
  // validateConfig has checked auth, and that roles is beside it.
  const auth = validateAuthConfig(config.auth, source);
  const roles = Object.keys(config.roles!);
  if (!roles.includes(args.role))
    throw new UsageError(
      `--role ${args.role}: ${source} has no rules for that role; its roles: ${roles.join(', ') || 'none'}`,
    );
  if (!auth.jwt.some((v) => v.kind === 'secret'))
    throw new UsageError(
      `${source}: no auth.jwt verifier has a secret, and colapi token signs with a shared secret; tokens for this configuration come from its identity provider`,
    );
  try {
    return await signDevelopmentToken(auth, {
      role: args.role,
      ...(args.sub === undefined ? {} : { sub: args.sub }),
      claims: args.claims,
      expiresIn: args.expires,
    });
  } catch (error) {
    // What is left to refuse is a claim the token sets itself (sub, exp, the role claim, …).
    throw new UsageError(`--claim: ${(error as Error).message.replace(/^claims: /, '')}`);
  }
}
