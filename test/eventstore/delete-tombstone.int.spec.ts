// Soft delete (deleteStream) and hard delete (tombstoneStream).
import { expect } from 'chai';
import {
  ANY,
  NO_STREAM,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type BaseOptions,
} from '@eventstore/db-client';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect, expectRejection, testEvents } from '../support/helpers';

const credentials = { username: 'admin', password: 'changeit' };
const appendPaths: Array<[string, BaseOptions]> = [
  ['BatchAppend', {}],
  ['unary Append', { credentials }],
];

describe('event store contract: delete and tombstone', () => {
  const fx = withEventStore();

  describe('deleteStream (soft delete)', () => {
    it('makes the stream read as not found', async () => {
      const stream = uniqueStream('del');
      await fx.client.appendToStream(stream, testEvents(3), { expectedRevision: NO_STREAM });
      const result = await fx.client.deleteStream(stream);
      if (result.position) expect(typeof result.position.commit).to.equal('bigint');
      await expectRejection(collect(fx.client.readStream(stream)), StreamNotFoundError);
    });

    for (const [pathName, callOptions] of appendPaths) {
      it(`lets the stream be recreated with ANY via ${pathName}, revisions continuing after the old last one`, async () => {
        const stream = uniqueStream('del-recreate');
        await fx.client.appendToStream(stream, testEvents(3), { expectedRevision: NO_STREAM });
        await fx.client.deleteStream(stream, { expectedRevision: 2n });
        const fresh = testEvents(2, { from: 100 });
        const result = await fx.client.appendToStream(stream, fresh, { ...callOptions, expectedRevision: ANY });
        expect(result.nextExpectedRevision).to.equal(4n);
        const read = await collect(fx.client.readStream(stream));
        expect(read.map((e) => e.event?.revision)).to.deep.equal([3n, 4n]);
        expect(read.map((e) => e.event?.id)).to.deep.equal(fresh.map((e) => e.id));
        const more = await fx.client.appendToStream(stream, testEvents(1), { ...callOptions, expectedRevision: 4n });
        expect(more.nextExpectedRevision).to.equal(5n);
      });
    }

    it('rejects a delete with a wrong expectedRevision with WrongExpectedVersionError and keeps the stream', async () => {
      const stream = uniqueStream('del-wev');
      await fx.client.appendToStream(stream, testEvents(3), { expectedRevision: NO_STREAM });
      const err = await expectRejection(fx.client.deleteStream(stream, { expectedRevision: 5n }), WrongExpectedVersionError);
      expect(err.type).to.equal('wrong-expected-version');
      expect(err.streamName).to.equal(stream);
      expect(err.expectedVersion).to.equal(5n);
      expect(err.actualVersion).to.equal(2n);
      expect(await collect(fx.client.readStream(stream))).to.have.length(3);
    });

    it('rejects a delete expecting NO_STREAM on an existing stream', async () => {
      const stream = uniqueStream('del-wev');
      await fx.client.appendToStream(stream, testEvents(1), { expectedRevision: NO_STREAM });
      await expectRejection(fx.client.deleteStream(stream, { expectedRevision: NO_STREAM }), WrongExpectedVersionError);
      expect(await collect(fx.client.readStream(stream))).to.have.length(1);
    });
  });

  describe('tombstoneStream (hard delete)', () => {
    it('makes reads fail with StreamDeletedError', async () => {
      const stream = uniqueStream('tomb');
      await fx.client.appendToStream(stream, testEvents(2), { expectedRevision: NO_STREAM });
      const result = await fx.client.tombstoneStream(stream, { expectedRevision: 1n });
      if (result.position) expect(typeof result.position.commit).to.equal('bigint');
      const err = await expectRejection(collect(fx.client.readStream(stream)), StreamDeletedError);
      expect(err.type).to.equal('stream-deleted');
      expect(err.streamName).to.equal(stream);
    });

    for (const [pathName, callOptions] of appendPaths) {
      it(`makes appends via ${pathName} fail with StreamDeletedError, whatever the expected revision`, async () => {
        const stream = uniqueStream('tomb-append');
        await fx.client.appendToStream(stream, testEvents(1), { expectedRevision: NO_STREAM });
        await fx.client.tombstoneStream(stream);
        const err = await expectRejection(
          fx.client.appendToStream(stream, testEvents(1), { ...callOptions, expectedRevision: ANY }),
          StreamDeletedError,
        );
        expect(err.streamName).to.equal(stream);
        await expectRejection(
          fx.client.appendToStream(stream, testEvents(1), { ...callOptions, expectedRevision: NO_STREAM }),
          StreamDeletedError,
        );
        await expectRejection(
          fx.client.appendToStream(stream, testEvents(1), { ...callOptions, expectedRevision: 0n }),
          StreamDeletedError,
        );
      });
    }

    it('rejects a second tombstone and a soft delete with StreamDeletedError', async () => {
      const stream = uniqueStream('tomb-twice');
      await fx.client.appendToStream(stream, testEvents(1), { expectedRevision: NO_STREAM });
      await fx.client.tombstoneStream(stream);
      await expectRejection(fx.client.tombstoneStream(stream), StreamDeletedError);
      await expectRejection(fx.client.deleteStream(stream), StreamDeletedError);
    });

    it('can tombstone a soft-deleted stream, which then reads as deleted', async () => {
      const stream = uniqueStream('tomb-after-del');
      await fx.client.appendToStream(stream, testEvents(2), { expectedRevision: NO_STREAM });
      await fx.client.deleteStream(stream);
      await fx.client.tombstoneStream(stream);
      await expectRejection(collect(fx.client.readStream(stream)), StreamDeletedError);
    });

    it('rejects a tombstone with a wrong expectedRevision and keeps the stream', async () => {
      const stream = uniqueStream('tomb-wev');
      await fx.client.appendToStream(stream, testEvents(2), { expectedRevision: NO_STREAM });
      const err = await expectRejection(fx.client.tombstoneStream(stream, { expectedRevision: 7n }), WrongExpectedVersionError);
      expect(err.expectedVersion).to.equal(7n);
      expect(err.actualVersion).to.equal(1n);
      expect(await collect(fx.client.readStream(stream))).to.have.length(2);
    });
  });
});
