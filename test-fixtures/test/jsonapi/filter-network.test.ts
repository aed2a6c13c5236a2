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
];

describeEachDatabase('Format A: network address operators', (t) => {
  for (const [op, val, expected] of CASES) {
    it(`address ${op} ${val}`, async function () {
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
