import type { CollectionScope } from '@colapi/access';
import type { Operation } from '@colapi/query-ast';
import type { Caller } from './caller.js';
import { forbidden } from './forbidden.js';

type Action = 'read' | 'create' | 'update' | 'delete' | 'evaluate';

const ACTION: Readonly<Record<Operation['kind'], Action>> = {
  list: 'read',
  fetch: 'read',
  'fetch-related-one': 'read',
  'fetch-linkage': 'read',
  evaluate: 'evaluate',
  create: 'create',
  update: 'update',
  'update-many': 'update',
  delete: 'delete',
  'update-linkage': 'update',
};

/**
 * 403 unless the caller's role may do what the operation does on its collection (and read the owner of a
 * related path). Which rows it may do it on is the compiler's part (row scopes); a collection it has no
 * rule for was already 404, as unknown.
 * The rules of a write itself (fields, `set`, `check`, the rows it may touch) are the executor's, on
 * every write path (WriteRules).
 */
export function authorize(caller: Caller, operation: Operation): void {
  const action = ACTION[operation.kind];
  const name = operation.collection.name;
  const scope: CollectionScope | undefined = caller.scope(name);
  if (!scope?.[action]) throw forbidden(`role ${caller.identity.role} may not ${action} ${name}`);
  if ('scope' in operation && operation.scope && !caller.scope(operation.scope.owner.name)?.read) {
    throw forbidden(`role ${caller.identity.role} may not read ${operation.scope.owner.name}`);
  }
}
