import { expect } from 'chai';
import { decideOnHistory } from '../../src/core/command';
import { RedisKeys } from '../../src/core/redis/keys';
import { evolveFeatures, featureChanges, initialFeatureStates } from '../../src/readerdefinitions/feature-changes';
import {
  featureEventWrites,
  READER_FEATURES_KIND,
  ReaderFeatureReadModel,
  type FeatureRedis,
} from '../../src/readerdefinitions/feature-readmodel';
import type { FeatureChangeCommand, FeatureChangeEvent } from '../../src/readerdefinitions/features';
import { readerFeaturesPart } from '../../projections/config/reader-features';
import type { RecordedDomainEvent } from '../../src/core/events';

const keys = new RedisKeys('t:');
const KEY = keys.config(READER_FEATURES_KIND);

/** A Redis hash in memory: what the projection writes, what the read model reads. */
class MemoryHash implements FeatureRedis {
  readonly hashes = new Map<string, Map<string, string>>();
  hSet(key: string, field: string, value: string): void {
    const h = this.hashes.get(key) ?? new Map<string, string>();
    h.set(field, value);
    this.hashes.set(key, h);
  }
  hDel(key: string, field: string): void {
    this.hashes.get(key)?.delete(field);
  }
  del(key: string): void {
    this.hashes.delete(key);
  }
  async hmGet(key: string, fields: string[]): Promise<Array<string | null>> {
    return fields.map((f) => this.hashes.get(key)?.get(f) ?? null);
  }
  async hGetAll(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.hashes.get(key) ?? []);
  }
}

/** Through the projection part, as the config projection applies an event of `reader`'s stream. */
function project(redis: MemoryHash, reader: string, events: readonly FeatureChangeEvent[]): void {
  for (const e of events) {
    const recorded = { ...e, streamId: `readerFeatures-${reader}` } as unknown as RecordedDomainEvent<{ type: string; data: unknown }>;
    readerFeaturesPart.apply(redis, recorded, keys);
  }
}

const COMMANDS: FeatureChangeCommand[] = [
  { type: 'RequestFeatureChange', feature: 'ANTENNA_HUB', action: 'ENABLE' },
  { type: 'RequestFeatureChange', feature: 'ANTENNA_HUB', action: 'DISABLE' },
  { type: 'TakeFeatureChange', feature: 'ANTENNA_HUB' },
  { type: 'CompleteFeatureChange', feature: 'ANTENNA_HUB' },
  { type: 'CompleteFeatureChange', feature: 'ANTENNA_HUB', status: 'DISABLED' },
  { type: 'FailFeatureChange', feature: 'ANTENNA_HUB', message: 'hub unplugged' },
];

/** Every history the decider produces from up to `depth` commands, one minute apart. */
function histories(depth: number): FeatureChangeEvent[][] {
  const out: FeatureChangeEvent[][] = [[]];
  const grow = (history: FeatureChangeEvent[], step: number): void => {
    if (step === depth) return;
    for (const command of COMMANDS) {
      const now = new Date(Date.UTC(2024, 4, 1, 10, step));
      const decided = decideOnHistory(featureChanges, history, command, now);
      if (decided._tag === 'Left' || decided.right.events.length === 0) continue;
      const next = [...history, ...decided.right.events];
      out.push(next);
      grow(next, step + 1);
    }
  };
  grow([], 0);
  return out;
}

describe('readerdefinitions/feature-readmodel', () => {
  it('given any history the decider produces, the projected parts read back as the folded stream', async () => {
    const all = histories(5);
    expect(all.length).to.be.greaterThan(100);
    for (const history of all) {
      const redis = new MemoryHash();
      project(redis, 'r1', history);
      const model = new ReaderFeatureReadModel(redis, keys);
      const folded = history.reduce(evolveFeatures, initialFeatureStates);
      expect(await model.of('r1'), JSON.stringify(history)).to.deep.equal(folded);
      expect((await model.all()).get('r1') ?? {}, JSON.stringify(history)).to.deep.equal(folded);
    }
  });

  it('given no events, a reader has no feature states', async () => {
    const model = new ReaderFeatureReadModel(new MemoryHash(), keys);
    expect(await model.of('r1')).to.deep.equal({});
    expect(await model.all()).to.deep.equal(new Map());
  });

  it('keeps readers apart, including names with slashes', async () => {
    const redis = new MemoryHash();
    const at = '2024-05-01T10:00:00.000Z';
    project(redis, 'dock/1', [{ type: 'FeatureChangeRequested', data: { feature: 'ANTENNA_HUB', target: 'ENABLED', at } }]);
    project(redis, 'dock', [
      { type: 'FeatureChangeRequested', data: { feature: 'ANTENNA_HUB', target: 'DISABLED', at } },
      { type: 'FeatureChangeCompleted', data: { feature: 'ANTENNA_HUB', status: 'DISABLED', at } },
    ]);
    const model = new ReaderFeatureReadModel(redis, keys);
    const all = await model.all();
    expect([...all.keys()].sort()).to.deep.equal(['dock', 'dock/1']);
    expect(all.get('dock/1')?.ANTENNA_HUB?.requestStatus).to.equal('INITIALIZING');
    expect(all.get('dock')?.ANTENNA_HUB).to.include({ requestStatus: 'IDLE', status: 'DISABLED', statusLastUpdated: at });
    expect((await model.of('dock/1')).ANTENNA_HUB?.requestTargetStatus).to.equal('ENABLED');
  });

  it('writes whole parts only: what one event writes does not depend on the state before', () => {
    const event: FeatureChangeEvent = { type: 'FeatureChangeFailed', data: { feature: 'ANTENNA_HUB', message: 'm', at: '2024-05-01T10:00:00.000Z' } };
    expect(featureEventWrites('r', event)).to.deep.equal([
      ['r/ANTENNA_HUB/progress', JSON.stringify({ requestStatus: 'ERROR', requestStatusLastUpdated: '2024-05-01T10:00:00.000Z', message: 'm' })],
    ]);
  });

  it('names a field it cannot place or a part that does not decode instead of serving it', async () => {
    const odd = new MemoryHash();
    odd.hSet(KEY, 'no-feature-here', '{}');
    await new ReaderFeatureReadModel(odd, keys).all().then(
      () => expect.fail('expected a failure'),
      (err: Error) => expect(err.message).to.match(/unexpected field "no-feature-here"/),
    );
    const bad = new MemoryHash();
    bad.hSet(KEY, 'r/ANTENNA_HUB/progress', JSON.stringify({ requestStatus: 'SLEEPING', requestStatusLastUpdated: null }));
    await new ReaderFeatureReadModel(bad, keys).of('r').then(
      () => expect.fail('expected a failure'),
      (err: Error) => expect(err.message).to.match(/r\/ANTENNA_HUB\/progress does not decode/),
    );
  });
});
