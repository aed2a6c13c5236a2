import { expect } from 'chai';
import { compile, EXAMPLE, refused } from './helpers.js';

/** `roles.member.projects.read` set to `read`. */
const read = (rule: unknown) => ({ roles: { member: { projects: { read: rule } } } });
const where = (...filters: unknown[]) => read({ where: filters });
const action = (name: string, rule: unknown) => ({ roles: { member: { projects: { read: true, [name]: rule } } } });

describe('compileRules', () => {
  it('compiles the example of the issue, and knows its roles', () => {
    const policy = compile(EXAMPLE);
    expect([...policy.roles]).to.deep.equal(['member', 'anon']);
  });

  it('compiles every operator, and/or, has and any, and the whole language with claims', () => {
    const policy = compile(
      where(
        { name: 'name', op: 'like', val: { claim: 'prefix' } },
        { name: 'budget', op: '>=', val: 10 },
        { name: 'started_on', op: 'is_not_null' },
        { name: 'address', op: '<<=', val: { claim: 'net' } },
        { name: 'tenant_id', op: 'in', val: [1, { claim: 'tenant' }] },
        { name: 'tenant_id', op: 'not_in', val: { claim: 'tenants' } },
        { name: 'budget', op: '<', field: 'tenant_id' },
        {
          or: [
            { name: 'owner', op: 'has', val: { name: 'id', op: '==', val: { claim: 'sub' } } },
            {
              name: 'team',
              op: 'has',
              val: { name: 'members', op: 'any', val: { name: 'id', op: 'eq', val: { claim: 'sub' } } },
            },
            {
              and: [
                { name: 'tags', op: 'any' },
                { name: 'archived', op: '==', val: false },
              ],
            },
          ],
        },
      ),
    );
    expect([...policy.roles]).to.deep.equal(['member']);
  });

  it('accepts true, false and empty objects as actions, and a filter object as well as a list', () => {
    compile({
      roles: {
        member: {
          projects: {
            read: {},
            create: true,
            update: false,
            delete: { where: { name: 'archived', op: '==', val: true } },
          },
          tags: { read: { where: [] }, evaluate: false },
        },
      },
    });
  });

  describe('refuses, naming the place', () => {
    it('rules that are not { roles }', () => {
      refused({}, 'roles', /must be an object/);
      refused({ roles: {}, cors: {} }, 'cors', /unknown member "cors"/);
      refused([], '', /"roles"/);
    });

    it('a role name that is not a plain identifier', () => {
      refused({ roles: { 'team lead': {} } }, 'roles["team lead"]', /not a role name/);
      refused({ roles: { '1st': {} } }, 'roles["1st"]', /not a role name/);
      refused({ roles: { 'a-b': {} } }, 'roles["a-b"]', /not a role name/);
    });

    it('a role that is not an object', () => {
      refused({ roles: { member: true } }, 'roles.member', /collection name/);
    });

    it('an unknown collection', () => {
      refused(
        { roles: { member: { projcts: { read: true } } } },
        'roles.member.projcts',
        /unknown collection "projcts"/,
      );
    });

    it('an unknown action, or an action of the wrong type', () => {
      refused(
        { roles: { member: { projects: { reed: true } } } },
        'roles.member.projects.reed',
        /unknown action "reed"/,
      );
      refused(read('yes'), 'roles.member.projects.read', /true, false or an object/);
      refused({ roles: { member: { projects: true } } }, 'roles.member.projects', /object of actions/);
    });

    it('evaluate that is not a boolean', () => {
      refused(action('evaluate', {}), 'roles.member.projects.evaluate', /true or false/);
      refused(action('evaluate', 'yes'), 'roles.member.projects.evaluate', /true or false/);
    });

    it('an unknown member of an action', () => {
      refused(read({ colums: ['name'] }), 'roles.member.projects.read.colums', /unknown member "colums" of read/);
      refused(action('create', { where: [] }), 'roles.member.projects.create.where', /unknown member "where"/);
      refused(action('delete', { check: [] }), 'roles.member.projects.delete.check', /unknown member "check"/);
      refused(action('delete', { columns: [] }), 'roles.member.projects.delete.columns', /unknown member/);
    });

    it('columns and exclude together', () => {
      refused(read({ columns: ['name'], exclude: ['budget'] }), 'roles.member.projects.read.exclude', /not both/);
      refused(action('update', { columns: [], exclude: [] }), 'roles.member.projects.update.exclude', /not both/);
    });

    it('an unknown field in columns or exclude', () => {
      refused(
        read({ columns: ['name', 'nope'] }),
        'roles.member.projects.read.columns[1]',
        /"nope" is not a field of projects/,
      );
      refused(action('update', { exclude: ['nope'] }), 'roles.member.projects.update.exclude[0]', /not a field/);
      refused(read({ columns: 'name' }), 'roles.member.projects.read.columns', /list of field names/);
      refused(read({ columns: [3] }), 'roles.member.projects.read.columns[0]', /field name/);
    });

    it('the key in read exclude, or in a write columns', () => {
      refused(read({ exclude: ['id'] }), 'roles.member.projects.read.exclude[0]', /the key/);
      refused(action('create', { columns: ['name', 'id'] }), 'roles.member.projects.create.columns[1]', /the key/);
    });

    it('a virtual attribute, or a field of set, in a write columns', () => {
      refused(action('update', { columns: ['label'] }), 'roles.member.projects.update.columns[0]', /computed/);
      refused(
        action('create', { set: { owner_id: { claim: 'sub' } }, columns: ['name', 'owner_id'] }),
        'roles.member.projects.create.columns[1]',
        /given by set/,
      );
    });

    it('an unknown field in where, as query-ast words it', () => {
      refused(
        where({ name: 'nope', op: '==', val: 1 }),
        'roles.member.projects.read.where[0].name',
        /"nope" is not a field of projects/,
      );
      refused(
        read({ where: { name: 'nope', op: '==', val: { claim: 'x' } } }),
        'roles.member.projects.read.where.name',
        /not a field/,
      );
    });

    it('an unknown field through a relation path, in has and any, and inside and/or', () => {
      refused(
        where({ name: 'owner', op: 'has', val: { name: 'nick', op: '==', val: { claim: 'sub' } } }),
        'roles.member.projects.read.where[0].val.name',
        /"nick" is not a field of users/,
      );
      refused(
        where(
          { name: 'name', op: '==', val: 'x' },
          {
            or: [
              { name: 'budget', op: '>', val: 1 },
              { name: 'tags', op: 'any', val: { name: 'label', op: '==', val: 'x' } },
            ],
          },
        ),
        'roles.member.projects.read.where[1].or[1].val.name',
        /"label" is not a field of tags/,
      );
      refused(
        where({
          name: 'team',
          op: 'has',
          val: { name: 'members', op: 'any', val: { name: 'nope', op: '==', val: { claim: 'sub' } } },
        }),
        'roles.member.projects.read.where[0].val.val.name',
        /not a field of users/,
      );
      refused(where({ name: 'nobody', op: 'has' }), 'roles.member.projects.read.where[0].name', /not a relationship/);
    });

    it('an unknown operator, or one that does not fit the field', () => {
      refused(
        where({ name: 'name', op: '===', val: { claim: 'x' } }),
        'roles.member.projects.read.where[0].op',
        /unknown operator "==="/,
      );
      refused(
        where({ name: 'budget', op: 'like', val: { claim: 'x' } }),
        'roles.member.projects.read.where[0].op',
        /text fields/,
      );
      refused(where({ name: 'tags', op: 'has' }), 'roles.member.projects.read.where[0].op', /use "any"/);
    });

    it('a literal of the wrong type, or a filter that is not one', () => {
      refused(
        where({ name: 'tenant_id', op: '==', val: 'abc' }),
        'roles.member.projects.read.where[0].val',
        /not an integer/,
      );
      refused(read({ where: 'tenant_id = 1' }), 'roles.member.projects.read.where', /must be an object/);
      refused(
        where({ name: 'tenant_id', op: 'in', val: [1, 'x', { claim: 't' }] }),
        'roles.member.projects.read.where[0].val[1]',
        /integer/,
      );
    });

    it('a claim object of the wrong shape', () => {
      refused(
        where({ name: 'tenant_id', op: '==', val: { claim: 5 } }),
        'roles.member.projects.read.where[0].val.claim',
        /dotted path/,
      );
      refused(
        where({ name: 'tenant_id', op: '==', val: { claim: '' } }),
        'roles.member.projects.read.where[0].val.claim',
        /dotted path/,
      );
      refused(
        where({ name: 'tenant_id', op: '==', val: { claim: 'a..b' } }),
        'roles.member.projects.read.where[0].val.claim',
        /dotted path/,
      );
      refused(
        where({ name: 'tenant_id', op: '==', val: { claim: 'tenant', default: 1 } }),
        'roles.member.projects.read.where[0].val',
        /one member "claim"/,
      );
      refused(
        where({ name: 'tenant_id', op: '==', val: { clam: 'tenant' } }),
        'roles.member.projects.read.where[0].val',
        /must be a claim/,
      );
      refused(
        where({ name: 'tenant_id', op: 'in', val: [1, { claim: 7 }] }),
        'roles.member.projects.read.where[0].val[1].claim',
        /dotted path/,
      );
      refused(
        where({ name: 'tags', op: 'any', val: { claim: 'tag' } }),
        'roles.member.projects.read.where[0].val',
        /nested filter/,
      );
      refused(
        action('create', { set: { owner_id: { claim: ['sub'] } } }),
        'roles.member.projects.create.set.owner_id.claim',
        /dotted path/,
      );
    });

    it('an unknown field, a relationship or a wrong literal in set', () => {
      refused(action('create', { set: { nope: 1 } }), 'roles.member.projects.create.set.nope', /not a field/);
      refused(
        action('create', { set: { owner: { claim: 'sub' } } }),
        'roles.member.projects.create.set.owner',
        /foreign key/,
      );
      refused(action('update', { set: { label: 'x' } }), 'roles.member.projects.update.set.label', /computed/);
      refused(
        action('create', { set: { tenant_id: 'abc' } }),
        'roles.member.projects.create.set.tenant_id',
        /not an integer/,
      );
      refused(
        action('create', { set: { tenant_id: null } }),
        'roles.member.projects.create.set.tenant_id',
        /cannot be null/,
      );
      refused(action('create', { set: [] }), 'roles.member.projects.create.set', /object of field/);
    });

    it('an unknown field in check', () => {
      refused(
        action('update', { check: [{ name: 'nope', op: '==', val: { claim: 'sub' } }] }),
        'roles.member.projects.update.check[0].name',
        /not a field/,
      );
      refused(
        action('create', { check: { name: 'tags', op: 'any', val: { name: 'nope', op: '==', val: 1 } } }),
        'roles.member.projects.create.check.val.name',
        /not a field of tags/,
      );
    });

    it('update, delete or evaluate without read', () => {
      for (const name of ['update', 'delete', 'evaluate']) {
        refused({ roles: { member: { projects: { [name]: true } } } }, `roles.member.projects.${name}`, /needs read/);
      }
    });

    it('a "*" rule that does not fit one of the collections, saying which', () => {
      refused(
        { roles: { member: { '*': { read: { where: [{ name: 'name', op: '==', val: 'x' }] } } } } },
        'roles.member["*"].read.where[0].name',
        /"name" is not a field of posts \(applying "\*" to posts\)/,
      );
    });
  });
});
