// The reader command channel's pure decisions (given/when/then), the
// command arg codecs and what the projection part writes.
import { expect } from 'chai';
import { isLeft, isRight, type Either } from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import type { ApiError } from '../../src/core/http/errors';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RecordedDomainEvent } from '../../src/core/events';
import {
  commandKeys,
  evolveReaderCommands,
  initialReaderCommands,
  readerCommandEvents,
  readerCommandsDecider,
  type ReaderCommandCommand,
  type ReaderCommandEvent,
  type ReaderCommandsState,
} from '../../src/agents/commands';
import { readerCommandsPart } from '../../projections/config/agent-commands';

const T0 = '2026-11-23T10:00:00.000Z';
const T1 = '2026-11-23T10:00:10.000Z';
const now = new Date('2026-11-23T10:01:00.000Z');
const ID = '7d6f2c6e-0b7a-4c39-9c55-2f4a8f0e1a01';
const ID2 = '7d6f2c6e-0b7a-4c39-9c55-2f4a8f0e1a02';

const aggregate = readerCommandsDecider;
const given = (...history: ReaderCommandEvent[]) => ({
  when: (command: ReaderCommandCommand) => decideOnHistory(aggregate, history, command, now),
});
const issued = (commandId = ID, type: 'REBOOT' | 'UPGRADE' | 'TIME_SYNC' = 'REBOOT', args: Record<string, unknown> = {}): ReaderCommandEvent => ({
  type: 'ReaderCommandIssued',
  data: { commandId, type, args, issuedAt: T0 },
});
const delivered = (commandId = ID): ReaderCommandEvent => ({ type: 'ReaderCommandDelivered', data: { commandId, at: T1 } });
const completed = (result: 'DONE' | 'FAILED', commandId = ID, message?: string): ReaderCommandEvent => ({
  type: 'ReaderCommandCompleted',
  data: { commandId, result, at: T1, ...(message !== undefined ? { message } : {}) },
});

function rightOf<A>(e: Either<ApiError, A>): A {
  if (isLeft(e)) throw new Error(`expected a decision, got ${e.left.status} ${e.left.message}`);
  return e.right;
}
function leftOf<A>(e: Either<ApiError, A>): ApiError {
  if (isRight(e)) throw new Error(`expected a refusal, got ${JSON.stringify(e.right)}`);
  return e.left;
}

describe('reader commands: decide', () => {
  describe('issue', () => {
    it('appends ReaderCommandIssued with the decoded args and the time', () => {
      const { events, state } = rightOf(given().when({ kind: 'Issue', commandId: ID, type: 'REBOOT', args: { reason: 'support' } }));
      expect(events).to.deep.equal([{ type: 'ReaderCommandIssued', data: { commandId: ID, type: 'REBOOT', args: { reason: 'support' }, issuedAt: now.toISOString() } }]);
      expect(state).to.have.length(1);
      expect(state[0]).to.include({ commandId: ID, result: null, deliveredAt: null });
    });

    it('each type takes its args: unknown fields are dropped, missing or wrong ones are a 400 naming args.<field>', () => {
      const up = rightOf(given().when({ kind: 'Issue', commandId: ID, type: 'UPGRADE', args: { versionIdentifier: '7.7.0', imageUrl: 'http://x/i.upg', extra: 1 } }));
      expect(up.events[0]?.data).to.deep.include({ args: { versionIdentifier: '7.7.0', imageUrl: 'http://x/i.upg' } });
      const sync = rightOf(given().when({ kind: 'Issue', commandId: ID, type: 'TIME_SYNC', args: { anything: true } }));
      expect(sync.events[0]?.data).to.deep.include({ args: {} });
      const noArgs = rightOf(given().when({ kind: 'Issue', commandId: ID, type: 'REBOOT', args: undefined }));
      expect(noArgs.events[0]?.data).to.deep.include({ args: {} });

      const missing = leftOf(given().when({ kind: 'Issue', commandId: ID, type: 'UPGRADE', args: {} }));
      expect(missing.status).to.equal(400);
      expect(missing.errors.map((e) => e.path)).to.deep.equal(['args.versionIdentifier']);
      const wrong = leftOf(given().when({ kind: 'Issue', commandId: ID, type: 'REBOOT', args: { reason: 5 } }));
      expect(wrong.errors.map((e) => e.path)).to.deep.equal(['args.reason']);
    });

    it('issuing an id already issued decides nothing', () => {
      expect(rightOf(given(issued()).when({ kind: 'Issue', commandId: ID, type: 'REBOOT', args: {} })).events).to.deep.equal([]);
    });
  });

  describe('delivery', () => {
    it('records the first delivery of pending commands only (not unknown, delivered or completed ones)', () => {
      const { events } = rightOf(
        given(issued(ID), issued(ID2), issued('c3'), delivered(ID2), issued('c4'), completed('DONE', 'c4')).when({ kind: 'MarkDelivered', commandIds: [ID, ID2, 'c4', 'ghost', ID] }),
      );
      expect(events).to.deep.equal([{ type: 'ReaderCommandDelivered', data: { commandId: ID, at: now.toISOString() } }]);
    });
  });

  describe('complete', () => {
    it('DONE completes a pending command (delivered or not)', () => {
      for (const history of [[issued()], [issued(), delivered()]]) {
        const { events, state } = rightOf(given(...history).when({ kind: 'Complete', commandId: ID, result: 'DONE' }));
        expect(events).to.deep.equal([{ type: 'ReaderCommandCompleted', data: { commandId: ID, result: 'DONE', at: now.toISOString() } }]);
        expect(state[0]).to.include({ result: 'DONE', message: null, completedAt: now.toISOString() });
      }
    });

    it('FAILED keeps the message', () => {
      const { events, state } = rightOf(given(issued()).when({ kind: 'Complete', commandId: ID, result: 'FAILED', message: 'no power' }));
      expect(events[0]?.data).to.deep.include({ result: 'FAILED', message: 'no power' });
      expect(state[0]).to.include({ result: 'FAILED', message: 'no power' });
    });

    it('is idempotent: the same result again decides nothing', () => {
      expect(rightOf(given(issued(), completed('DONE')).when({ kind: 'Complete', commandId: ID, result: 'DONE' })).events).to.deep.equal([]);
      expect(rightOf(given(issued(), completed('FAILED', ID, 'x')).when({ kind: 'Complete', commandId: ID, result: 'FAILED', message: 'y' })).events).to.deep.equal([]);
    });

    it('an unknown command is a 404', () => {
      expect(leftOf(given().when({ kind: 'Complete', commandId: ID, result: 'DONE' })).status).to.equal(404);
      expect(leftOf(given(issued(ID2)).when({ kind: 'Complete', commandId: ID, result: 'DONE' })).status).to.equal(404);
    });

    it('completing again with the other result is a 409', () => {
      const refused = leftOf(given(issued(), completed('DONE')).when({ kind: 'Complete', commandId: ID, result: 'FAILED', message: 'late' }));
      expect(refused.status).to.equal(409);
      expect(refused.errors.map((e) => e.path)).to.deep.equal(['body.result']);
      expect(leftOf(given(issued(), completed('FAILED')).when({ kind: 'Complete', commandId: ID, result: 'DONE' })).status).to.equal(409);
    });
  });

  it('evolve keeps issue order and the first delivery/result', () => {
    const state: ReaderCommandsState = [issued(ID), issued(ID2, 'TIME_SYNC'), delivered(ID), delivered(ID), completed('DONE', ID), completed('FAILED', ID)].reduce(
      evolveReaderCommands,
      initialReaderCommands,
    );
    expect(state.map((r) => [r.commandId, r.type, r.deliveredAt, r.result])).to.deep.equal([
      [ID, 'REBOOT', T1, 'DONE'],
      [ID2, 'TIME_SYNC', null, null],
    ]);
  });

  it('the event codecs round-trip', () => {
    for (const e of [issued(ID, 'UPGRADE', { versionIdentifier: '1' }), delivered(), completed('FAILED', ID, 'm'), completed('DONE')]) {
      const codec = readerCommandEvents[e.type] as unknown as { decode(u: unknown): Either<unknown, unknown>; encode(a: unknown): unknown };
      const decoded = codec.decode(codec.encode(e.data));
      expect(isRight(decoded) && decoded.right).to.deep.equal(e.data);
    }
  });
});

describe('reader commands: projection part', () => {
  const keys = new RedisKeys('p:');
  const k = commandKeys(keys);
  const recorded = (e: ReaderCommandEvent, revision: bigint, reader = 'dock/1') =>
    ({ ...e, id: 'x', streamId: `readerCommands-${reader}`, revision, created: new Date(), position: undefined, metadata: {} }) as RecordedDomainEvent<{ type: string; data: unknown }>;
  const writes = (...events: Array<[ReaderCommandEvent, bigint]>) => {
    const log: string[] = [];
    const tx = {
      hSet: (key: string, field: string, value: string) => log.push(`HSET ${key} ${field} ${value}`),
      hDel: (key: string, field: string) => log.push(`HDEL ${key} ${field}`),
      del: (key: string) => log.push(`DEL ${key}`),
    };
    for (const [e, rev] of events) readerCommandsPart.apply(tx, recorded(e, rev), keys);
    return log;
  };

  it('issued: pending (with its stream revision for order); delivered: the delivery hash; completed: removed from both', () => {
    expect(k.pending('dock/1')).to.equal('p:v1:agents:commands:pending:dock/1');
    expect(writes([issued(ID, 'REBOOT', { reason: 'r' }), 3n], [delivered(ID), 4n], [completed('DONE', ID), 5n])).to.deep.equal([
      `HSET ${k.pending('dock/1')} ${ID} ${JSON.stringify({ id: ID, type: 'REBOOT', args: { reason: 'r' }, issuedAt: T0, seq: 3 })}`,
      `HSET ${k.delivered('dock/1')} ${ID} ${T1}`,
      `HDEL ${k.pending('dock/1')} ${ID}`,
      `HDEL ${k.delivered('dock/1')} ${ID}`,
    ]);
  });
});
