// The stored form of TagsReported: version 2 columns, version 1 still read.
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { TagsReportedData, TagsReportedV1 } from '../../src/agents/events';
import { TagsReportedEpcs } from '../../src/agents/report-columns';
import { formatDecodeErrors } from '../../src/core/decode-errors';

const obs = (i: number, over: Record<string, unknown> = {}) => ({
  epc: `E2801160600002${String(i).padStart(4, '0')}`, tid: null, antennaId: 1 + (i % 3), peakRssi: -52.5 - i, readCount: 1 + i,
  firstSeen: '2026-11-23T10:00:01.000Z', lastSeen: `2026-11-23T10:00:0${4 + (i % 2)}.250Z`, x: null, y: null, ...over,
});
const data = (observations: ReturnType<typeof obs>[]) => ({ reader: 'r1', jobId: 'j', facility: 'DEFAULT', from: '2026-11-23T10:00:00.000Z', to: '2026-11-23T10:00:05.000Z', observations });
const stored = (d: ReturnType<typeof data>): unknown => JSON.parse(JSON.stringify(TagsReportedData.encode(d)));
const decoded = (u: unknown) => {
  const r = TagsReportedData.decode(u);
  if (E.isLeft(r)) throw new Error(JSON.stringify(formatDecodeErrors(r.left, 'data')));
  return r.right;
};
const errorPaths = (u: unknown): string[] => {
  const r = TagsReportedData.decode(u);
  return E.isLeft(r) ? formatDecodeErrors(r.left, 'data').map((e) => e.path) : [];
};

describe('TagsReported stored form', () => {
  it('is written as version 2 columns, times in ms after from, all-null columns left out', () => {
    const w = stored(data([obs(0), obs(1)])) as Record<string, unknown>;
    expect(w).to.deep.equal({
      v: 2, reader: 'r1', jobId: 'j', facility: 'DEFAULT', from: '2026-11-23T10:00:00.000Z', to: '2026-11-23T10:00:05.000Z',
      epc: ['E28011606000020000', 'E28011606000020001'], antennaId: [1, 2], peakRssi: [-52.5, -53.5], readCount: [1, 2],
      firstSeen: [1000, 1000], lastSeen: [4250, 5250],
    });
  });
  it('round-trips, with tid and x/y when present', () => {
    const d = data([obs(0), obs(1, { tid: 'E2003412', x: 1.5, y: -2 }), obs(2, { x: 0 })]);
    expect(decoded(stored(d))).to.deep.equal(d);
  });
  it('stores phaseAngle as an optional column: absent when no reader gave one, kept per observation when one did', () => {
    const d = data([obs(0, { tid: 'E2003412', phaseAngle: 123.75 }), obs(1, { phaseAngle: null }), obs(2)]);
    const w = stored(d) as Record<string, unknown>;
    expect(w['phaseAngle']).to.deep.equal([123.75, null, null]);
    expect(w['tid']).to.deep.equal(['E2003412', null, null]);
    expect(decoded(w).observations.map((o) => o.phaseAngle)).to.deep.equal([123.75, null, null]);
    // A report without phases (every report written before the column existed) decodes without the field.
    expect(decoded(stored(data([obs(0)]))).observations[0]).to.not.have.property('phaseAngle');
    expect(errorPaths({ ...w, phaseAngle: [1, 'a', null] })).to.deep.equal(['data.phaseAngle.1']);
    expect(errorPaths({ ...w, phaseAngle: [1] })).to.deep.equal(['data.phaseAngle']);
    // Version 1 events with and without it still decode.
    const v1 = JSON.parse(JSON.stringify(TagsReportedV1.encode(data([obs(0, { phaseAngle: 90 }), obs(1)])))) as unknown;
    expect(decoded(v1).observations.map((o) => o.phaseAngle)).to.deep.equal([90, undefined]);
  });
  it('round-trips an empty report', () => {
    expect(decoded(stored(data([])))).to.deep.equal(data([]));
  });
  it('gives times as UTC ISO strings of the same instant', () => {
    const d = { ...data([obs(0, { firstSeen: '2026-11-23T11:00:01+01:00', lastSeen: '2026-11-23T10:00:02.5Z' })]), from: '2026-11-23T11:00:00+01:00' };
    const o = decoded(stored(d)).observations[0]!;
    expect([o.firstSeen, o.lastSeen]).to.deep.equal(['2026-11-23T10:00:01.000Z', '2026-11-23T10:00:02.500Z']);
  });
  it('still decodes version 1 (an object per observation)', () => {
    const d = data([obs(0), obs(1, { tid: 'E2003412', x: 3, y: 4 })]);
    const v1 = JSON.parse(JSON.stringify(TagsReportedV1.encode(d))) as unknown;
    expect(decoded(v1)).to.deep.equal(d);
  });
  it('refuses columns of another length than epc, and bad values, naming the column and index', () => {
    const w = stored(data([obs(0), obs(1)])) as Record<string, unknown[]>;
    expect(errorPaths({ ...w, readCount: [1] })).to.deep.equal(['data.readCount']);
    expect(errorPaths({ ...w, epc: ['E2', 'xyz'] })).to.deep.equal(['data.epc.1']);
    expect(errorPaths({ ...w, lastSeen: [1, 'later'] })).to.deep.equal(['data.lastSeen.1']);
    expect(errorPaths({ ...w, x: [null, 'x'] })).to.deep.equal(['data.x.1']);
    expect(errorPaths({ ...w, jobId: '' })).to.deep.equal(['data.jobId']);
  });
  it('the EPCs alone decode from both versions', () => {
    const d = data([obs(0), obs(1)]);
    const epcs = ['E28011606000020000', 'E28011606000020001'];
    for (const u of [stored(d), JSON.parse(JSON.stringify(TagsReportedV1.encode(d)))]) {
      const r = TagsReportedEpcs.decode(u);
      expect(E.isRight(r) && r.right.observations.map((o) => o.epc)).to.deep.equal(epcs);
      expect(E.isRight(r) && r.right.to).to.equal(d.to);
    }
  });
});
