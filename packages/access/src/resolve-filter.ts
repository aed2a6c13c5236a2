import type { Filter, ScalarValue } from '@colapi/query-ast';
import { ClaimRef, claimScalar, claimValue, coerceClaimValue } from './claims.js';
import { FALSE, isFalse } from './false-filter.js';
import type { Identity } from './identity.js';
import type { Template } from './filter-template.js';

/**
 * The filter a Template stands for, for one identity: claims become values (bindings), and a comparison
 * whose claim is missing, null or of a type its column refuses becomes FALSE, in place. No filter of the
 * language negates, so a FALSE comparison only ever narrows what the rule admits.
 *
 * FALSE is folded where that is exact and nothing else: an `and` with a FALSE member is FALSE, an `or`
 * whose members are all FALSE is FALSE, a `has`/`any` whose nested filter is FALSE is FALSE. An `or`
 * keeps its FALSE members beside the others.
 */
export function resolveFilter(template: Template, identity: Identity): Filter | undefined {
  switch (template.kind) {
    case 'static':
      return template.filter;
    case 'function':
      return resolveFilter(template.compile(template.fn(identity)), identity);
    default:
      return resolveNode(template, identity);
  }
}

function resolveNode(template: Template, identity: Identity): Filter {
  switch (template.kind) {
    case 'static':
    case 'function':
      // A nested static part is one filter object, never an empty list; a function only stands at the top.
      return resolveFilter(template, identity) ?? FALSE;
    case 'and': {
      const filters = template.parts.map((p) => resolveNode(p, identity));
      return filters.some(isFalse) ? FALSE : { kind: 'and', filters };
    }
    case 'or': {
      const filters = template.parts.map((p) => resolveNode(p, identity));
      return filters.every(isFalse) ? FALSE : { kind: 'or', filters };
    }
    case 'relation': {
      const nested = resolveNode(template.filter, identity);
      return isFalse(nested)
        ? FALSE
        : { kind: 'relation', relation: template.relation, op: template.op, filter: nested };
    }
    case 'claim': {
      const value = claimScalar(identity, template.claim, template.column, template.like);
      return value === undefined ? FALSE : { kind: 'compare', field: template.field, op: template.op, value };
    }
    case 'claim-list': {
      const values = listValues(template.items, template.column, identity);
      return values === undefined ? FALSE : { kind: 'compare', field: template.field, op: template.op, value: values };
    }
  }
}

/** The values of an `in`/`not_in` list, or undefined when any claim among them cannot be a value. */
function listValues(
  items: readonly (ScalarValue | ClaimRef)[] | ClaimRef,
  column: Extract<Template, { kind: 'claim-list' }>['column'],
  identity: Identity,
): ScalarValue[] | undefined {
  if (items instanceof ClaimRef) {
    const raw = claimValue(identity, items);
    if (!Array.isArray(raw)) return undefined;
    const values = raw.map((v) => coerceClaimValue(v, column));
    return values.includes(undefined) ? undefined : (values as ScalarValue[]);
  }
  const values: ScalarValue[] = [];
  for (const item of items) {
    const value = item instanceof ClaimRef ? claimScalar(identity, item, column) : item;
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}
