import { expect } from 'chai';
import { StageTimer } from '../src/stage-timer.js';

describe('StageTimer', () => {
  const realNow = performance.now;
  let clock = 0;
  beforeEach(() => {
    clock = 0;
    performance.now = () => clock;
  });
  afterEach(() => {
    performance.now = realNow;
  });

  it('writes each stage with the milliseconds since the previous one, to two decimals', () => {
    clock = 100;
    const timer = new StageTimer();
    clock = 101.5;
    timer.lap('parse');
    clock = 112;
    timer.lap('query');
    clock = 112.25;
    timer.lap('encode');
    expect(timer.header()).to.equal('parse;dur=1.50, query;dur=10.50, encode;dur=0.25');
  });

  it('writes a stage that took no time as 0.00', () => {
    const timer = new StageTimer();
    timer.lap('parse');
    expect(timer.header()).to.equal('parse;dur=0.00');
  });

  it('writes nothing before the first lap', () => {
    expect(new StageTimer().header()).to.equal('');
  });
});
