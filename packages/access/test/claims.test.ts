import { AccessRulesError, FALSE, type FilterJson, isFalse, MISSING_CLAIM } from '@colapi/access';
import type { Filter } from '@colapi/query-ast';
import { expect } from 'chai';
import { on, who } from './helpers.js';

/** The read filter of projects for `claims`, under `where`. */
function readWhere(where: FilterJson, claims: Record<string, unknown>): Filter | undefined {
  return on('projects', { read: { where } }).scope(who(claims), 'projects')!.read!.where;
}

const field = (column: string, relations: string[] = []) => ({ relations, column });
const tenantIs = { name: 'tenant_id', op: '==', val: { claim: 'tenant' } };

describe('claims', () => {
  describe('travel as values of the Filter AST, coerced to their column', () => {
    it('an integer claim on an integer column', () => {
      expect(readWhere([tenantIs], { tenant: 7 })).to.deep.equal({
        kind: 'compare',
        field: field('tenant_id'),
        op: 'eq',
        value: 7,
      });
    });

    it('the string "1" on an integer column is 1, as in a client filter; "1.5" and "abc" are FALSE', () => {
      expect(readWhere([tenantIs], { tenant: '1' })).to.deep.include({ value: 1 });
      expect(readWhere([tenantIs], { tenant: '1.5' })).to.equal(FALSE);
      expect(readWhere([tenantIs], { tenant: 'abc' })).to.equal(FALSE);
      expect(readWhere([tenantIs], { tenant: 2 ** 60 })).to.equal(FALSE);
    });

    it('a number on a string column is its text; an object or a list is FALSE', () => {
      const where = [{ name: 'owner_id', op: '==', val: { claim: 'sub' } }];
      expect(readWhere(where, { sub: 42 })).to.deep.include({ value: '42' });
      expect(readWhere(where, { sub: { id: 'u1' } })).to.equal(FALSE);
      expect(readWhere(where, { sub: ['u1'] })).to.equal(FALSE);
    });

    it('dates are normalised, and a name of the database clock in a claim is FALSE, not a function', () => {
      const where = [{ name: 'started_on', op: '<=', val: { claim: 'until' } }];
      expect(readWhere(where, { until: '2024-05-31' })).to.deep.include({ value: '2024-05-31' });
      expect(readWhere(where, { until: 'CURRENT_DATE' })).to.equal(FALSE);
      expect(readWhere(where, { until: '2024-02-30' })).to.equal(FALSE);
    });

    it('a dotted path reads nested claims, through own members only', () => {
      const where = [{ name: 'tenant_id', op: '==', val: { claim: 'org.tenant' } }];
      expect(readWhere(where, { org: { tenant: 3 } })).to.deep.include({ value: 3 });
      expect(readWhere(where, { org: 3 })).to.equal(FALSE);
      expect(readWhere([{ name: 'name', op: '==', val: { claim: 'toString' } }], {})).to.equal(FALSE);
      expect(readWhere([{ name: 'name', op: '==', val: { claim: 'constructor.name' } }], {})).to.equal(FALSE);
      expect(readWhere([{ name: 'name', op: '==', val: { claim: 'groups.0' } }], { groups: ['a'] })).to.deep.include({
        value: 'a',
      });
    });

    it('a like pattern, and a network address', () => {
      expect(readWhere([{ name: 'name', op: 'like', val: { claim: 'p' } }], { p: 'ab%' })).to.deep.include({
        op: 'like',
        value: 'ab%',
      });
      expect(readWhere([{ name: 'address', op: '<<', val: { claim: 'net' } }], { net: '10.0.0.0/8' })).to.deep.include({
        value: '10.0.0.0/8',
      });
      expect(readWhere([{ name: 'address', op: '<<', val: { claim: 'net' } }], { net: 'nowhere' })).to.equal(FALSE);
    });

    it('in lists: claims among literals, or one claim holding the list', () => {
      const among = [{ name: 'tenant_id', op: 'in', val: [1, { claim: 'tenant' }, '3'] }];
      expect(readWhere(among, { tenant: '2' })).to.deep.include({ op: 'in', value: [1, 2, 3] });
      expect(readWhere(among, {})).to.equal(FALSE);
      const whole = [{ name: 'tenant_id', op: 'not_in', val: { claim: 'blocked' } }];
      expect(readWhere(whole, { blocked: [4, '5'] })).to.deep.include({ op: 'not_in', value: [4, 5] });
      expect(readWhere(whole, { blocked: [] })).to.deep.include({ value: [] });
      expect(readWhere(whole, { blocked: 4 })).to.equal(FALSE);
      expect(readWhere(whole, { blocked: [4, null] })).to.equal(FALSE);
      expect(readWhere(whole, { blocked: [4, 'x'] })).to.equal(FALSE);
    });

    it('claim-free rules are parsed once', () => {
      const policy = on('projects', { read: { where: [{ name: 'archived', op: '==', val: false }] } });
      const a = policy.scope(who({ tenant: 1 }), 'projects');
      expect(policy.scope(who({}), 'projects')).to.equal(a);
      expect(Object.isFrozen(a!.read!.where)).to.equal(true);
    });
  });

  describe('a missing claim makes its comparison FALSE, never null, never dropped', () => {
    it('absent, null or undefined', () => {
      for (const claims of [{}, { tenant: null }, { tenant: undefined }]) {
        const where = readWhere([tenantIs], claims);
        expect(where).to.equal(FALSE);
        expect(isFalse(where)).to.equal(true);
      }
    });

    it('FALSE is the empty or, which sql-compiler compiles to 1 = 0', () => {
      expect(FALSE).to.deep.equal({ kind: 'or', filters: [] });
    });

    it('makes an and FALSE', () => {
      const where = [{ name: 'archived', op: '==', val: false }, tenantIs];
      expect(readWhere(where, {})).to.equal(FALSE);
      expect(readWhere(where, { tenant: 1 })).to.deep.equal({
        kind: 'and',
        filters: [
          { kind: 'compare', field: field('archived'), op: 'eq', value: false },
          { kind: 'compare', field: field('tenant_id'), op: 'eq', value: 1 },
        ],
      });
    });

    it('stays in place inside an or; an or of FALSE only is FALSE', () => {
      const where = {
        or: [
          { name: 'archived', op: '==', val: true },
          { name: 'owner_id', op: '==', val: { claim: 'sub' } },
        ],
      };
      expect(readWhere(where, {})).to.deep.equal({
        kind: 'or',
        filters: [{ kind: 'compare', field: field('archived'), op: 'eq', value: true }, FALSE],
      });
      const both = { or: [tenantIs, { name: 'owner_id', op: '==', val: { claim: 'sub' } }] };
      expect(readWhere(both, { sub: 'u1' })).to.deep.equal({
        kind: 'or',
        filters: [FALSE, { kind: 'compare', field: field('owner_id'), op: 'eq', value: 'u1' }],
      });
      expect(readWhere(both, {})).to.equal(FALSE);
    });

    it('makes has and any FALSE, at any depth', () => {
      const member = {
        name: 'team',
        op: 'has',
        val: { name: 'members', op: 'any', val: { name: 'id', op: '==', val: { claim: 'sub' } } },
      };
      expect(readWhere([member], { sub: 'u1' })).to.deep.equal({
        kind: 'relation',
        relation: 'team',
        op: 'has',
        filter: {
          kind: 'relation',
          relation: 'members',
          op: 'any',
          filter: { kind: 'compare', field: field('id'), op: 'eq', value: 'u1' },
        },
      });
      expect(readWhere([member], {})).to.equal(FALSE);
      const either = { or: [member, { name: 'owner_id', op: '==', val: { claim: 'sub' } }] };
      expect(readWhere(either, { sub: 5 })).to.deep.nested.include({ 'filters[1].value': '5' });
      expect(readWhere(either, {})).to.equal(FALSE);
      const tagged = {
        name: 'tags',
        op: 'any',
        val: {
          or: [
            { name: 'name', op: '==', val: { claim: 'tag' } },
            { name: 'id', op: '<', val: 3 },
          ],
        },
      };
      expect(readWhere([tagged], {})).to.deep.equal({
        kind: 'relation',
        relation: 'tags',
        op: 'any',
        filter: { kind: 'or', filters: [FALSE, { kind: 'compare', field: field('id'), op: 'lt', value: 3 }] },
      });
    });
  });

  describe('in set', () => {
    const policy = on('projects', {
      read: true,
      create: {
        set: { tenant_id: { claim: 'tenant' }, owner_id: { claim: 'sub' }, archived: false, secret_note: null },
      },
    });

    it('claims are coerced to their column, literals were checked at start', () => {
      const create = policy.scope(who({ tenant: '4', sub: 'u1' }), 'projects')!.create!;
      expect([...create.set]).to.deep.equal([
        ['tenant_id', 4],
        ['owner_id', 'u1'],
        ['archived', false],
        ['secret_note', null],
      ]);
      expect(create.missing).to.deep.equal([]);
    });

    it('a missing claim is MISSING_CLAIM, listed in missing: the write must be refused', () => {
      const create = policy.scope(who({ tenant: 'four' }), 'projects')!.create!;
      expect(create.set.get('tenant_id')).to.equal(MISSING_CLAIM);
      expect(create.set.get('owner_id')).to.equal(MISSING_CLAIM);
      expect(create.missing).to.deep.equal(['tenant_id', 'owner_id']);
    });
  });

  describe('a where function of the identity', () => {
    it('is called per scope, and its filter checked like any rule', () => {
      const calls: string[] = [];
      const policy = on('projects', {
        read: {
          where: (identity: { claims: Record<string, unknown> }) => {
            calls.push(String(identity.claims.sub));
            return [{ name: 'owner_id', op: 'in', val: [identity.claims.sub, { claim: 'delegate' }] }];
          },
        },
      });
      expect(policy.scope(who({ sub: 'u1', delegate: 'u2' }), 'projects')!.read!.where).to.deep.include({
        value: ['u1', 'u2'],
      });
      expect(policy.scope(who({ sub: 'u1' }), 'projects')!.read!.where).to.equal(FALSE);
      expect(calls).to.deep.equal(['u1', 'u1']);
    });

    it('makes the policy dynamic: what is resolved for an identity is not kept beyond one request', () => {
      expect(on('projects', { read: { where: () => [] } }).dynamic).to.equal(true);
      expect(on('projects', { read: true, update: { where: () => [] } }).dynamic).to.equal(true);
      expect(
        on('projects', { read: { where: [{ name: 'owner_id', op: '==', val: { claim: 'sub' } }] } }).dynamic,
      ).to.equal(false);
    });

    it('a filter that does not fit is an AccessRulesError naming the call: a 500, not a 400', () => {
      const policy = on('projects', { read: { where: () => [{ name: 'nope', op: '==', val: 1 }] } });
      expect(() => policy.scope(who({}), 'projects'))
        .to.throw(AccessRulesError)
        .with.property('path', 'roles.member.projects.read.where(identity)[0].name');
    });
  });
});
