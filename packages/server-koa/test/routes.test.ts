import { expect } from 'chai';
import { ROUTES } from '../src/routes.js';

describe('ROUTES', () => {
  it('lists the paths under the prefix, relationship paths before related items', () => {
    expect(ROUTES.map((r) => r.path)).to.deep.equal([
      '/eval/:collection',
      '/:collection',
      '/:collection/:id',
      '/:collection/:id/relationships/:relation',
      '/:collection/:id/:relation',
      '/:collection/:id/:relation/:relatedId',
    ]);
  });

  it('maps the parameters of each path to its route', () => {
    const p = { collection: 'article', id: '3', relation: 'comments', relatedId: '9' };
    expect(ROUTES.map((r) => r.route(p))).to.deep.equal([
      { collection: 'article', evaluate: true },
      { collection: 'article' },
      { collection: 'article', id: '3' },
      { collection: 'article', id: '3', relation: 'comments', relationships: true },
      { collection: 'article', id: '3', relation: 'comments' },
      { collection: 'article', id: '3', relation: 'comments', relatedId: '9' },
    ]);
  });
});
