export {
  HELP,
  parseArguments,
  UsageError,
  type Arguments,
  type ServeArguments,
  type TokenArguments,
} from './arguments.js';
export { checkAccess, type ServedAccess } from './check-access.js';
export { DEFAULT_CONFIG_FILE, loadConfig } from './config-file.js';
export { ConfigError, validateConfig, type ColapiConfig } from './validate-config.js';
export { developmentToken } from './token.js';
export { DatabaseUnavailable, openGeneration, type Generation, type GenerationSettings } from './generation.js';
export { originOf, serveCatalogue, type CatalogueServer, type ServeOptions } from './serve.js';
export { main, type Output } from './main.js';
