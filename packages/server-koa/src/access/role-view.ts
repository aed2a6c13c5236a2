import type { AccessPolicy } from '@colapi/access';
import { narrowRegistry, Registry, registrationOf, type CollectionRegistration, type HttpMethod } from '@colapi/schema';

/**
 * What one role sees of the API, whatever its claims: the collections it has a rule for, each with the
 * fields its `read` shows (`read`), or those plus what its writes may write (`write`, for decoding a
 * write's body: a write-only field exists there and nowhere else). A field or collection outside them does
 * not exist for the role: the parsers refuse it exactly as an unknown one.
 */
export interface RoleView {
  readonly read: Registry;
  readonly write: Registry;
  /** For its OpenAPI document: `read`'s collections with only the methods and functions the role may use. */
  readonly described: Registry;
}

export function roleView(policy: AccessPolicy, registry: Registry, role: string): RoleView {
  const fields = (name: string) => policy.fieldsOf(role, name);
  const described: CollectionRegistration[] = [];
  for (const c of registry.collections.values()) {
    const f = fields(c.name);
    if (!f) continue;
    const allowed = new Set<HttpMethod>([
      ...(f.visible ? (['GET'] as const) : []),
      ...(f.create ? (['POST'] as const) : []),
      ...(f.update ? (['PATCH', 'PUT'] as const) : []),
      ...(f.delete ? (['DELETE'] as const) : []),
    ]);
    const r = registrationOf(c, f.visible ?? new Set());
    described.push({
      model: r.model,
      options: {
        ...r.options,
        methods: [...c.methods].filter((m) => allowed.has(m)),
        allow_functions: c.allowFunctions && f.evaluate,
      },
    });
  }
  return {
    described: new Registry(described),
    // A collection without read shows its key only, so a write's answer echoes nothing else.
    read: narrowRegistry(registry, (c) => (fields(c.name) ? (fields(c.name)!.visible ?? new Set()) : undefined)),
    write: narrowRegistry(registry, (c) => {
      const f = fields(c.name);
      if (!f) return undefined;
      return new Set([...(f.visible ?? []), ...(f.create ?? []), ...(f.update ?? [])]);
    }),
  };
}
