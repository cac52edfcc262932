import { expect } from 'chai';
import { ApiError } from '../../src/core/http/errors';
import { encodeMarker, isAfter, parseHealthEventSearch } from '../../src/health/search';

function badField(body: unknown): string[] {
  try {
    parseHealthEventSearch(body);
  } catch (e) {
    expect(e).to.be.instanceOf(ApiError);
    expect((e as ApiError).status).to.equal(400);
    return (e as ApiError).errors.map((f) => f.path);
  }
  throw new Error('expected a 400');
}

describe('health event search body', () => {
  it('given nothing, then every event, 100 a page', () => {
    const q = parseHealthEventSearch(undefined);
    expect(q).to.include({ pageSize: 100, readerNames: undefined, after: undefined });
  });

  it('given bad values, then 400 naming the field', () => {
    expect(badField({ types: ['NOPE'] })).to.deep.equal(['body.types.0']);
    expect(badField({ codes: ['DROPPED_READ', 'NOPE'] })).to.deep.equal(['body.codes.1']);
    expect(badField({ readerNames: 'r1' })).to.deep.equal(['body.readerNames']);
    expect(badField({ fromTime: 'yesterday' })).to.deep.equal(['body.fromTime']);
    expect(badField({ toTime: 5 })).to.deep.equal(['body.toTime']);
    expect(badField({ pageSize: 0 })).to.deep.equal(['body.pageSize']);
    expect(badField({ pageSize: 1001 })).to.deep.equal(['body.pageSize']);
    expect(badField({ pageSize: 1.5 })).to.deep.equal(['body.pageSize']);
    expect(badField({ fromTime: '2026-01-02T00:00:00Z', toTime: '2026-01-01T00:00:00Z' })).to.deep.equal(['body.toTime']);
    expect(badField({ nextPageMarker: 'garbage' })).to.deep.equal(['body.nextPageMarker']);
    expect(badField({ readerName: 'r1' })).to.deep.equal(['body.readerName']);
    expect(badField([])).to.deep.equal(['body']);
  });

  it('accepts NOT_RESPONDING and RESPONDING as codes', () => {
    expect(parseHealthEventSearch({ codes: ['NOT_RESPONDING', 'RESPONDING'] }).codes).to.have.length(2);
  });

  it('a marker is accepted with the same filters (in any order, any pageSize) and refused with others', () => {
    const first = parseHealthEventSearch({ readerNames: ['b', 'a'], types: ['THROUGHPUT'] });
    const marker = encodeMarker(first.fingerprint, { score: 5, member: 'm' });
    const next = parseHealthEventSearch({ readerNames: ['a', 'b'], types: ['THROUGHPUT'], pageSize: 7, nextPageMarker: marker });
    expect(next.after).to.deep.equal({ score: 5, member: 'm' });
    expect(badField({ readerNames: ['a'], types: ['THROUGHPUT'], nextPageMarker: marker })).to.deep.equal(['body.nextPageMarker']);
    expect(badField({ readerNames: ['a', 'b'], nextPageMarker: marker })).to.deep.equal(['body.nextPageMarker']);
  });

  it('orders positions by score, then member bytes', () => {
    expect(isAfter({ score: 2, member: 'a' }, { score: 1, member: 'z' })).to.equal(true);
    expect(isAfter({ score: 1, member: 'b' }, { score: 1, member: 'a' })).to.equal(true);
    expect(isAfter({ score: 1, member: 'a' }, { score: 1, member: 'a' })).to.equal(false);
    expect(isAfter({ score: 1, member: 'a' }, undefined)).to.equal(true);
  });
});
