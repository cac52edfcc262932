import { expect } from 'chai';
import type { ItemChange } from '../../src/engine';
import { historyRecordOf, itemAfter, keptInHistory } from '../../src/items/model';
import { change as baseChange } from '../queues/support';

const change = (over: Partial<ItemChange> = {}): ItemChange => baseChange({ epc: 'e28011606000020a', tid: null, jobId: 'job-1', toX: 3, toY: 4, ...over });
const exit = (): ItemChange => change({ kind: 'EXPIRED', toZone: 'ABSENT', toFloor: null, toX: null, toY: null, toFacility: 'STORE' });

describe('items read model: what one change stores', () => {
  it('given an item with coordinates, then zLocation is 0; given an item without (absent, or never located), then x, y and z are all null', () => {
    expect(itemAfter(change())).to.include({ xLocation: 3, yLocation: 4, zLocation: 0 });
    expect(itemAfter(exit())).to.include({ xLocation: null, yLocation: null, zLocation: null, zone: 'ABSENT' });
    expect(itemAfter(change({ toX: null, toY: null }))).to.include({ zLocation: null });
  });

  it('given an exit to ABSENT, then the item stays listed in its facility but the record goes to no facility', () => {
    expect(itemAfter(exit()).facility).to.equal('STORE');
    expect(historyRecordOf(exit()).record).to.include({ fromFacility: 'STORE', toFacility: null, toZone: 'ABSENT' });
    expect(historyRecordOf(change()).record.toFacility, 'other changes keep theirs').to.equal('STORE');
  });

  it('given each kind, then the history keeps zone transitions and moves (marked), never heartbeats', () => {
    for (const kind of ['FIRST_SEEN', 'ZONE_CHANGE', 'EXPIRED', 'MOVED'] as const) expect(keptInHistory(kind), kind).to.equal(true);
    expect(keptInHistory('HEARTBEAT')).to.equal(false);
    expect(historyRecordOf(change({ kind: 'MOVED' })).moved).to.equal(true);
    expect(historyRecordOf(change({ kind: 'ZONE_CHANGE' }))).to.not.have.property('moved');
  });
});
