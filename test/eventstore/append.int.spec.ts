// appendToStream over the unary Append RPC: the client picks it whenever
// per-call credentials are given (in insecure mode it then sends no
// authorization header, but still takes the unary path).
import { expect } from 'chai';
import { jsonEvent } from '@eventstore/db-client';
import { describeAppendContract } from '../support/append-contract';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect } from '../support/helpers';

const credentials = { username: 'admin', password: 'changeit' };

describe('event store contract: append (unary Append RPC)', () => {
  const fx = withEventStore();

  describeAppendContract('unary Append (call credentials)', fx, { credentials });

  it('writes many events of one call in order, atomically', async () => {
    const stream = uniqueStream('append-many');
    const events = Array.from({ length: 500 }, (_, i) => jsonEvent({ type: 'Many', data: { i } }));
    const result = await fx.client.appendToStream(stream, events, { credentials });
    expect(result.nextExpectedRevision).to.equal(499n);
    const read = await collect(fx.client.readStream(stream));
    expect(read).to.have.length(500);
    expect(read.map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
    expect(read.map((e) => (e.event?.data as { i: number }).i)).to.deep.equal(events.map((_, i) => i));
  });
});
