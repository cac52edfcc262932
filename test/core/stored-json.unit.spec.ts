// The one way back in for stored JSON: a value that is not JSON or not of the
// shape this version reads is an error naming the value and the reason; the
// lenient form (for values the code can do without) treats it as absent.
import { expect } from 'chai';
import * as t from 'io-ts';
import { decodeStored, decodeStoredIfAny, decodeStoredOrAbsent, StoredValueError } from '../../src/core/stored-json';
import { parseStateDoc } from '../../src/core/redis/readiness';

const Doc = t.readonly(t.intersection([t.type({ name: t.string, size: t.number }), t.partial({ tags: t.array(t.string) })]));

function thrown(f: () => unknown): StoredValueError {
  try {
    f();
  } catch (err) {
    if (err instanceof StoredValueError) return err;
    throw err;
  }
  throw new Error('decoded');
}

describe('stored JSON', () => {
  it('answers the decoded value', () => {
    const raw = '{"name":"a","size":1,"tags":["x"]}';
    expect(decodeStored(Doc, raw, 'doc a')).to.deep.equal({ name: 'a', size: 1, tags: ['x'] });
  });

  it('names the value and every field that does not decode, with its path and reason', () => {
    const err = thrown(() => decodeStored(Doc, '{"name":"a","size":"1","tags":[3]}', 'test read model: doc a'));
    expect(err.message).to.equal('test read model: doc a does not decode: size: expected number, got "1"; tags.0: expected string, got 3');
  });

  it('names a value that is not JSON', () => {
    expect(thrown(() => decodeStored(Doc, '{"name":', 'doc a')).message).to.match(/^doc a is not JSON \(/);
  });

  it('IfAny: no value (a Redis miss) is undefined; a corrupt one still throws', () => {
    expect(decodeStoredIfAny(Doc, null, 'doc a')).to.equal(undefined);
    expect(decodeStoredIfAny(Doc, undefined, 'doc a')).to.equal(undefined);
    expect(decodeStoredIfAny(Doc, '{"name":"a","size":2}', 'doc a')).to.deep.equal({ name: 'a', size: 2 });
    expect(thrown(() => decodeStoredIfAny(Doc, '[]', 'doc a')).message).to.contain('doc a does not decode');
  });

  it('OrAbsent: a corrupt or old-version value counts as none', () => {
    expect(decodeStoredOrAbsent(Doc, '{"name":"a"}')).to.equal(undefined);
    expect(decodeStoredOrAbsent(Doc, 'not json')).to.equal(undefined);
    expect(decodeStoredOrAbsent(Doc, null)).to.equal(undefined);
    expect(decodeStoredOrAbsent(Doc, '{"name":"a","size":3}')).to.deep.equal({ name: 'a', size: 3 });
  });

  it('read model state (documented tolerance): one the supervisor did not write counts as not built yet', () => {
    expect(parseStateDoc('{"state":"ready","generation":"g1","since":"x"}')).to.deep.equal({ state: 'ready', generation: 'g1', since: 'x' });
    expect(parseStateDoc('{"state":"done","generation":"g1","since":"x"}')).to.equal(undefined);
    expect(parseStateDoc('{')).to.equal(undefined);
  });

});
