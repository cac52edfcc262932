// The appendToStream contract, run once per wire path: the client uses the
// BatchAppend RPC when the server advertises it and no per-call credentials
// are given, and the unary Append RPC when call credentials are passed.
import { expect } from 'chai';
import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  MaxAppendSizeExceededError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendToStreamOptions,
  type BaseOptions,
  type EventData,
  type EventStoreDBClient,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventStoreFixture } from './eventstore';
import { uniqueStream } from './eventstore';
import { collect, comparePositions, expectRejection, testEvents } from './helpers';

const ONE_MIB = 1024 * 1024;

async function readRevisions(client: EventStoreDBClient, stream: string): Promise<ResolvedEvent[]> {
  return collect(client.readStream(stream));
}

async function countOrZero(client: EventStoreDBClient, stream: string): Promise<number> {
  try {
    return (await readRevisions(client, stream)).length;
  } catch (err) {
    if (err instanceof StreamNotFoundError) return 0;
    throw err;
  }
}

export function describeAppendContract(pathName: string, fx: EventStoreFixture, callOptions: BaseOptions): void {
  describe(`appendToStream via ${pathName}`, () => {
    const append = (
      stream: string,
      events: EventData | EventData[],
      opts: Omit<AppendToStreamOptions, keyof BaseOptions> = {},
    ) => fx.client.appendToStream(stream, events, { ...callOptions, ...opts });

    describe('expectedRevision ANY', () => {
      it('creates a new stream and returns revision and position', async () => {
        const stream = uniqueStream('append-any');
        const result = await append(stream, testEvents(3), { expectedRevision: ANY });
        expect(result.success).to.equal(true);
        expect(result.nextExpectedRevision).to.equal(2n);
        expect(result.position, 'position').to.not.equal(undefined);
        expect(typeof result.position?.commit).to.equal('bigint');
        expect(typeof result.position?.prepare).to.equal('bigint');
        expect(result.position!.commit >= 0n).to.equal(true);
        expect(result.position!.prepare >= 0n).to.equal(true);
        const read = await readRevisions(fx.client, stream);
        expect(read.map((e) => e.event?.revision)).to.deep.equal([0n, 1n, 2n]);
      });

      it('appends to an existing stream, revisions continue', async () => {
        const stream = uniqueStream('append-any');
        await append(stream, testEvents(2), { expectedRevision: ANY });
        const result = await append(stream, testEvents(2, { from: 2 }), { expectedRevision: ANY });
        expect(result.nextExpectedRevision).to.equal(3n);
        const read = await readRevisions(fx.client, stream);
        expect(read.map((e) => e.event?.revision)).to.deep.equal([0n, 1n, 2n, 3n]);
        expect(read.map((e) => (e.event?.data as { n: number }).n)).to.deep.equal([0, 1, 2, 3]);
      });

      it('returns commit/prepare positions that increase across appends', async () => {
        const streamA = uniqueStream('append-pos');
        const streamB = uniqueStream('append-pos');
        const r1 = await append(streamA, testEvents(1));
        const r2 = await append(streamB, testEvents(2));
        const r3 = await append(streamA, testEvents(1));
        for (const r of [r1, r2, r3]) expect(r.position, 'position').to.not.equal(undefined);
        expect(comparePositions(r1.position!, r2.position!)).to.equal(-1);
        expect(comparePositions(r2.position!, r3.position!)).to.equal(-1);
        expect(r1.position!.commit < r2.position!.commit).to.equal(true);
        expect(r2.position!.commit < r3.position!.commit).to.equal(true);
        expect(r1.position!.prepare < r2.position!.prepare).to.equal(true);
        expect(r2.position!.prepare < r3.position!.prepare).to.equal(true);
      });
    });

    describe('expectedRevision NO_STREAM', () => {
      it('succeeds when the stream does not exist', async () => {
        const stream = uniqueStream('append-nostream');
        const result = await append(stream, testEvents(3), { expectedRevision: NO_STREAM });
        expect(result.success).to.equal(true);
        expect(result.nextExpectedRevision).to.equal(2n);
        expect(result.position).to.not.equal(undefined);
      });

      it('fails with WrongExpectedVersionError (actual = current revision) when the stream exists', async () => {
        const stream = uniqueStream('append-nostream');
        await append(stream, testEvents(2));
        const err = await expectRejection(
          append(stream, testEvents(1), { expectedRevision: NO_STREAM }),
          WrongExpectedVersionError,
        );
        expect(err.type).to.equal('wrong-expected-version');
        expect(err.streamName).to.equal(stream);
        expect(err.expectedVersion).to.equal(NO_STREAM);
        expect(err.actualVersion).to.equal(1n);
        expect(await countOrZero(fx.client, stream)).to.equal(2);
      });
    });

    describe('expectedRevision STREAM_EXISTS', () => {
      it('succeeds when the stream exists', async () => {
        const stream = uniqueStream('append-exists');
        await append(stream, testEvents(1));
        const result = await append(stream, testEvents(2), { expectedRevision: STREAM_EXISTS });
        expect(result.nextExpectedRevision).to.equal(2n);
        expect(await countOrZero(fx.client, stream)).to.equal(3);
      });

      it("fails with WrongExpectedVersionError (actual = 'no_stream') when the stream is missing", async () => {
        const stream = uniqueStream('append-exists');
        const err = await expectRejection(
          append(stream, testEvents(1), { expectedRevision: STREAM_EXISTS }),
          WrongExpectedVersionError,
        );
        expect(err.streamName).to.equal(stream);
        expect(err.expectedVersion).to.equal(STREAM_EXISTS);
        expect(err.actualVersion).to.equal(NO_STREAM);
        expect(await countOrZero(fx.client, stream)).to.equal(0);
      });
    });

    describe('exact expectedRevision', () => {
      it('succeeds when the stream is at that revision', async () => {
        const stream = uniqueStream('append-exact');
        const first = await append(stream, testEvents(2), { expectedRevision: NO_STREAM });
        const second = await append(stream, testEvents(3), { expectedRevision: first.nextExpectedRevision });
        expect(second.nextExpectedRevision).to.equal(4n);
        const third = await append(stream, testEvents(1), { expectedRevision: 4n });
        expect(third.nextExpectedRevision).to.equal(5n);
        expect(comparePositions(second.position!, third.position!)).to.equal(-1);
      });

      it('fails with WrongExpectedVersionError carrying expected and actual revisions', async () => {
        const stream = uniqueStream('append-exact');
        await append(stream, testEvents(3));
        const err = await expectRejection(append(stream, testEvents(1), { expectedRevision: 5n }), WrongExpectedVersionError);
        expect(err.streamName).to.equal(stream);
        expect(err.expectedVersion).to.equal(5n);
        expect(err.actualVersion).to.equal(2n);
        const err2 = await expectRejection(append(stream, testEvents(1), { expectedRevision: 1n }), WrongExpectedVersionError);
        expect(err2.expectedVersion).to.equal(1n);
        expect(err2.actualVersion).to.equal(2n);
        expect(await countOrZero(fx.client, stream)).to.equal(3);
      });

      it("fails with actual 'no_stream' when the stream does not exist", async () => {
        const stream = uniqueStream('append-exact');
        const err = await expectRejection(append(stream, testEvents(1), { expectedRevision: 1n }), WrongExpectedVersionError);
        expect(err.streamName).to.equal(stream);
        expect(err.expectedVersion).to.equal(1n);
        expect(err.actualVersion).to.equal(NO_STREAM);
        expect(await countOrZero(fx.client, stream)).to.equal(0);
      });
    });

    describe('idempotent retries', () => {
      it('does not write the same event ids twice when retried with NO_STREAM', async () => {
        const stream = uniqueStream('append-idem');
        const events = testEvents(2);
        const first = await append(stream, events, { expectedRevision: NO_STREAM });
        expect(first.nextExpectedRevision).to.equal(1n);
        const retry = await append(stream, events, { expectedRevision: NO_STREAM });
        expect(retry.nextExpectedRevision).to.equal(1n);
        const read = await readRevisions(fx.client, stream);
        expect(read.map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
      });

      it('does not write the same event ids twice when retried at the same exact revision', async () => {
        const stream = uniqueStream('append-idem');
        await append(stream, testEvents(1), { expectedRevision: NO_STREAM });
        const events = testEvents(2, { from: 1 });
        const first = await append(stream, events, { expectedRevision: 0n });
        expect(first.nextExpectedRevision).to.equal(2n);
        const retry = await append(stream, events, { expectedRevision: 0n });
        expect(retry.nextExpectedRevision).to.equal(2n);
        const read = await readRevisions(fx.client, stream);
        expect(read).to.have.length(3);
        expect(read.slice(1).map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
        expect(read.map((e) => e.event?.revision)).to.deep.equal([0n, 1n, 2n]);
        // The stream is still usable at the next revision after the retry.
        const next = await append(stream, testEvents(1), { expectedRevision: 2n });
        expect(next.nextExpectedRevision).to.equal(3n);
      });
    });

    describe('maximum append size', () => {
      it('rejects more than 1 MiB in one call with MaxAppendSizeExceededError and writes nothing', async function () {
        this.timeout(30_000);
        const stream = uniqueStream('append-max');
        await append(stream, testEvents(1));
        const big = 'x'.repeat(600 * 1024);
        const events = [0, 1].map((i) => jsonEvent({ type: 'Big', data: { i, big } }));
        const err = await expectRejection(append(stream, events, { expectedRevision: 0n }), MaxAppendSizeExceededError);
        expect(err.type).to.equal('maximum-append-size-exceeded');
        expect(err.maxAppendSize).to.be.a('number');
        expect(err.maxAppendSize).to.be.greaterThan(0);
        expect(err.maxAppendSize).to.be.lessThan(2 * 600 * 1024);
        if (fx.store.embedded) expect(err.maxAppendSize).to.equal(ONE_MIB);
        const read = await readRevisions(fx.client, stream);
        expect(read).to.have.length(1);
        // The connection is still usable and the stream did not move.
        const after = await append(stream, testEvents(1), { expectedRevision: 0n });
        expect(after.nextExpectedRevision).to.equal(1n);
      });

      it('accepts an append just under the limit', async function () {
        this.timeout(30_000);
        const stream = uniqueStream('append-max');
        const events = [0, 1].map((i) => jsonEvent({ type: 'Big', data: { i, big: 'y'.repeat(400 * 1024) } }));
        const result = await append(stream, events, { expectedRevision: NO_STREAM });
        expect(result.nextExpectedRevision).to.equal(1n);
        const read = await readRevisions(fx.client, stream);
        expect(read).to.have.length(2);
        expect((read[1]?.event?.data as { big: string }).big.length).to.equal(400 * 1024);
      });
    });
  });
}
