import type { Route } from '@colapi/wire-format';

/** The paths under the prefix, most specific first; each maps its parameters to a Route. */
export const ROUTES: readonly { path: string; route: (p: Record<string, string>) => Route }[] = [
  { path: '/eval/:collection', route: (p) => ({ collection: p.collection!, evaluate: true }) },
  { path: '/:collection', route: (p) => ({ collection: p.collection! }) },
  { path: '/:collection/:id', route: (p) => ({ collection: p.collection!, id: p.id! }) },
  {
    path: '/:collection/:id/relationships/:relation',
    route: (p) => ({ collection: p.collection!, id: p.id!, relation: p.relation!, relationships: true }),
  },
  {
    path: '/:collection/:id/:relation',
    route: (p) => ({ collection: p.collection!, id: p.id!, relation: p.relation! }),
  },
  {
    path: '/:collection/:id/:relation/:relatedId',
    route: (p) => ({ collection: p.collection!, id: p.id!, relation: p.relation!, relatedId: p.relatedId! }),
  },
];
