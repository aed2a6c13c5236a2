import { expect } from 'chai';
import { parsePgNodeTree, pgNode } from '../src/readers/pg-node-tree.js';

describe('parsePgNodeTree', () => {
  it('reads nodes, fields, lists, nulls and escaped atoms', () => {
    const tree = parsePgNodeTree(
      '({TARGETENTRY :expr {VAR :varno 3 :varattno 1} :resname key\\ \\(odd\\)\\ \\{x\\} :names ("a\\ b" "") :quals <> :ref \\<>})',
    );
    const entry = pgNode((tree as unknown[])[0] as never, 'TARGETENTRY')!;
    expect(pgNode(entry.fields.get('expr'), 'VAR')!.fields.get('varattno')).to.equal('1');
    expect(entry.fields.get('resname')).to.equal('key (odd) {x}');
    expect(entry.fields.get('names')).to.deep.equal(['a b', '']);
    expect(entry.fields.get('quals')).to.equal(null);
    // Written with a backslash, `<>` is a name, not null.
    expect(entry.fields.get('ref')).to.equal('<>');
  });

  it("skips a constant's datum, and takes a value that looks like a field name as the value", () => {
    const tree = parsePgNodeTree('{CONST :constlen 4 :constvalue 4 [ 1 0 0 0 ] :resname :resno :resno 2}');
    expect(pgNode(tree, 'CONST')!.fields).to.deep.equal(
      new Map([
        ['constlen', '4'],
        ['constvalue', '4'],
        ['resname', ':resno'],
        ['resno', '2'],
      ]),
    );
  });

  it('throws on text it cannot follow', () => {
    expect(() => parsePgNodeTree('({QUERY :rtable (')).to.throw(/unexpected end/);
    expect(() => parsePgNodeTree('{A} {B}')).to.throw(/after the end/);
  });
});
