import { expect } from 'chai';
import { QueueRegistry } from '../../src/queues/registry';
import type { QueueConfiguredData } from '../../src/queues/events';

const configured = (queue: string): QueueConfiguredData =>
  ({ kind: 'items', queue, deliveryMode: 'PERSISTENT', filter: {}, configuredAt: '2026-11-23T06:00:00.000Z', user: 'admin' }) as QueueConfiguredData;

describe('queues: registry', () => {
  it('a queue receives events after its configuration only, until it is retired; a replayed configuration does not bring it back', () => {
    const r = new QueueRegistry();
    r.add(configured('a'), 10n);
    r.add(configured('b'), 20n);
    expect(r.configuredBefore('items', 15n).map((q) => q.queue)).to.deep.equal(['a']);
    expect(r.configuredBefore('items', 25n).map((q) => q.queue)).to.deep.equal(['a', 'b']);
    expect(r.configuredBefore('health', 25n)).to.deep.equal([]);
    r.retire('a');
    // A subscription resumed from an older checkpoint sees a's QueueConfigured again.
    r.add(configured('a'), 10n);
    expect(r.configuredBefore('items', 25n).map((q) => q.queue)).to.deep.equal(['b']);
    expect(r.names()).to.deep.equal(['b']);
    expect(r.size).to.equal(1);
  });
});
