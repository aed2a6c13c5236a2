import { expect } from 'chai';
import { Model } from 'objection';
import { modelFromObjection } from '../src/index.js';

class OrderLine extends Model {
  static override tableName = 'order_line';
  static override idColumn = ['order_id', 'line_no'];
  static override jsonSchema = {
    type: 'object',
    required: ['sku'],
    properties: { order_id: { type: 'integer' }, line_no: { type: 'integer' }, sku: { type: 'string' } },
  };
}

class Plain extends Model {
  static override tableName = 'plain';
  static override jsonSchema = { type: 'object', properties: { id: { type: 'integer' } } };
}

describe('@colapi/objection: idColumn', () => {
  it('reads an idColumn of several columns as a composite key, none of its columns generated', async () => {
    const model = await modelFromObjection(OrderLine);
    expect(model.keyColumns).to.deep.equal(['order_id', 'line_no']);
    expect(model.key).to.equal('id');
    for (const c of model.keyColumns) expect(model.columns.get(c)).to.include({ nullable: false, generated: false });
  });

  it('keeps a one-column key as it was: the key, generated when an integer', async () => {
    const model = await modelFromObjection(Plain);
    expect(model.keyColumns).to.deep.equal(['id']);
    expect(model.columns.get('id')).to.include({ generated: true });
  });
});
