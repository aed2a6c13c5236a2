import { EVERY_COLLECTION, FALSE } from '@colapi/access';
import { expect } from 'chai';
import { compile, EXAMPLE, who } from './helpers.js';
import { registry } from './registry.js';

describe('AccessPolicy', () => {
  const policy = compile(EXAMPLE);

  it('has no scope for a role it does not know, nor for a collection the role has no rule for', () => {
    expect(policy.scope(who({ tenant: 1 }, 'admin'), 'projects')).to.equal(undefined);
    expect(policy.scope(who({ tenant: 1 }, '__proto__'), 'projects')).to.equal(undefined);
    expect(policy.scope(who({ tenant: 1 }), 'posts')).to.equal(undefined);
    expect(policy.scope(who({ tenant: 1 }), 'nothing')).to.equal(undefined);
    expect(policy.roles.has('admin')).to.equal(false);
  });

  it('lists the collections each role sees, in the registry order', () => {
    expect([...policy.visibleCollections(who({}))]).to.deep.equal(['projects', 'tags']);
    expect([...policy.visibleCollections(who({}, 'anon'))]).to.deep.equal(['posts']);
    expect([...policy.visibleCollections(who({}, 'admin'))]).to.deep.equal([]);
  });

  it('resolves the example for a member', () => {
    const scope = policy.scope(who({ tenant: 9, sub: 'u1' }), 'projects')!;
    const tenant = { kind: 'compare', field: { relations: [], column: 'tenant_id' }, op: 'eq', value: 9 };
    const owner = { kind: 'compare', field: { relations: [], column: 'owner_id' }, op: 'eq', value: 'u1' };
    expect(scope.collection).to.equal(registry.collection('projects'));
    expect(scope.read!.where).to.deep.equal(tenant);
    expect(scope.read!.visible.has('secret_note')).to.equal(false);
    // users and teams are not readable: their relationships do not exist for a member.
    expect(scope.read!.visible.has('owner')).to.equal(false);
    expect(scope.read!.visible.has('tags')).to.equal(true);
    expect(scope.create!.where).to.equal(undefined);
    expect([...scope.create!.set]).to.deep.equal([
      ['tenant_id', 9],
      ['owner_id', 'u1'],
    ]);
    // update and delete reach only rows read shows.
    expect(scope.update!.where).to.deep.equal({ kind: 'and', filters: [tenant, owner] });
    expect(scope.update!.writable.has('tenant_id')).to.equal(false);
    expect(scope.delete!.where).to.deep.equal({ kind: 'and', filters: [tenant, owner] });
    expect(scope.evaluate!.where).to.deep.equal(tenant);
    expect(Object.isFrozen(scope)).to.equal(true);
  });

  it('without the tenant claim, a member reads, updates, deletes and evaluates nothing, and cannot create', () => {
    const scope = policy.scope(who({ sub: 'u1' }), 'projects')!;
    for (const where of [scope.read!.where, scope.update!.where, scope.delete!.where, scope.evaluate!.where]) {
      expect(where).to.equal(FALSE);
    }
    expect(scope.create!.missing).to.deep.equal(['tenant_id']);
  });

  it('anon reads published posts; nothing else exists for it', () => {
    const scope = policy.scope(who({}, 'anon'), 'posts')!;
    expect(scope.read!.where).to.deep.include({ op: 'eq', value: true });
    expect(scope.create).to.equal(undefined);
    expect(scope.update).to.equal(undefined);
    expect(scope.delete).to.equal(undefined);
    expect(scope.evaluate).to.equal(undefined);
    // posts.author leads to users, which anon cannot read.
    expect([...scope.read!.visible]).to.deep.equal(['id', 'title', 'published', 'author_id']);
  });

  describe(`"${EVERY_COLLECTION}"`, () => {
    const star = compile({
      roles: {
        auditor: { '*': { read: true, evaluate: true } },
        editor: {
          '*': { read: { where: { name: 'id', op: '>', val: 0 } }, update: true, delete: true },
          tags: { read: true },
          posts: {
            read: { where: [{ name: 'author_id', op: '==', val: { claim: 'sub' } }] },
            update: { columns: ['title'] },
          },
        },
      },
    });

    it('gives the same rules on every collection', () => {
      expect([...star.visibleCollections(who({}, 'auditor'))]).to.deep.equal([...registry.collections.keys()]);
      for (const name of registry.collections.keys()) {
        const scope = star.scope(who({}, 'auditor'), name)!;
        expect(scope.evaluate, name).not.to.equal(undefined);
        expect(scope.update, name).to.equal(undefined);
      }
      expect(star.scope(who({}, 'auditor'), 'projects')!.read!.visible.has('owner')).to.equal(true);
    });

    it('a named entry overrides it whole, action by action nothing merges', () => {
      const tags = star.scope(who({}, 'editor'), 'tags')!;
      expect(tags.read!.where).to.equal(undefined);
      expect(tags.update).to.equal(undefined);
      expect(tags.delete).to.equal(undefined);
      const posts = star.scope(who({ sub: 'u1' }, 'editor'), 'posts')!;
      expect(posts.read!.where).to.deep.include({ value: 'u1' });
      expect([...posts.update!.writable]).to.deep.equal(['title']);
      expect(posts.delete).to.equal(undefined);
      const teams = star.scope(who({}, 'editor'), 'teams')!;
      expect(teams.read!.where).to.deep.include({ op: 'gt', value: 0 });
      expect(teams.delete!.where).to.deep.include({ op: 'gt', value: 0 });
    });
  });
});
