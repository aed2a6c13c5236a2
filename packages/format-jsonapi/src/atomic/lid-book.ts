import { ApiError } from '@colapi/query-ast';

const bad = (detail: string, pointer: string) => ApiError.badRequest(detail, { pointer });

/**
 * The lids of one request: assigned by type in order; a second assignment, a use before assignment or a use
 * under another type is 400.
 */
export class LidBook {
  private readonly types = new Map<string, string>();

  assign(type: string, lid: string, pointer: string): void {
    if (this.types.has(lid)) throw bad(`lid "${lid}" is assigned by an earlier operation already`, pointer);
    this.types.set(lid, type);
  }

  use(type: string, lid: string, pointer: string): void {
    const assigned = this.types.get(lid);
    if (assigned === undefined)
      throw bad(`lid "${lid}" is used before an operation assigns it (only an earlier add may)`, pointer);
    if (assigned !== type) throw bad(`lid "${lid}" belongs to a ${assigned}, not to a ${type}`, pointer);
  }
}
