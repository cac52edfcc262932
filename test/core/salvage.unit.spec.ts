// What survives of a body that does not decode, and which rule errors found
// on it are reported, at which path.
import { expect } from 'chai';
import * as t from 'io-ts';
import { salvage, type Salvaged } from '../../src/core/salvage';

const Row = t.type({ name: t.string, size: t.number });
const Body = t.intersection([
  t.type({ name: t.string, rows: t.array(Row) }),
  t.partial({ facility: t.union([t.string, t.null]), inner: t.type({ a: t.number, b: t.partial({ c: t.string }) }) }),
]);

function failed(input: unknown, dependsOn: Parameters<typeof salvage>[3] = []): Salvaged<t.TypeOf<typeof Body>> {
  const s = salvage(Body, input, 'body', dependsOn);
  if (s.ok) throw new Error('expected the body not to decode');
  return s;
}

describe('salvage', () => {
  it('given a body that decodes, then it is the value', () => {
    const s = salvage(Body, { name: 'n', rows: [] }, 'body');
    expect(s).to.deep.equal({ ok: true, value: { name: 'n', rows: [] } });
  });

  it('given a bad optional field, then the rest goes without it and a rule error elsewhere keeps its path', () => {
    const s = failed({ name: 'n', rows: [], facility: 3 });
    expect(s.typeErrors.map((e) => e.path)).to.deep.equal(['body.facility']);
    expect(s.rest).to.deep.equal({ name: 'n', rows: [] });
    expect(s.relocate({ path: 'body.name', reason: 'is reserved' })).to.deep.equal({ path: 'body.name', reason: 'is reserved' });
    expect(s.relocate({ path: 'body.facility', reason: 'unknown' }), 'about the cut field').to.equal(undefined);
  });

  it('given a bad required field, then its holder goes, and rule errors on the holder are dropped', () => {
    const s = failed({ name: 'n', rows: [], inner: { a: 'x', b: { c: 'ok' } } });
    expect(s.typeErrors.map((e) => e.path)).to.deep.equal(['body.inner.a']);
    expect(s.rest).to.deep.equal({ name: 'n', rows: [] });
    expect(s.relocate({ path: 'body.inner.b.c', reason: 'r' })).to.equal(undefined);
  });

  it('given bad rows, then they go whole, and rule errors on the other rows name them as sent', () => {
    const s = failed({ name: 'n', rows: [{ name: 'a', size: 1 }, { name: 'b', size: 'big' }, { name: 'c' }, { name: 'd', size: 4 }] });
    expect(s.typeErrors.map((e) => e.path)).to.deep.equal(['body.rows.1.size', 'body.rows.2.size']);
    expect(s.rest?.rows.map((r) => r.name)).to.deep.equal(['a', 'd']);
    expect(s.relocate({ path: 'body.rows.1.name', reason: 'r' })).to.deep.equal({ path: 'body.rows.3.name', reason: 'r' });
    expect(s.relocate({ path: 'body.rows.0', reason: 'r' })).to.deep.equal({ path: 'body.rows.0', reason: 'r' });
    expect(s.relocate({ path: 'body.rows', reason: 'the list was cut' })).to.equal(undefined);
  });

  it('given a bad root or a bad required top-level field, then nothing is left to check', () => {
    expect(failed(7).rest).to.equal(undefined);
    expect(failed({ name: 5, rows: [] }).rest).to.equal(undefined);
  });

  it('given a rule that reads a field that did not decode, then its errors are dropped', () => {
    const s = failed({ name: 'n', rows: [{ name: 'a', size: 1 }], facility: 9 }, [{ field: 'rows', on: 'facility' }]);
    expect(s.rest).to.deep.equal({ name: 'n', rows: [{ name: 'a', size: 1 }] });
    expect(s.relocate({ path: 'body.rows.0.name', reason: 'not in the facility' })).to.equal(undefined);
    expect(s.relocate({ path: 'body.name', reason: 'r' })).to.deep.equal({ path: 'body.name', reason: 'r' });
  });

  it('given errors under another root, then they are not relocated', () => {
    expect(failed({ name: 'n', rows: [], facility: 1 }).relocate({ path: 'query.x', reason: 'r' })).to.equal(undefined);
  });
});
