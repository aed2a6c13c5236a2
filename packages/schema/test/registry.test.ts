import { defineModel, Registry } from '@colapi/schema';
import { expect } from 'chai';

const person = defineModel({
  name: 'Person',
  table: 'person',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: true },
    { name: 'age', type: 'integer', nullable: true },
  ],
  relationships: [
    {
      name: 'friends',
      cardinality: 'many',
      target: 'Person',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'age' },
    },
  ],
});

describe('Registry', () => {
  it('refuses a collection registered twice', () => {
    expect(() => new Registry([{ model: person }, { model: person }])).to.throw(/registered twice/);
  });

  it('refuses an only/exclude naming an unknown field', () => {
    expect(() => new Registry([{ model: person, options: { only: ['nope'] } }])).to.throw(/not a field/);
  });

  it('refuses a relationship to a model without a collection', () => {
    const lonely = defineModel({
      name: 'Lonely',
      table: 'lonely',
      columns: [{ name: 'id', type: 'integer', nullable: false }],
      relationships: [
        {
          name: 'x',
          cardinality: 'one',
          target: 'Ghost',
          join: { kind: 'belongs-to', ownColumn: 'id', targetColumn: 'id' },
        },
      ],
    });
    expect(() => new Registry([{ model: lonely }])).to.throw(/no collection/);
  });

  it('keeps the key whatever only says, and drops excluded relationships', () => {
    const r = new Registry([
      { model: person, options: { only: ['name'] } },
      { model: person, options: { name: 'p2', exclude: ['friends', 'age'] } },
    ]);
    expect([...r.collection('person')!.columns.keys()]).to.deep.equal(['id', 'name']);
    expect([...r.collection('p2')!.relationships.keys()]).to.deep.equal([]);
    expect(r.canonical('Person').name).to.equal('person');
  });

  it('reserves the name eval', () => {
    expect(() => new Registry([{ model: person, options: { name: 'eval' } }])).to.throw(/reserved/);
  });
});
