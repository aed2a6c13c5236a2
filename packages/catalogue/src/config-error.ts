/** A configuration that does not fit the catalogue or the schema rules; `path` says where in the config file. */
export class CatalogueConfigError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'CatalogueConfigError';
  }
}
