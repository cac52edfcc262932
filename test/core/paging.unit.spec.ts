import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { randomBytes } from 'node:crypto';
import type { ApiError } from '../../src/core/http/errors';
import {
  configurePageMarkerKey,
  decodePageMarker,
  decodePageSize,
  encodePageMarker,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '../../src/core/paging';

function refused<A>(r: E.Either<ApiError, A>): ApiError {
  if (E.isRight(r)) throw new Error(`expected a 400, got ${JSON.stringify(r.right)}`);
  return r.left;
}

function accepted<A>(r: E.Either<ApiError, A>): A {
  if (E.isLeft(r)) throw new Error(`expected success, got ${JSON.stringify(r.left.errors)}`);
  return r.right;
}

describe('page markers', () => {
  const query = { facility: 'HQ', zoneNames: 'A,B', epcFormat: 'PURE_ID', pageSize: '10' };
  const cursor = { epc: '3074257BF7194E4000001A85', t: 1700000000000 };

  it('give back the cursor for the same parameters, whatever the page size or the parameter order', () => {
    const marker = encodePageMarker(query, cursor);
    expect(marker).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(accepted(decodePageMarker(marker, query))).to.deep.equal(cursor);
    const next = { pageMarker: marker, pageSize: '500', epcFormat: 'PURE_ID', zoneNames: 'A,B', facility: 'HQ' };
    expect(accepted(decodePageMarker(marker, next))).to.deep.equal(cursor);
    // a parameter given as undefined is the same as absent
    expect(accepted(decodePageMarker(marker, { ...query, jobId: undefined }))).to.deep.equal(cursor);
  });

  it('are refused with 400 naming query.pageMarker when the other parameters differ', () => {
    const marker = encodePageMarker(query, cursor);
    for (const other of [
      { ...query, facility: 'Other' },
      { ...query, epcFormat: 'RAW' },
      { ...query, zoneNames: 'B,A' },
      { ...query, jobId: 'x' },
      { facility: 'HQ', zoneNames: 'A,B' },
    ]) {
      const e = refused(decodePageMarker(marker, other));
      expect(e.status).to.equal(400);
      expect(e.errors).to.have.length(1);
      expect(e.errors[0]?.path).to.equal('query.pageMarker');
      expect(e.errors[0]?.reason).to.match(/other parameters/);
    }
  });

  it('are refused when malformed, edited or signed with another key', () => {
    const marker = encodePageMarker(query, cursor);
    const [payload, sig] = marker.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ v: 1, q: 'x', c: { epc: '00' } })).toString('base64url');
    const other = encodePageMarker(query, cursor, { key: randomBytes(32) });
    for (const bad of [
      '',
      'abc',
      'not base64!',
      `${payload}`,
      `${payload}.`,
      `.${sig}`,
      `${payload}.${sig}.x`,
      `${forged}.${sig}`,
      `${payload}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`,
      `${payload}A.${sig}`,
      other,
      'x'.repeat(10_000),
    ]) {
      const e = refused(decodePageMarker(bad, query));
      expect(e.status, bad).to.equal(400);
      expect(e.errors[0]?.path).to.equal('query.pageMarker');
      expect(e.errors[0]?.reason).to.equal('is not a page marker issued by this service');
    }
  });

  it('are bound to their scope (items vs history)', () => {
    const marker = encodePageMarker(query, cursor, { scope: 'items' });
    expect(accepted(decodePageMarker(marker, query, { scope: 'items' }))).to.deep.equal(cursor);
    expect(refused(decodePageMarker(marker, query, { scope: 'history' })).errors[0]?.path).to.equal('query.pageMarker');
    expect(E.isLeft(decodePageMarker(marker, query))).to.equal(true);
  });

  it('check the cursor shape with a codec', () => {
    const Cursor = t.type({ epc: t.string, t: t.number });
    const marker = encodePageMarker(query, cursor);
    const c = accepted(decodePageMarker(marker, query, {}, Cursor));
    expect(c.epc).to.equal(cursor.epc);
    const old = encodePageMarker(query, { offset: 3 });
    expect(refused(decodePageMarker(old, query, {}, Cursor)).errors[0]?.path).to.equal('query.pageMarker');
  });

  it('stop being accepted when the key changes; a configured key is shared by processes', () => {
    const key = randomBytes(32);
    const elsewhere = encodePageMarker(query, cursor, { key });
    configurePageMarkerKey(key);
    try {
      const here = encodePageMarker(query, cursor);
      expect(accepted(decodePageMarker(elsewhere, query))).to.deep.equal(cursor);
      configurePageMarkerKey(randomBytes(32));
      expect(E.isLeft(decodePageMarker(here, query))).to.equal(true);
    } finally {
      configurePageMarkerKey(randomBytes(32));
    }
    expect(() => configurePageMarkerKey('short')).to.throw(/16 bytes/);
  });

  it('carry cursors of any JSON shape, including null', () => {
    for (const c of [null, 0, 'x', [1, 'a'], { nested: { deep: [true] } }]) {
      expect(accepted(decodePageMarker(encodePageMarker({}, c), {}))).to.deep.equal(c);
    }
  });
});

describe('pageSize', () => {
  it('defaults to 100 and takes integers from 1 to 1000, as query strings or numbers', () => {
    expect(DEFAULT_PAGE_SIZE).to.equal(100);
    expect(MAX_PAGE_SIZE).to.equal(1000);
    expect(accepted(decodePageSize(undefined))).to.equal(100);
    expect(accepted(decodePageSize('1'))).to.equal(1);
    expect(accepted(decodePageSize('1000'))).to.equal(1000);
    expect(accepted(decodePageSize('010'))).to.equal(10);
    expect(accepted(decodePageSize(250))).to.equal(250);
  });

  it('refuses anything else with 400 naming query.pageSize', () => {
    for (const bad of ['0', '1001', '-1', '1.5', '1e2', ' 5', '', 'ten', '99999999999', 0, 1001, 2.5, NaN, null, ['5', '6'], {}]) {
      const e = refused(decodePageSize(bad));
      expect(e.status, JSON.stringify(bad)).to.equal(400);
      expect(e.errors).to.have.length(1);
      expect(e.errors[0]?.path).to.equal('query.pageSize');
      expect(e.errors[0]?.reason).to.match(/^must be an integer from 1 to 1000/);
    }
  });
});
