// The engine's clock in the log. The engine's time is the append time of the
// input it handles (docs/item-processing.md, "Time"), so a replay sees the
// same times. When nothing is appended for a while, time would stand still
// and nothing would expire: an engine run then appends EngineClockTicked to
// ENGINE_CLOCK_STREAM, which it reads back as input like any other event.
// Ticks are only needed while something can happen with time alone (a job
// runs, a door passage is open), and every engine partition reads them all,
// so one tick serves every partition: the decision below, taken on the
// stream's last tick and appended with its revision, makes two runs that
// tick at once append one.
import type { EventStoreDBClient } from '@eventstore/db-client';
import * as t from 'io-ts';
import { defineEvents } from '../core/events';
import { runOnLastEvent } from '../core/last-event-command';

export const ENGINE_CLOCK_STREAM = 'engineClock';

export const clockEvents = defineEvents({
  /** Moves the engine's time to the event's append time; carries nothing else. */
  EngineClockTicked: t.type({}),
});

/** The last tick's append time (epoch ms), if any. */
export interface LastTick {
  readonly at: number | undefined;
}

/** Whether to tick at `now`: not when the last tick is younger than `minGapMs` (another run ticked). */
export function decideTick(last: LastTick, now: number, minGapMs: number): boolean {
  return last.at === undefined || now - last.at >= minGapMs;
}

/**
 * Appends a tick unless one is younger than `minGapMs` by the `now` given,
 * decided on the stream's last tick (another run's tick that won a race is
 * the same outcome). Returns whether this call appended.
 */
export async function tickClock(client: EventStoreDBClient, now: number, minGapMs: number): Promise<boolean> {
  const outcome = await runOnLastEvent(client, {
    stream: ENGINE_CLOCK_STREAM,
    codecs: clockEvents,
    decide: (last) => (decideTick({ at: last?.created.getTime() }, now, minGapMs) ? [{ type: 'EngineClockTicked', data: {} }] : []),
  });
  return outcome !== undefined;
}
