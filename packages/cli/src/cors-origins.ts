import { ConfigError, type ColapiConfig } from './validate-config.js';

/**
 * The configuration with `--cors`'s origins in place of its `cors.origins` (the command line wins); its
 * other CORS settings stay. Without `--cors`, the configuration as it is.
 */
export function withCorsOrigins(config: ColapiConfig, origins: readonly string[] | undefined): ColapiConfig {
  if (origins === undefined) return config;
  if (origins.includes('*') && config.cors?.credentials)
    throw new ConfigError(
      '--cors "*" cannot go with the configuration\'s cors.credentials: true: list the origins exactly',
    );
  return { ...config, cors: { ...config.cors, origins } };
}
