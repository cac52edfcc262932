import { expect } from 'chai';
import { applyMetadata, EMPTY_STREAM, exists, firstVisible } from '../../../src/eventstore/storage/streamstate';

describe('stream state', () => {
  it('a stream never written does not exist', () => {
    expect(exists(EMPTY_STREAM)).to.equal(false);
  });

  it('a soft delete (truncate-before past the end) makes the stream not exist until appended again', () => {
    const written = { ...EMPTY_STREAM, last: 4 };
    const deleted = applyMetadata(written, { $tb: 5 });
    expect(exists(deleted)).to.equal(false);
    expect(exists({ ...deleted, last: 5 })).to.equal(true);
    expect(firstVisible({ ...deleted, last: 5 })).to.equal(5);
  });

  it('maxCount hides all but the newest events', () => {
    const s = applyMetadata({ ...EMPTY_STREAM, last: 9 }, { $maxCount: 3 });
    expect(firstVisible(s)).to.equal(7);
  });

  it('a tombstoned stream does not exist', () => {
    expect(exists({ last: 3, tombstoned: true })).to.equal(false);
  });

  it('ignores metadata values of the wrong type', () => {
    const s = applyMetadata({ ...EMPTY_STREAM, last: 2 }, { $tb: 'x', $maxCount: null });
    expect(firstVisible(s)).to.equal(0);
  });
});
