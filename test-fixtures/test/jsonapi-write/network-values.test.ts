import { defineModel, Registry } from '@colapi/schema';
import { describeEachDatabase, itWhen } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, resource, rows } from './helpers.js';

/** The conformance registry serves network read-only; this server lets it be written (the table of SCHEMA.md). */
const network = defineModel({
  name: 'network',
  table: 'network',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'address', type: 'inet', nullable: true },
  ],
});
const registry = new Registry([{ model: network, options: { name: 'network', methods: ['GET', 'POST', 'PATCH'] } }]);

/** Inputs PostgreSQL's inet takes, and what it answers for them. */
const ACCEPTED: [string, string][] = [
  ['192.168.1/24', '192.168.1.0/24'],
  ['10/8', '10.0.0.0/8'],
  ['192.168.1.1/24', '192.168.1.1/24'],
  ['1.2.3.4/32', '1.2.3.4'],
  ['010.1.1.1', '10.1.1.1'],
  ['2001:DB8:0:0::1', '2001:db8::1'],
  ['::ffff:1.2.3', '::ffff:1.2.3.0'],
];

/** Inputs PostgreSQL's inet refuses (22P02). */
const REFUSED = ['192.168/24', '1.2.3.4/33', '1.2.3.4.5', ' 1.2.3.4', '::1/129', '1::2::3', 'fe80::1%eth0', ''];

/** inet values are written by PostgreSQL's input rules on every dialect, and read back in its output form. */
describeEachDatabase(
  'Format A: network address values',
  (t, kind) => {
    beforeEach(() => t().seed());

    for (const [input, stored] of ACCEPTED) {
      it(`${input} is stored as ${stored}, on create and on update`, async () => {
        const created = expectStatus(await t().http.post('/api/network', resource('network', { address: input })), 201);
        expect(created.body.data.attributes.address).to.equal(stored);
        const updated = expectStatus(
          await t().http.patch('/api/network/2', resource('network', { address: input }, undefined, '2')),
          200,
        );
        expect(updated.body.data.attributes.address).to.equal(stored);
        expect((await t().http.get('/api/network/2')).body.data.attributes.address).to.equal(stored);
      });
    }

    it('a value PostgreSQL refuses is 400 pointing at the attribute, on create and on update; nothing written', async () => {
      const before = await census(t());
      for (const address of REFUSED) {
        const pointer = { pointer: '/data/attributes/address' };
        expect(
          expectError(await t().http.post('/api/network', resource('network', { address })), 400, pointer).detail,
        ).to.contain('is not a network address');
        expectError(
          await t().http.patch('/api/network/2', resource('network', { address }, undefined, '2')),
          400,
          pointer,
        );
      }
      expect(await census(t())).to.deep.equal(before);
      expect((await rows(t(), 'network', { id: 2 }))[0]!.address).to.equal('10.0.0.0/8');
    });

    itWhen(
      kind === 'postgres',
      'on PostgreSQL, the server accepts and answers exactly what the database itself does',
      async () => {
        const { knex } = t().target.database;
        for (const input of [
          ...ACCEPTED.map(([i]) => i),
          ...REFUSED,
          '::1:2',
          '1.2.3.4.',
          '::1.2.3.04',
          '0:0:0:0:0:0:0:1',
        ]) {
          const own = await knex.raw('select ?::inet as a', [input]).then(
            (r) => String(r.rows[0].a),
            () => undefined,
          );
          const res = await t().http.patch('/api/network/1', resource('network', { address: input }, undefined, '1'));
          if (own === undefined) expectError(res, 400, { pointer: '/data/attributes/address' });
          else expect(expectStatus(res, 200).body.data.attributes.address, input).to.equal(own);
        }
      },
    );
  },
  { api: { registry } },
);

describeEachDatabase(
  'Format B: network address values',
  (t) => {
    beforeEach(() => t().seed());

    it('an abbreviated network is stored as PostgreSQL writes it; a value PostgreSQL refuses is 400 naming the field', async () => {
      const created = expectStatus(await t().http.post('/api/network', { address: '192.168.1/24' }), 201);
      expect(created.body.address).to.equal('192.168.1.0/24');
      expect(expectStatus(await t().http.patch('/api/network/2', { address: '10/8' }), 200).body.address).to.equal(
        '10.0.0.0/8',
      );
      for (const address of REFUSED) {
        const res = await t().http.post('/api/network', { address });
        expect(res.status, res.text).to.equal(400);
        expect(res.body.message).to.contain('is not a network address').and.contain('"address"');
      }
    });
  },
  { format: 'legacy', api: { registry } },
);
