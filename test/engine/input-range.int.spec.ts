// The engine reads its input two ways: live through its subscription, and
// as a range of the log when a run decides again from a snapshot or a replay
// runs. Both must take the same events, or a replay would move the engine's
// time (every input event moves it) where the run did not. The log here
// holds, in the engine's streams, an event of a type the engine has no codec
// for and one its codec refuses, between events it takes.
import { randomUUID } from 'node:crypto';
import { jsonEvent, type Position } from '@eventstore/db-client';
import { expect } from 'chai';
import { TAG_REPORTS_STREAM_PREFIX } from '../../src/agents/events';
import type { MalformedEventError } from '../../src/core/events';
import { ENGINE_CLOCK_STREAM } from '../../src/engine/clock';
import { inputRange, subscribeToInput, type InputEvent } from '../../src/engine/input';
import { JOB_STREAM_PREFIX } from '../../src/jobs/events';
import { silent } from '../support/logger';
import { withEventStore } from '../support/eventstore';
import { waitFor } from '../support/wait';

describe('engine input: a range of the log takes what the subscription takes', function () {
  this.timeout(30_000);
  const es = withEventStore();

  it('skips events of other types and events their codec refuses, in both, and reports the refused ones', async () => {
    const client = es.client;
    const append = async (stream: string, type: string, data: Record<string, unknown>): Promise<Position> => {
      const r = await client.appendToStream(stream, jsonEvent({ type, data }));
      if (r.position === undefined) throw new Error('no position');
      return r.position;
    };
    const before = await append(`unrelated-${randomUUID()}`, 'Marker', {});
    const first = await append(ENGINE_CLOCK_STREAM, 'EngineClockTicked', {});
    await append(`${JOB_STREAM_PREFIX}${randomUUID()}`, 'JobNoteAdded', { note: 'a type the engine has no codec for' });
    await append(`${TAG_REPORTS_STREAM_PREFIX}r-${randomUUID()}`, 'TagsReported', { bogus: 1 });
    const last = await append(ENGINE_CLOCK_STREAM, 'EngineClockTicked', {});

    const refused: MalformedEventError[] = [];
    const ranged: InputEvent[] = [];
    for await (const { batch } of inputRange(client, before, last.commit, (m) => refused.push(m))) ranged.push(...batch);

    const live: InputEvent[] = [];
    let caughtUp = false;
    const sub = subscribeToInput({
      client,
      logger: silent,
      resumeAfter: before.commit.toString(),
      handler: async (events) => {
        live.push(...events);
      },
      onCaughtUp: () => {
        caughtUp = true;
      },
    });
    try {
      await waitFor('the subscription caught up', () => caughtUp && live.length >= 2, { timeoutMs: 10_000 });
    } finally {
      await sub.stop();
    }

    expect(ranged.map((e) => e.type)).to.deep.equal(['EngineClockTicked', 'EngineClockTicked']);
    expect(ranged.map((e) => e.position?.commit)).to.deep.equal([first.commit, last.commit]);
    expect(live.map((e) => e.id), 'the subscription took the same events').to.deep.equal(ranged.map((e) => e.id));
    expect(refused.map((m) => [m.eventType, m.reason])).to.deep.equal([['TagsReported', 'invalid-data']]);
  });
});
