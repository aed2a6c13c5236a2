/**
 * A rule that cannot be used, naming its place as a JSON path into the rules (`roles.member.projects.read.
 * where[0].name`). `compileRules` throws it at start or reload; `scope()` throws it when a `where` function
 * returns a filter that does not fit the collection, which is the deployment's bug (a 500), not the
 * client's.
 */
export class AccessRulesError extends Error {
  /** The file or object the rules came from, e.g. `colapi.config.json`. */
  readonly source: string;
  /** The JSON path of the offending value. */
  readonly path: string;
  /** What is wrong there. */
  readonly detail: string;

  constructor(source: string, path: string, detail: string) {
    super(path === '' ? `${source}: ${detail}` : `${source}: ${path}: ${detail}`);
    this.name = 'AccessRulesError';
    this.source = source;
    this.path = path;
    this.detail = detail;
  }
}

/** Throws an AccessRulesError: the compilers' one way to refuse. */
export type Fail = (path: string, detail: string) => never;
