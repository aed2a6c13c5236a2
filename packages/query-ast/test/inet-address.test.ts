import { expect } from 'chai';
import { canonicalInet } from '../src/inet-address.js';

/**
 * [input, what PostgreSQL answers for `$1::inet`, or undefined where it refuses the input (22P02)]. Every
 * row but the last (PostgreSQL never receives a NUL) was checked against PostgreSQL, as were 100,000 generated
 * inputs while writing canonicalInet.
 */
const CASES: [string, string | undefined][] = [
  ['192.168.1.5', '192.168.1.5'],
  ['192.168.1/24', '192.168.1.0/24'],
  ['192.168/16', '192.168.0.0/16'],
  ['10/8', '10.0.0.0/8'],
  ['192.168/24', undefined],
  ['10', undefined],
  ['1.2.3.4.', '1.2.3.4'],
  ['1.2.3.4/32', '1.2.3.4'],
  ['192.168.1.1/24', '192.168.1.1/24'],
  ['010.1.1.1', '10.1.1.1'],
  ['1.2.3.4/', undefined],
  ['1.2.3.4/33', undefined],
  ['1.2.3.4.5', undefined],
  ['256.1.1.1', undefined],
  [' 1.2.3.4', undefined],
  ['1.2.3.4 ', undefined],
  ['0x10.1.1.1', undefined],
  ['', undefined],
  ['::1', '::1'],
  ['::', '::'],
  ['0:0:0:0:0:0:0:1', '::1'],
  ['2001:DB8::1', '2001:db8::1'],
  ['2001:db8::/32', '2001:db8::/32'],
  ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
  ['::1.2', '::1.2.0.0'],
  ['::1:2', '::0.1.0.2'],
  ['::0.0.0.2', '::2'],
  ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
  ['1:0:0:1:0:0:0:1', '1:0:0:1::1'],
  ['::1.2.3.04', undefined],
  ['::1/129', undefined],
  ['::1/01', undefined],
  ['1::2::3', undefined],
  ['1:2:3:4:5:6:7:8:9', undefined],
  ['12345::', undefined],
  [':1', undefined],
  ['fe80::1%eth0', undefined],
  ['1.2.3.4\u0000', undefined],
];

describe('canonicalInet: PostgreSQL inet input and output', () => {
  for (const [input, expected] of CASES) {
    it(`${JSON.stringify(input)} → ${expected ?? 'refused'}`, () => {
      expect(canonicalInet(input)).to.equal(expected);
    });
  }
});
