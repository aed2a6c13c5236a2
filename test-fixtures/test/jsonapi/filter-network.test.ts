import { describeEachDatabase, filterParam } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { asIds, expectError, filteredIds } from './helpers.js';

/* network 1 192.168.1.5 · 2 10.0.0.0/8 · 3 2001:db8::1 */

const CASES: [string, string, number[]][] = [
  ['<<', '192.168.1.0/24', [1]],
  ['<<', '10.0.0.0/8', []],
  ['<<=', '10.0.0.0/8', [2]],
  ['<<=', '0.0.0.0/0', [1, 2]],
  ['>>', '10.1.2.3', [2]],
  ['>>', '10.0.0.0/8', []],
  ['>>=', '10.0.0.0/8', [2]],
  ['<>', '192.168.1.5', [2, 3]],
  ['&&', '10.0.0.0/16', [2]],
  ['&&', '192.168.0.0/16', [1]],
  ['<<', '2001:db8::/32', [3]],
  // Abbreviated IPv4 networks, as PostgreSQL's inet input takes them.
  ['<<', '192.168.1/24', [1]],
  ['<<=', '10/8', [2]],
  ['>>', '10.1.2/24', [2]],
  ['>>=', '10/8', [2]],
];

describeEachDatabase('Format A: network address operators', (t) => {
  for (const [op, val, expected] of CASES) {
    it(`address ${op} ${val}`, async () => {
      const filter = [{ name: 'address', op, val }];
      if (t().kind === 'postgres') {
        expect(await filteredIds(t(), 'network', filter)).to.deep.equal(asIds(expected));
        return;
      }
      const res = await t().http.get(`/api/network?${filterParam(filter)}`);
      const error = expectError(res, 400, 'filter[objects]');
      expect(error.detail).to.contain(`"${op}"`).and.contain('PostgreSQL').and.contain(t().kind);
      expect(error.detail).to.contain('filter[objects][0]');
    });
  }

  it('refuses a network operator on a field that is no network address, on every dialect', async () => {
    const res = await t().http.get(`/api/person?${filterParam([{ name: 'name', op: '<<', val: '10.0.0.0/8' }])}`);
    const error = expectError(res, 400, 'filter[objects]');
    expect(error.detail).to.contain('"name"');
  });

  it('compares by the address PostgreSQL reads, abbreviated or not, on every dialect', async () => {
    expect(await filteredIds(t(), 'network', [{ name: 'address', op: '==', val: '192.168.1.5/32' }])).to.deep.equal(
      asIds([1]),
    );
    expect(await filteredIds(t(), 'network', [{ name: 'address', op: '==', val: '10/8' }])).to.deep.equal(asIds([2]));
    expect(await filteredIds(t(), 'network', [{ name: 'address', op: '==', val: '2001:DB8:0::1' }])).to.deep.equal(
      asIds([3]),
    );
  });

  it('refuses a value that PostgreSQL refuses as inet, with 400 and filter[objects], with any operator', async () => {
    for (const op of ['==', '<<', '<<=', '>>', '>>=']) {
      for (const val of ['192.168/24', '1.2.3.4/33', '::1/129', '1.2.3.4 ']) {
        const res = await t().http.get(`/api/network?${filterParam([{ name: 'address', op, val }])}`);
        const error = expectError(res, 400, 'filter[objects]');
        if (op === '==' || t().kind === 'postgres')
          expect(error.detail).to.contain('filter[objects][0].val').and.contain('is not a network address');
      }
    }
  });

  it('refuses a value that is no network address', async () => {
    for (const val of ['10.0.0.0/33', 'not an address', '300.1.1.1', 42]) {
      const res = await t().http.get(`/api/network?${filterParam([{ name: 'address', op: '==', val }])}`);
      const error = expectError(res, 400, 'filter[objects]');
      expect(error.detail).to.contain('filter[objects][0].val').and.contain('"address"');
    }
  });

  it('refuses a network operator comparing two fields', async () => {
    const res = await t().http.get(`/api/network?${filterParam([{ name: 'address', op: '<<', field: 'address' }])}`);
    expectError(res, 400, 'filter[objects]');
  });
});
