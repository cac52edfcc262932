import { expect } from 'chai';
import { decideOnHistory } from '../../src/core/command';
import {
  idCounterDecider,
  idCounterStream,
  type IdCounterCommand,
  type IdCounterEvent,
} from '../../src/thresholds/id-allocator';
import { rightOf } from '../readerdefinitions/support';

const counter = idCounterDecider;
const allocated = (id: number): IdCounterEvent => ({ type: 'IdAllocated', data: { id } });
const when = (history: IdCounterEvent[], cmd: IdCounterCommand) => rightOf(decideOnHistory(counter, history, cmd, new Date(0)));

describe('thresholds/id-allocator', () => {
  it('names one counter stream per kind, outside the projected prefixes', () => {
    expect(idCounterStream('threshold')).to.equal('thresholdIds-threshold');
    expect(idCounterStream('threshold').startsWith('threshold-')).to.equal(false);
  });

  it('given no history, when allocating, then 1', () => {
    expect(when([], { type: 'allocate' }).events).to.deep.equal([allocated(1)]);
  });

  it('given ids 1..3 allocated, when allocating, then 4 (deleting resources does not touch the counter)', () => {
    expect(when([allocated(1), allocated(2), allocated(3)], { type: 'allocate' }).state.highest).to.equal(4);
  });

  it('given a reserved id above the highest, when allocating, then the id after it', () => {
    const history = [allocated(1), ...when([allocated(1)], { type: 'reserve', id: 40 }).events];
    expect(when(history, { type: 'allocate' }).events).to.deep.equal([allocated(41)]);
  });

  it('given an id at or below the highest, when reserving, then nothing is appended', () => {
    expect(when([allocated(5)], { type: 'reserve', id: 5 }).events).to.deep.equal([]);
    expect(when([allocated(5)], { type: 'reserve', id: 2 }).events).to.deep.equal([]);
  });
});
