export { HELP, parseArguments, UsageError, type Arguments, type ServeArguments } from './arguments.js';
export { DEFAULT_CONFIG_FILE, loadConfig } from './config-file.js';
export { ConfigError, validateConfig } from './validate-config.js';
export { DatabaseUnavailable, openGeneration, type Generation, type GenerationSettings } from './generation.js';
export { originOf, serveCatalogue, type CatalogueServer, type ServeOptions } from './serve.js';
export { main, type Output } from './main.js';
