import { expect } from 'chai';
import { returnsInsertedRows } from '../src/dialects/mysql.js';

describe('returnsInsertedRows: which MySQL-family servers answer INSERT … RETURNING', () => {
  it('MariaDB from 10.5 on', () => {
    expect(returnsInsertedRows('10.5.0-MariaDB')).to.equal(true);
    expect(returnsInsertedRows('10.11.19-MariaDB-0+deb12u1')).to.equal(true);
    expect(returnsInsertedRows('11.4.2-MariaDB-ubu2404')).to.equal(true);
  });

  it('not MariaDB before 10.5', () => {
    expect(returnsInsertedRows('10.4.34-MariaDB')).to.equal(false);
    expect(returnsInsertedRows('5.5.68-MariaDB')).to.equal(false);
  });

  it('reads the version behind the 5.5.5- prefix MariaDB shows old clients', () => {
    expect(returnsInsertedRows('5.5.5-10.11.6-MariaDB-log')).to.equal(true);
    expect(returnsInsertedRows('5.5.5-10.3.39-MariaDB')).to.equal(false);
  });

  it('never MySQL, whatever its version', () => {
    expect(returnsInsertedRows('8.0.36')).to.equal(false);
    expect(returnsInsertedRows('8.4.0-commercial')).to.equal(false);
    expect(returnsInsertedRows('')).to.equal(false);
  });
});
