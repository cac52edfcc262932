import { expect } from 'chai';
import * as t from 'io-ts';
import { isLeft, isRight } from 'fp-ts/Either';
import type { JSONType, MetadataType, ResolvedEvent } from '@eventstore/db-client';
import { decodeRecorded, encodeEvent, MalformedEventError } from '../../src/core/events';
import { formatDecodeErrors } from '../../src/core/decode-errors';
import { counterEvents } from './toy-counter';

// What the client hands back after a read: built by hand so decoding is
// tested without a server.
function stored(
  type: string,
  data: JSONType | Uint8Array,
  metadata?: MetadataType,
  opts: { isJson?: boolean; revision?: bigint; streamId?: string } = {},
): ResolvedEvent {
  const base = {
    streamId: opts.streamId ?? 'counter-1',
    id: '9f1c0d0e-3c1a-4a55-9e43-3d3b0c6a1e01',
    revision: opts.revision ?? 4n,
    type,
    created: new Date('2024-01-01T00:00:00Z'),
    metadata,
    position: { commit: 100n, prepare: 100n },
  };
  const event = opts.isJson === false || data instanceof Uint8Array
    ? { ...base, isJson: false as const, data: data instanceof Uint8Array ? data : new Uint8Array() }
    : { ...base, isJson: true as const, data };
  return { event } as ResolvedEvent;
}

describe('core/events', () => {
  describe('encodeEvent', () => {
    it('encodes data with the codec and metadata with EventStoreDB names', () => {
      const openedAt = new Date('2024-05-06T07:08:09.000Z');
      const encoded = encodeEvent(
        counterEvents,
        { type: 'CounterOpened', data: { name: 'n', openedAt } },
        { correlationId: 'c-1', causationId: 'k-1', user: 'alice' },
      );
      expect(encoded.type).to.equal('CounterOpened');
      expect(encoded.contentType).to.equal('application/json');
      expect(encoded.data).to.deep.equal({ name: 'n', openedAt: '2024-05-06T07:08:09.000Z' });
      expect(encoded.metadata).to.deep.equal({ $correlationId: 'c-1', $causationId: 'k-1', user: 'alice' });
      expect(encoded.id).to.match(/^[0-9a-f-]{36}$/);
    });

    it('omits empty metadata and keeps a given id', () => {
      const id = '0b6d3a7e-0b7a-4bb0-8e3e-6f7d9f8f1a2b';
      const encoded = encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by: 2 } }, {}, id);
      expect(encoded.metadata).to.equal(undefined);
      expect(encoded.id).to.equal(id);
    });
  });

  describe('decodeRecorded', () => {
    it('round-trips what encodeEvent wrote, with recorded facts and metadata', () => {
      const encoded = encodeEvent(counterEvents, { type: 'CounterOpened', data: { name: 'n', openedAt: new Date(0) } }, {
        correlationId: 'c-1',
        user: 'bob',
      });
      const result = decodeRecorded(stored(encoded.type, encoded.data as JSONType, encoded.metadata), counterEvents);
      if (!isRight(result)) return expect.fail(result.left.message);
      const e = result.right;
      expect(e.type).to.equal('CounterOpened');
      if (e.type !== 'CounterOpened') return;
      expect(e.data.openedAt).to.be.instanceOf(Date);
      expect(e.data.openedAt.getTime()).to.equal(0);
      expect(e.metadata).to.deep.equal({ correlationId: 'c-1', user: 'bob' });
      expect(e.streamId).to.equal('counter-1');
      expect(e.revision).to.equal(4n);
      expect(e.position).to.deep.equal({ commit: 100n, prepare: 100n });
    });

    it('treats missing metadata as empty', () => {
      const result = decodeRecorded(stored('CounterIncremented', { by: 1 }), counterEvents);
      expect(isRight(result) && result.right.metadata).to.deep.equal({});
    });

    it('reports bad data with stream, revision, type and readable paths', () => {
      const result = decodeRecorded(
        stored('CounterOpened', { name: 5, openedAt: 'not a date' }, undefined, { streamId: 'counter-x', revision: 7n }),
        counterEvents,
      );
      if (!isLeft(result)) return expect.fail('expected a malformed event');
      const err = result.left;
      expect(err).to.be.instanceOf(MalformedEventError);
      expect(err.streamId).to.equal('counter-x');
      expect(err.revision).to.equal(7n);
      expect(err.eventType).to.equal('CounterOpened');
      expect(err.reason).to.equal('invalid-data');
      expect(err.errors.map((e) => e.path)).to.deep.equal(['data.name', 'data.openedAt']);
      expect(err.errors[0]?.reason).to.equal('expected string, got 5');
      expect(err.message).to.contain('counter-x@7').and.contain('data.name');
    });

    it('reports a missing field as required', () => {
      const result = decodeRecorded(stored('CounterIncremented', {}), counterEvents);
      expect(isLeft(result) && result.left.errors).to.deep.equal([{ path: 'data.by', reason: 'is required (number)' }]);
    });

    it('reports an unknown event type', () => {
      const result = decodeRecorded(stored('SomethingElse', {}), counterEvents);
      expect(isLeft(result) && result.left.reason).to.equal('unknown-type');
    });

    it('reports binary content and invalid JSON as not matching', () => {
      const binary = decodeRecorded(stored('CounterIncremented', new Uint8Array([1, 2])), counterEvents);
      expect(isLeft(binary) && binary.left.reason).to.equal('not-json');
      // The client hands unparsable JSON over as the raw string.
      const garbled = decodeRecorded(stored('CounterIncremented', '{"by": 1'), counterEvents);
      expect(isLeft(garbled) && garbled.left.reason).to.equal('invalid-data');
    });

    it('reports metadata of the wrong shape', () => {
      const result = decodeRecorded(stored('CounterIncremented', { by: 1 }, { $correlationId: 42 }), counterEvents);
      if (!isLeft(result)) return expect.fail('expected a malformed event');
      expect(result.left.reason).to.equal('invalid-metadata');
      expect(result.left.errors[0]?.path).to.equal('metadata.$correlationId');
    });

    it('does not treat inherited object keys as event types', () => {
      const result = decodeRecorded(stored('toString', {}), counterEvents);
      expect(isLeft(result) && result.left.reason).to.equal('unknown-type');
    });
  });

  describe('formatDecodeErrors', () => {
    it('drops union/intersection member indices from paths and reports each path once', () => {
      const codec = t.type({
        zones: t.array(t.intersection([t.type({ name: t.string }), t.partial({ floor: t.union([t.string, t.number]) })])),
      });
      const result = codec.decode({ zones: [{ name: 'a' }, { name: 1, floor: true }] });
      if (!isLeft(result)) return expect.fail('expected errors');
      expect(formatDecodeErrors(result.left).map((e) => e.path)).to.deep.equal(['zones.1.name', 'zones.1.floor']);
    });
  });
});
