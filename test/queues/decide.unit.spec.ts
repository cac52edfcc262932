// A client queue's decisions, on its own stream: configured once, retired
// once, only by its owner or an Admin (others see 404, as for a queue that
// does not exist), and the relay's idle retirement refused once it is retired.
import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { ApiError } from '../../src/core/http/errors';
import { queueDecider } from '../../src/queues/decide';
import type { QueueConfiguredData, QueueEvent } from '../../src/queues/events';

const now = new Date(0);
const data = { kind: 'items', queue: 'tagtrail.items.q1', deliveryMode: 'PERSISTENT', filter: {}, configuredAt: '2026-01-01T00:00:00.000Z', user: 'alice' } as QueueConfiguredData;
const configured: QueueEvent = { type: 'QueueConfigured', data };
const deleted = { queue: data.queue, reason: 'DELETED' as const, user: 'alice', retiredAt: '2026-01-02T00:00:00.000Z' };
const idle = { queue: data.queue, reason: 'NO_CONSUMER' as const, idleSince: '2026-01-01T00:00:00.000Z', retiredAt: '2026-01-02T00:00:00.000Z' };
const status = (out: ReturnType<typeof decideOnHistory>): number | undefined => (isLeft(out) && out.left instanceof ApiError ? out.left.status : undefined);

describe('queues: decisions on one queue', () => {
  it('is configured once', () => {
    expect(isRight(decideOnHistory(queueDecider, [], { type: 'Configure', data }, now))).to.equal(true);
    expect(status(decideOnHistory(queueDecider, [configured], { type: 'Configure', data }, now))).to.equal(409);
  });

  it('is retired by its owner or an Admin; anyone else, or a second retirement, finds no queue', () => {
    const owner = decideOnHistory(queueDecider, [configured], { type: 'Retire', data: deleted, by: { name: 'alice', roles: [] } }, now);
    expect(isRight(owner) && owner.right.events.map((e) => e.type)).to.deep.equal(['QueueRetired']);
    expect(isRight(decideOnHistory(queueDecider, [configured], { type: 'Retire', data: deleted, by: { name: 'root', roles: ['Admin'] } }, now))).to.equal(true);
    expect(status(decideOnHistory(queueDecider, [configured], { type: 'Retire', data: deleted, by: { name: 'bob', roles: [] } }, now))).to.equal(404);
    expect(status(decideOnHistory(queueDecider, [], { type: 'Retire', data: deleted, by: { name: 'alice', roles: [] } }, now))).to.equal(404);
    const retired: QueueEvent = { type: 'QueueRetired', data: deleted };
    expect(status(decideOnHistory(queueDecider, [configured, retired], { type: 'Retire', data: idle }, now)), 'the relay after a delete').to.equal(404);
  });
});
