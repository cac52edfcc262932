// The engine's clock in the log. The engine's time is the append time of the
// input it handles (docs/item-processing.md, "Time"), so a replay sees the
// same times. When nothing is appended for a while, time would stand still
// and nothing would expire: an engine run then appends EngineClockTicked to
// ENGINE_CLOCK_STREAM, which it reads back as input like any other event.
// Ticks are only needed while something can happen with time alone (a job
// runs, a door passage is open), and every engine partition reads them all,
// so one tick serves every partition: the decision below, appended with the
// stream's revision as read, makes two runs that tick at once append one.
import { BACKWARDS, END, NO_STREAM, StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import * as t from 'io-ts';
import { ConcurrencyError, appendEvents, type StreamRevision } from '../core/eventstore';
import { defineEvents, encodeEvent } from '../core/events';

export const ENGINE_CLOCK_STREAM = 'engineClock';

export const clockEvents = defineEvents({
  /** Moves the engine's time to the event's append time; carries nothing else. */
  EngineClockTicked: t.type({}),
});

/** The last tick: its revision and append time (epoch ms). */
export interface LastTick {
  readonly revision: StreamRevision;
  readonly at: number | undefined;
}

/** Whether to tick at `now`: not when the last tick is younger than `minGapMs` (another run ticked). */
export function decideTick(last: LastTick, now: number, minGapMs: number): boolean {
  return last.at === undefined || now - last.at >= minGapMs;
}

async function readLastTick(client: EventStoreDBClient): Promise<LastTick> {
  let last: LastTick = { revision: NO_STREAM, at: undefined };
  try {
    for await (const e of client.readStream(ENGINE_CLOCK_STREAM, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      if (e.event !== undefined) last = { revision: e.event.revision, at: e.event.created.getTime() };
    }
  } catch (err) {
    if (!(err instanceof StreamNotFoundError)) throw err;
  }
  return last;
}

/**
 * Appends a tick unless one is younger than `minGapMs` by the `now` given;
 * losing the race to another run's tick is the same outcome. Returns whether
 * this call appended.
 */
export async function tickClock(client: EventStoreDBClient, now: number, minGapMs: number): Promise<boolean> {
  const last = await readLastTick(client);
  if (!decideTick(last, now, minGapMs)) return false;
  try {
    await appendEvents(client, ENGINE_CLOCK_STREAM, [encodeEvent(clockEvents, { type: 'EngineClockTicked', data: {} })], last.revision);
    return true;
  } catch (err) {
    if (err instanceof ConcurrencyError) return false;
    throw err;
  }
}
