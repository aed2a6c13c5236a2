import type { AccessPolicy } from '@colapi/access';
import { narrowRegistry, type Registry } from '@colapi/schema';

/**
 * What one role sees of the API, whatever its claims: the collections it has a rule for, each with the
 * fields its `read` shows (`read`), or those plus what its writes may write (`write`, for decoding a
 * write's body: a write-only field exists there and nowhere else). A field or collection outside them does
 * not exist for the role: the parsers refuse it exactly as an unknown one.
 */
export interface RoleView {
  readonly read: Registry;
  readonly write: Registry;
}

export function roleView(policy: AccessPolicy, registry: Registry, role: string): RoleView {
  const fields = (name: string) => policy.fieldsOf(role, name);
  return {
    // A collection without read shows its key only, so a write's answer echoes nothing else.
    read: narrowRegistry(registry, (c) => (fields(c.name) ? (fields(c.name)!.visible ?? new Set()) : undefined)),
    write: narrowRegistry(registry, (c) => {
      const f = fields(c.name);
      if (!f) return undefined;
      return new Set([...(f.visible ?? []), ...(f.create ?? []), ...(f.update ?? [])]);
    }),
  };
}
