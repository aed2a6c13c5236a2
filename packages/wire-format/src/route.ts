/** The parts of a path under the prefix: `/api/<collection>/<id>/<relation>/<relatedId>` and the like. */
export interface Route {
  readonly collection: string;
  readonly id?: string;
  readonly relation?: string;
  readonly relatedId?: string;
  /** `/<collection>/<id>/relationships/<relation>` */
  readonly relationships?: boolean;
  /** `/eval/<collection>` */
  readonly evaluate?: boolean;
}

export type RouteKind = 'collection' | 'resource' | 'related' | 'related-item' | 'relationship' | 'evaluate';

/** Every kind of path, in the order documents list them. */
export const ROUTE_KINDS: readonly RouteKind[] = Object.freeze([
  'collection',
  'resource',
  'related',
  'related-item',
  'relationship',
  'evaluate',
]);

export function routeKind(route: Route): RouteKind {
  if (route.evaluate) return 'evaluate';
  if (route.relationships) return 'relationship';
  if (route.relatedId !== undefined) return 'related-item';
  if (route.relation !== undefined) return 'related';
  if (route.id !== undefined) return 'resource';
  return 'collection';
}
