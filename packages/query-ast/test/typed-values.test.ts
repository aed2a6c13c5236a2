import { expect } from 'chai';
import { checkBase64, checkDecimal, checkSet, checkTimestampTz, inInt64 } from '../src/typed-values.js';

const decimal = (value: unknown, precision?: number, scale?: number) =>
  checkDecimal({ name: 'd', type: 'decimal', nullable: true, precision, scale }, value);

describe('typed values', () => {
  it('decimals keep every digit and round half away from zero to the scale', () => {
    expect(decimal('123456789012345678901234567890.0123456789')).to.deep.equal({
      ok: true,
      value: '123456789012345678901234567890.0123456789',
    });
    expect(decimal('1.005', 10, 2)).to.deep.equal({ ok: true, value: '1.01' });
    expect(decimal('-1.005', 10, 2)).to.deep.equal({ ok: true, value: '-1.01' });
    expect(decimal('9.995', 10, 2)).to.deep.equal({ ok: true, value: '10.00' });
    expect(decimal(1.5, 10, 2)).to.deep.equal({ ok: true, value: '1.50' });
    expect(decimal('1e3', 10, 0)).to.deep.equal({ ok: true, value: '1000' });
    expect(decimal('-0.001', 10, 2)).to.deep.equal({ ok: true, value: '0.00' });
    expect(decimal('.5')).to.deep.equal({ ok: true, value: '0.5' });
    expect(decimal('1e10', 10, 2).ok).to.equal(false);
    expect(decimal('99999999.995', 10, 2).ok).to.equal(false);
    for (const bad of ['', '.', 'abc', '1.2.3', 'NaN', Infinity, {}, [], true])
      expect(decimal(bad).ok, String(bad)).to.equal(false);
  });

  it('instants of any offset come back in UTC with Z', () => {
    expect(checkTimestampTz('2024-05-31T23:30:00+02:00')).to.deep.equal({ ok: true, value: '2024-05-31T21:30:00Z' });
    expect(checkTimestampTz('2024-05-31 21:30:00.120+00')).to.deep.equal({
      ok: true,
      value: '2024-05-31T21:30:00.12Z',
    });
    expect(checkTimestampTz('2024-01-01T00:30:00-0130')).to.deep.equal({ ok: true, value: '2024-01-01T02:00:00Z' });
    for (const bad of ['2024-05-31T21:30:00', '2024-02-30T00:00:00Z', '2024-05-31T24:00:00Z', 12])
      expect(checkTimestampTz(bad).ok, String(bad)).to.equal(false);
  });

  it('base64 is checked strictly, sets come in declaration order', () => {
    expect(checkBase64('AAEC').ok).to.equal(true);
    expect(checkBase64('AAE=').ok).to.equal(true);
    for (const bad of ['AAE', 'AA=E', 'A A=', '@@@@']) expect(checkBase64(bad).ok, bad).to.equal(false);
    const set = { name: 's', type: 'set' as const, nullable: true, values: ['a', 'b', 'c'] };
    expect(checkSet(set, ['c', 'a'])).to.deep.equal({ ok: true, value: 'a,c' });
    expect(checkSet(set, ['a', 'a']).ok).to.equal(false);
    expect(checkSet(set, ['d']).ok).to.equal(false);
  });

  it('a bigint holds 64 bits', () => {
    expect(inInt64('9223372036854775807')).to.equal(true);
    expect(inInt64('9223372036854775808')).to.equal(false);
  });
});
