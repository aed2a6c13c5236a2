import { expect } from 'chai';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINES_RANGE, nodeVerdict, SUPPORTED_NODE } from '../src/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('nodeVerdict', () => {
  it('accepts the supported releases, with or without the v', () => {
    for (const v of ['22.12.0', 'v22.23.3', '24.0.0', 'v24.21.0', '24.99.1']) {
      expect(nodeVerdict(v).kind, v).to.equal('supported');
    }
  });

  it('refuses older majors, odd ones in between, and a supported major below its minimum', () => {
    for (const v of ['v18.20.0', 'v20.20.2', '21.7.3', '22.11.0', 'v23.11.0', 'garbage']) {
      const verdict = nodeVerdict(v);
      expect(verdict.kind, v).to.equal('unsupported');
      expect(verdict.kind === 'unsupported' && verdict.message).to.match(
        /is not supported: colapi needs Node\.js 22\.12\.0\+ or 24/,
      );
    }
  });

  it('only warns for a later major than it is tested on', () => {
    const verdict = nodeVerdict('26.1.0');
    expect(verdict).to.deep.equal({
      kind: 'untested',
      message: 'Node.js v26.1.0 is newer than colapi is tested on (Node.js 22.12.0+ or 24); continuing.',
    });
  });

  it('says one line', () => {
    for (const v of ['20.0.0', '26.0.0']) {
      const verdict = nodeVerdict(v);
      expect(verdict.kind !== 'supported' && verdict.message).to.not.include('\n');
    }
  });

  it('runs this suite on a supported release', () => {
    expect(nodeVerdict(process.versions.node).kind).to.equal('supported');
  });
});

describe('engines', () => {
  it('every package of the workspace declares the supported majors, and nothing else', () => {
    expect(ENGINES_RANGE).to.equal(SUPPORTED_NODE.map((r) => `^${r.minimum}`).join(' || '));
    const dirs = ['.', 'test-fixtures', 'bench'];
    for (const parent of ['packages', 'apps', 'tools']) {
      for (const d of readdirSync(join(ROOT, parent))) dirs.push(join(parent, d));
    }
    const published = dirs.filter((d) => existsSync(join(ROOT, d, 'package.json')));
    expect(published.length).to.be.greaterThan(15);
    for (const d of published) {
      const pkg = JSON.parse(readFileSync(join(ROOT, d, 'package.json'), 'utf8')) as { engines?: { node?: string } };
      expect(pkg.engines?.node, `${d}/package.json engines.node`).to.equal(ENGINES_RANGE);
    }
  });
});
