// The engine's output: ItemsChanged events (one per append) on the
// engine's own stream. It records the input position it covers, so after a
// crash the engine resumes exactly where its output ends (no duplicate, no
// gap), and it is what the items/history read models and the AMQP relay
// consume. This file is the contract between the engine and its consumers.
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { ConfigEntryCodec } from './configuration';
import { isItemChange } from './item-change-check';
import { engineStream } from './partitions';
import type { ItemChange } from './types';
import { OpenPassagesCodec } from './threshold/passages';
import { ThresholdIterationCodec, ThresholdTransitionCodec } from './threshold/transition';

const nullableString = t.union([t.string, t.null]);
const nullableNumber = t.union([t.number, t.null]);

/** The full io-ts codec of one change: its errors name the field. */
export const ItemChangeStrictCodec = t.type({
  kind: t.keyof({ FIRST_SEEN: null, ZONE_CHANGE: null, MOVED: null, HEARTBEAT: null, EXPIRED: null }),
  epc: t.string,
  tid: nullableString,
  jobId: t.string,
  fromZone: t.string,
  toZone: t.string,
  fromFloor: nullableString,
  toFloor: nullableString,
  fromFacility: nullableString,
  toFacility: nullableString,
  fromX: nullableNumber,
  fromY: nullableNumber,
  toX: nullableNumber,
  toY: nullableNumber,
  /** epoch milliseconds */
  observationTime: t.number,
  reportToDatabaseEnabled: t.boolean,
  reportToHistoryEnabled: t.boolean,
  reportToMessageQueueEnabled: t.boolean,
});

/**
 * ItemChangeStrictCodec with a hand-written check in front (./item-change-check.ts):
 * every consumer of ItemsChanged (items projection, AMQP relay) decodes each
 * change, and io-ts's per-field validators were a measurable share of the
 * relay's CPU per message. Same accepted values (property test); a value that
 * fails the check goes through the strict codec for its error messages.
 */
export const ItemChangeCodec = new t.Type<ItemChange, t.OutputOf<typeof ItemChangeStrictCodec>, unknown>(
  'ItemChange',
  isItemChange,
  (u, c) => (isItemChange(u) ? t.success(u) : ItemChangeStrictCodec.validate(u, c)),
  t.identity,
);

/**
 * An item reset (POST /support/v1/itemReset) as the engine carried it out:
 * every item of `facility` was dropped from the engine's views before the
 * event's changes (which the engine leaves empty). Consumers apply it in log
 * order: the items read model drops the facility's items (and its history
 * records when clearHistory), a replay of the engine drops them again.
 * Optional, so consumers that only look at `changes` (the AMQP relay) skip it.
 */
export const ItemsResetCodec = t.type({
  facility: t.string,
  clearHistory: t.boolean,
  /** id of the ItemsResetRequested event it answers */
  requestId: t.string,
});
export type ItemsReset = t.TypeOf<typeof ItemsResetCodec>;

export const itemEvents = defineEvents({
  ItemsChanged: t.intersection([
    t.type({
      /** $all commit position (decimal string) of the last input this batch covers. */
      inputPosition: t.string,
      /**
       * The engine's time (epoch ms) as of inputPosition: the latest append
       * time of its input up to there (./clock.ts). A restart goes on from it.
       */
      at: t.number,
      changes: t.array(ItemChangeCodec),
    }),
    t.partial({
      reset: ItemsResetCodec,
      /** Threshold transitions decided in the cycle (./threshold/), carried with the changes so they share their exactly-once rule. */
      transitions: t.array(ThresholdTransitionCodec),
      /** Threshold decisions of recipes with iterationDataLogEnabled. */
      iterations: t.array(ThresholdIterationCodec),
      /**
       * The open threshold passages (reads seen, no final decision yet) as of
       * this event's inputPosition, when they may have changed since the
       * previous event that carried them; absent: unchanged. A restart takes
       * the last one, so a passage cut by a crash is finished, not lost.
       */
      passages: OpenPassagesCodec,
      /**
       * The configuration entries the engine folded from its input since the
       * previous event that carried some, up to this event's inputPosition
       * (./configuration.ts). A restart folds them back without reading the
       * log again.
       */
      configuration: t.array(ConfigEntryCodec),
      /** `configuration` is the whole fold as of inputPosition, not a change to the previous one. */
      configurationComplete: t.boolean,
    }),
  ]),
});
export type ItemsEvent = EventOf<typeof itemEvents>;

/** The output stream of partition 0, the only one unless ENGINE_PARTITIONS says otherwise (./partitions.ts). */
export const ENGINE_STREAM = engineStream(0);
