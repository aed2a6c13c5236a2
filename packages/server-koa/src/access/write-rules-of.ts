import { allOf, MISSING_CLAIM, type ActionScope } from '@colapi/access';
import type { Filter, RelationshipWrite } from '@colapi/query-ast';
import type { CollectionSchema } from '@colapi/schema';
import type { WriteAction, WriteRules } from '../executor/write-rules.js';
import type { Caller } from './caller.js';
import { forbidden } from './forbidden.js';

/** A write into another resource through a relationship (a nested create, update or delete). */
function nested(change: RelationshipWrite): boolean {
  if (change.mode === 'unlink') return false;
  const refs = change.mode === 'set' ? (change.target ? [change.target] : []) : change.targets;
  return refs.some((r) => r.kind === 'new' || r.write !== undefined || r.delete === true);
}

/** The caller's write rules (WriteRules), from the scopes its claims resolved. */
export function writeRulesOf(caller: Caller): WriteRules {
  const role = caller.identity.role;
  const scopeOf = (action: WriteAction, collection: CollectionSchema): ActionScope => {
    const scope = caller.scope(collection.name)?.[action];
    if (!scope) throw forbidden(`role ${role} may not ${action} ${collection.name}`);
    if (scope.missing.length) {
      throw forbidden(
        `the token lacks what ${collection.name}.${scope.missing[0]} is set from, so role ${role} may not ${action} it`,
      );
    }
    return scope;
  };
  const withSet = (scope: ActionScope, values: Readonly<Record<string, unknown>>) => {
    const out: Record<string, unknown> = { ...values };
    for (const [field, value] of scope.set) if (value !== MISSING_CLAIM) out[field] = value;
    return out;
  };
  const checkValues = (scope: ActionScope, collection: CollectionSchema, values: Readonly<Record<string, unknown>>) => {
    for (const field of Object.keys(values)) {
      if (!scope.writable.has(field)) {
        throw forbidden(`role ${role} may not write ${collection.name}.${field}`, `/data/attributes/${field}`);
      }
    }
  };
  return {
    write(action, collection, write) {
      const scope = scopeOf(action, collection);
      checkValues(scope, collection, write.values);
      for (const [name, change] of Object.entries(write.relationships)) {
        // A to-one whose foreign key the rules set is theirs too: the client may not point it elsewhere.
        const join = collection.model.relationships.get(name)?.join;
        const setByRules = join?.kind === 'belongs-to' && scope.set.has(join.ownColumn);
        if (!scope.writable.has(name) || setByRules) {
          throw forbidden(`role ${role} may not write ${collection.name}.${name}`, `/data/relationships/${name}`);
        }
        // Writes into other resources would meet their own collection's rules, which no path applies yet.
        if (nested(change)) {
          throw forbidden(
            `role ${role}: writing into related resources through ${collection.name}.${name} is not allowed under access rules`,
            `/data/relationships/${name}`,
          );
        }
      }
      return { values: withSet(scope, write.values), relationships: write.relationships };
    },
    values(collection, values) {
      const scope = scopeOf('update', collection);
      checkValues(scope, collection, values);
      return withSet(scope, values);
    },
    after(action, collection): Filter | undefined {
      const scope = caller.scope(collection.name)?.[action];
      return scope && allOf(action === 'update' ? scope.where : undefined, scope.check);
    },
  };
}
