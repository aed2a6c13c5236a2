import { expect } from 'chai';
import { compile, who } from './helpers.js';

/** Every field of projects, in the collection's order. */
const ALL = [
  'id',
  'name',
  'tenant_id',
  'owner_id',
  'team_id',
  'secret_note',
  'budget',
  'started_on',
  'archived',
  'address',
  'owner',
  'team',
  'tags',
  'label',
];
const without = (...names: string[]) => ALL.filter((f) => !names.includes(f));
/** What a write may name when read shows everything: no key, no virtual attribute. */
const WRITABLE = without('id', 'label');

/** Member's projects rules, with users, teams and tags readable unless `others` says otherwise. */
function projects(rules: Record<string, unknown>, others: Record<string, unknown> = { '*': { read: true } }) {
  const scope = compile({ roles: { member: { ...others, projects: rules } } }).scope(who({ sub: 'u1' }), 'projects')!;
  return {
    visible: scope.read && [...scope.read.visible],
    create: scope.create && [...scope.create.writable],
    update: scope.update && [...scope.update.writable],
    delete: scope.delete && [...scope.delete.writable],
    evaluate: scope.evaluate && [...scope.evaluate.writable],
  };
}

describe('field sets', () => {
  it('true shows every field, and writes every stored one but the key', () => {
    expect(projects({ read: true, create: true, update: true, delete: true, evaluate: true })).to.deep.equal({
      visible: ALL,
      create: WRITABLE,
      update: WRITABLE,
      delete: [],
      evaluate: [],
    });
  });

  it('read columns is an allow-list, the key always in; writes default to it', () => {
    expect(projects({ read: { columns: ['name', 'tags'] }, update: true })).to.deep.include({
      visible: ['id', 'name', 'tags'],
      update: ['name', 'tags'],
    });
  });

  it('read exclude hides fields from read and from writes', () => {
    expect(projects({ read: { exclude: ['secret_note', 'owner'] }, create: true })).to.deep.include({
      visible: without('secret_note', 'owner'),
      create: without('id', 'label', 'secret_note', 'owner'),
    });
  });

  it("a write's exclude and set narrow what read shows", () => {
    expect(
      projects({
        read: { exclude: ['secret_note'] },
        create: { exclude: ['budget'], set: { tenant_id: { claim: 't' } } },
        update: { set: { owner_id: { claim: 'sub' } } },
      }),
    ).to.deep.include({
      create: without('id', 'label', 'secret_note', 'budget', 'tenant_id'),
      update: without('id', 'label', 'secret_note', 'owner_id'),
    });
  });

  it("a write's columns is exactly what it may write: a field hidden from read is write-only", () => {
    const sets = projects({
      read: { exclude: ['secret_note'] },
      create: { columns: ['name', 'secret_note'], set: { owner_id: { claim: 'sub' } } },
      update: { columns: ['secret_note'] },
    });
    expect(sets.visible).not.to.include('secret_note');
    expect(sets.create).to.deep.equal(['name', 'secret_note']);
    expect(sets.update).to.deep.equal(['secret_note']);
  });

  it('a write exclude of a field read hides changes nothing', () => {
    expect(
      projects({ read: { columns: ['name', 'budget'] }, update: { exclude: ['secret_note', 'budget'] } }),
    ).to.deep.include({
      update: ['name'],
    });
  });

  it('hides a relationship to a collection the role cannot read, from read and from default writes', () => {
    const sets = projects(
      { read: true, create: true },
      { tags: { read: true }, users: { create: { columns: ['name'] } } },
    );
    expect(sets.visible).to.deep.equal(without('owner', 'team'));
    expect(sets.create).to.deep.equal(without('id', 'label', 'owner', 'team'));
  });

  it("unless the write's columns names it", () => {
    const sets = projects({ read: true, update: { columns: ['owner', 'name'] } }, {});
    expect(sets.visible).to.deep.equal(without('owner', 'team', 'tags'));
    expect(sets.update).to.deep.equal(['owner', 'name']);
  });

  it('read columns naming a relationship to an unreadable collection does not show it', () => {
    expect(projects({ read: { columns: ['name', 'owner', 'tags'] } }, { tags: { read: true } }).visible).to.deep.equal([
      'id',
      'name',
      'tags',
    ]);
  });

  it('a write-only collection: create without read writes its columns only', () => {
    const scope = compile({
      roles: { anon: { posts: { create: { columns: ['title'], set: { published: false } } } } },
    }).scope(who({}, 'anon'), 'posts')!;
    expect(scope.read).to.equal(undefined);
    expect([...scope.create!.writable]).to.deep.equal(['title']);
    expect(scope.create!.set.get('published')).to.equal(false);
  });

  it('a write-only collection without columns writes nothing but its set', () => {
    const scope = compile({
      roles: { anon: { posts: { create: { set: { title: 'ping', published: false } } } } },
    }).scope(who({}, 'anon'), 'posts')!;
    expect([...scope.create!.writable]).to.deep.equal([]);
  });
});
