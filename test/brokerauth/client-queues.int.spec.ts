// Which queue names broker auth lets clients read and configure, against the
// embedded event store: configured and not retired; a retired queue is
// refused once its remembered confirmation runs out.
import { expect } from 'chai';
import { appendEvents } from '../../src/core/eventstore';
import { encodeEvent } from '../../src/core/events';
import { configuredQueueLookup } from '../../src/brokerauth/client-queues';
import { queueEvents } from '../../src/queues/events';
import { queueName, queueStream } from '../../src/queues/model';
import { withEventStore } from '../support/eventstore';
import { configureItemQueue } from '../queues/relay-fixture';
import { ManualClock } from '../support/clock';

describe('broker auth: configured client queues', function () {
  this.timeout(30_000);
  const es = withEventStore();

  it('a configured queue qualifies, a name never configured does not, a retired queue stops qualifying', async () => {
    const clock = new ManualClock();
    const lookup = configuredQueueLookup(es.client, 300, clock);
    const { queue, id } = await configureItemQueue(es.client, 'E2');
    expect(await lookup(queue), 'configured').to.equal(true);
    expect(await lookup(queueName('items', crypto.randomUUID())), 'never configured').to.equal(false);
    expect(await lookup('orders'), 'not a client queue name').to.equal(false);

    const data = { queue, reason: 'NO_CONSUMER' as const, idleSince: new Date(Date.now() - 1000).toISOString(), retiredAt: new Date().toISOString() };
    await appendEvents(es.client, queueStream(id), [encodeEvent(queueEvents, { type: 'QueueRetired', data })], 'any');
    // Remembered for a while (the broker asks on every declare and consume), then read again.
    expect(await lookup(queue), 'remembered').to.equal(true);
    clock.advance(400);
    expect(await lookup(queue), 'retired').to.equal(false);
    // A lookup that never saw it refuses it at once.
    expect(await configuredQueueLookup(es.client)(queue), 'retired, fresh lookup').to.equal(false);
  });
});
