// Records when a reader stops checking in (ReaderNotResponding) and when it
// comes back (ReaderResponding) on `readerHealth-<reader>`, so event search
// and queues see it. NOT_RESPONDING in GET /health/v1/readers is computed at
// read time from lastCheckin and does not wait for this checker; the
// checker runs in the projections role, on an injected clock.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { type EventOf } from '../core/events';
import { runOnLastEvent } from '../core/last-event-command';
import type { Logger } from '../core/logger';
import { healthEvents, healthStream } from './events';
import type { HealthSettings } from './settings';
import { isNotResponding, newestCheckin } from './status';
import type { ReaderHealthState } from './state';

export type ResponsivenessEvent = Extract<EventOf<typeof healthEvents>, { type: 'ReaderNotResponding' | 'ReaderResponding' }>;

export interface ResponsivenessInput {
  readonly readerName: string;
  /** The newest check-in known (projected or from the gateway); null: never checked in. */
  readonly lastCheckin: string | null;
  /** What was last recorded for the reader (projected, or appended by this checker since). */
  readonly recordedNotResponding: boolean;
}

/** The events to record at `now`: one per reader whose responsiveness changed. */
export function responsivenessChanges(readers: readonly ResponsivenessInput[], now: Date, settings: HealthSettings): ResponsivenessEvent[] {
  const out: ResponsivenessEvent[] = [];
  for (const r of readers) {
    if (r.lastCheckin === null) continue; // AWAITING_AGENT is not "not responding"
    const notResponding = isNotResponding(r.lastCheckin, now, settings);
    if (notResponding === r.recordedNotResponding) continue;
    const data = { readerName: r.readerName, eventTime: now.toISOString(), lastCheckin: r.lastCheckin };
    out.push(notResponding ? { type: 'ReaderNotResponding', data } : { type: 'ReaderResponding', data });
  }
  return out;
}

export interface CheckerSource {
  states(): Promise<Map<string, ReaderHealthState>>;
  lastCheckins(): Promise<Map<string, string>>;
  /** Readers with a definition now: a deleted reader's health stays readable, but nothing more is recorded for it. */
  definedReaders(): Promise<ReadonlySet<string>>;
}

export interface ResponsivenessChecker {
  /** One check now (the timer calls it; tests may too). */
  tick(): Promise<ResponsivenessEvent[]>;
  stop(): Promise<void>;
}

export function startResponsivenessChecker(opts: {
  client: EventStoreDBClient;
  source: CheckerSource;
  settings: HealthSettings;
  clock: () => Date;
  logger: Logger;
  /** Resolves when the health projection caught up (the recorded flags are then current). */
  ready: Promise<void>;
  /** Between ticks; default one check-in interval. 0: no timer (tests tick by hand). */
  everyMs?: number;
}): ResponsivenessChecker {
  // What this checker appended and the projection may not show yet, so a
  // tick right after another does not record the same change twice.
  const appended = new Map<string, boolean>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  const tick = async (): Promise<ResponsivenessEvent[]> => {
    const [states, checkins, defined] = await Promise.all([opts.source.states(), opts.source.lastCheckins(), opts.source.definedReaders()]);
    // A deleted reader stops checking in because it was deleted, not because it went silent.
    const names = new Set([...states.keys(), ...checkins.keys()].filter((name) => defined.has(name)));
    const inputs = [...names].map((readerName): ResponsivenessInput => {
      const projected = states.get(readerName)?.notRespondingRecorded ?? false;
      const mine = appended.get(readerName);
      if (mine === projected) appended.delete(readerName);
      return {
        readerName,
        lastCheckin: newestCheckin(states.get(readerName)?.lastCheckin, checkins.get(readerName)),
        recordedNotResponding: mine ?? projected,
      };
    });
    const events = responsivenessChanges(inputs, opts.clock(), opts.settings);
    for (const e of events) {
      // Decided on the reader's health stream too, on its last event: the change comes from the projected
      // flag (plus what this checker appended since), and a second checker that recorded it first is seen
      // there, so the change is recorded once.
      const outcome = await runOnLastEvent(opts.client, {
        stream: healthStream(e.data.readerName),
        codecs: healthEvents,
        decide: (last) => (last?.type === e.type ? [] : [e]),
        metadata: { user: 'health-checker' },
      });
      appended.set(e.data.readerName, e.type === 'ReaderNotResponding');
      if (outcome !== undefined) opts.logger.info('reader responsiveness changed', { reader: e.data.readerName, event: e.type, lastCheckin: e.data.lastCheckin });
    }
    return events;
  };

  const everyMs = opts.everyMs ?? opts.settings.checkinIntervalSeconds * 1000;
  const loop = (): void => {
    if (stopped || everyMs === 0) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err: unknown) => opts.logger.warn('responsiveness check failed', { err }))
        .finally(loop);
    }, everyMs);
  };
  void opts.ready.then(loop, (err: unknown) => opts.logger.error('health projection never caught up', { err }));

  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
