import { expect } from 'chai';
import { workersOption } from '../src/index.js';

describe('workersOption', () => {
  it('is 1 without --workers', () => {
    expect(workersOption([])).to.equal(1);
    expect(workersOption(['--port', '8080'])).to.equal(1);
  });

  it('reads --workers N and --workers=N among other arguments', () => {
    expect(workersOption(['--workers', '4'])).to.equal(4);
    expect(workersOption(['--port', '8080', '--workers=8'])).to.equal(8);
    expect(workersOption(['--workers', '1'])).to.equal(1);
    expect(workersOption(['--workers', '64'])).to.equal(64);
  });

  const REFUSED: [string[], string][] = [
    [['--workers', '0'], '0'],
    [['--workers', '65'], '65'],
    [['--workers', '2.5'], '2.5'],
    [['--workers', 'many'], 'many'],
    [['--workers='], ''],
    [['--workers'], 'undefined'],
  ];
  for (const [argv, shown] of REFUSED) {
    it(`refuses ${argv.join(' ')}`, () => {
      expect(() => workersOption(argv)).to.throw(Error, `--workers needs a whole number from 1 to 64, not "${shown}"`);
    });
  }
});
