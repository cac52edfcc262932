// Engine partitions (src/engine/partitions.ts): the facility -> partition
// hash is stable (FNV-1a mixed by MurmurHash3's finalizer, fixed values that a change of the function would
// break: facilities would silently change owners), covers every partition
// and keeps the default of one partition at today's names.
import { expect } from 'chai';
import { ENGINE_STREAM } from '../../src/engine/events';
import { ENGINE_STREAM_PREFIX, engineStream, engineStreams, fnv1a, isEngineStream, partitionOf, snapshotDirOf } from '../../src/engine/partitions';

describe('engine partitions', () => {
  it('one partition: every facility is partition 0, whose stream and snapshots keep the names they had', () => {
    for (const f of ['DEFAULT', 'North', '', 'Zürich']) expect(partitionOf(f, 1)).to.equal(0);
    expect(engineStream(0)).to.equal('itemsChanged-engine-0');
    expect(ENGINE_STREAM).to.equal('itemsChanged-engine-0');
    expect(engineStreams(1)).to.deep.equal(['itemsChanged-engine-0']);
    expect(snapshotDirOf('/data/engine-snapshots', 0)).to.equal('/data/engine-snapshots');
    expect(snapshotDirOf('/data/engine-snapshots', 3)).to.equal('/data/engine-snapshots-3');
  });

  it('is the mixed FNV-1a of the UTF-8 name modulo the count: the same owner in every process and version', () => {
    // The published FNV-1a 32 test vectors.
    expect(fnv1a('')).to.equal(0x811c9dc5);
    expect(fnv1a('a')).to.equal(0xe40c292c);
    expect(fnv1a('foobar')).to.equal(0xbf9cf968);
    const table: Array<[string, number[]]> = [
      ['DEFAULT', [0, 0, 2, 6]],
      ['North', [0, 0, 2, 2]],
      ['South', [1, 0, 1, 1]],
      ['West', [1, 0, 1, 5]],
      ['Zürich', [1, 2, 3, 7]],
    ];
    for (const [facility, expected] of table) {
      expect([2, 3, 4, 16].map((n) => partitionOf(facility, n)), facility).to.deep.equal(expected);
    }
  });

  it('puts every facility in a partition that exists, and every partition gets some of many facilities', () => {
    for (const n of [2, 3, 7, 16]) {
      const counts = new Array<number>(n).fill(0);
      for (let k = 0; k < 2000; k++) {
        const p = partitionOf(`store-${k}`, n);
        expect(Number.isInteger(p) && p >= 0 && p < n, `store-${k} of ${n}: ${p}`).to.equal(true);
        counts[p] = (counts[p] ?? 0) + 1;
      }
      // Spread: every partition gets within a fifth of its fair share of 2000 stores (plain FNV-1a puts the
      // names of one parity of bytes all in one partition of two).
      for (const c of counts) expect(Math.abs(c - 2000 / n), `partition sizes of ${n}: ${counts.join(',')}`).to.be.below(2000 / n / 5);
    }
  });

  it('tells every partition output stream, and nothing else, by name; one prefix matches them all', () => {
    for (const s of engineStreams(12)) {
      expect(isEngineStream(s), s).to.equal(true);
      expect(s.startsWith(ENGINE_STREAM_PREFIX)).to.equal(true);
    }
    for (const s of ['itemsChanged-engine-', 'itemsChanged-engine-01', 'itemsChanged-engine-1x', 'itemsChanged-other-0', 'tagReports-engine-0', 'xitemsChanged-engine-0']) {
      expect(isEngineStream(s), s).to.equal(false);
    }
  });
});
