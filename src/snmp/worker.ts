// The SNMP notifier (role `relay`: it pushes events out of the system, like
// the AMQP relay). One subscription over `$all` that sees the SNMP settings
// events and the reader health events in log order, so an event is sent iff
// SNMP settings were set at its place in the log: nothing after a DELETE,
// everything after a PUT, whatever the read models' lag.
//
// Delivery (docs/snmp.md): the handler sends the batch's notifications, then
// writes the settings it folded and its checkpoint in one MULTI. A restart
// resumes at the checkpoint with the settings as they were there: nothing is
// skipped, and a crash between a send and the MULTI resends at most that one
// batch (at-least-once; the eventId varbind lets a manager drop duplicates).
// Events older than the health status window are skipped (isStale), so a
// first start or a long outage does not flood the manager with history.
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { Logger } from '../core/logger';
import { decodeStoredIfAny } from '../core/stored-json';
import { defineEvents } from '../core/events';
import { RedisCheckpointStore, runSubscription, type RunningSubscription } from '../core/subscriptions';
import { eventNames, resourceEventCodecs, streamOf, type ResourceKind } from '../core/resource/kind';
import { healthEvents, HEALTH_STREAM_PREFIX, type HealthStreamEvent } from '../health';
import { SNMP_SETTINGS_NAME, snmpSettingsKind, SnmpSettings } from '../settings';
import { FACTORY_RESET_STREAM, SUPPORT_STREAM_PREFIX, supportEvents } from '../support';
import { isStale, notificationOf } from './notification';
import type { NotificationSender } from './sender';

export const SNMP_NOTIFIER = 'snmp-v1';
export const snmpSettingsStateKey = (keys: RedisKeys): string => `${keys.base}v1:snmp:settings`;

const settingsEvents = eventNames(snmpSettingsKind as ResourceKind<unknown>);
const codecs = defineEvents({
  ...resourceEventCodecs(snmpSettingsKind),
  HealthEventReported: healthEvents.HealthEventReported,
  ReaderNotResponding: healthEvents.ReaderNotResponding,
  FactoryReset: supportEvents.FactoryReset,
});

export interface SnmpNotifierOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly sender: NotificationSender;
  readonly statusWindowMinutes: number;
  readonly logger: Logger;
  readonly clock?: () => Date;
}

/** The notifier's stored settings; null before the first; a StoredValueError when it does not decode. */
export async function loadSettings(redis: RedisClient, key: string): Promise<SnmpSettings | null> {
  return decodeStoredIfAny(SnmpSettings, await redis.get(key), `SNMP notifier state at ${key}`) ?? null;
}

export function startSnmpNotifier(opts: SnmpNotifierOptions): RunningSubscription {
  const clock = opts.clock ?? (() => new Date());
  const stateKey = snmpSettingsStateKey(opts.keys);
  const checkpoints = new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix);
  const settingsStream = streamOf(snmpSettingsKind as ResourceKind<unknown>, SNMP_SETTINGS_NAME);
  let settings: Promise<SnmpSettings | null> | undefined;
  return runSubscription({
    client: opts.client,
    name: SNMP_NOTIFIER,
    codecs,
    // support-: a factory reset deletes the settings stream without a
    // SnmpSettingsDeleted, so the notifier learns it from the reset marker.
    filter: streamNameFilter({ prefixes: [`${snmpSettingsKind.kind}-`, HEALTH_STREAM_PREFIX, SUPPORT_STREAM_PREFIX] }),
    checkpointStore: checkpoints,
    checkpointMode: 'handler',
    maxBatchSize: 20,
    logger: opts.logger,
    handler: async (events, position) => {
      // Loaded once per run (the handler is the only writer afterwards); a
      // failed batch is retried from the checkpoint, so reload after errors.
      settings ??= loadSettings(opts.redis, stateKey);
      let current: SnmpSettings | null;
      try {
        current = await settings;
      } catch (err) {
        settings = undefined;
        throw err;
      }
      let sent = 0;
      let stale = 0;
      for (const e of events) {
        if (e.streamId === FACTORY_RESET_STREAM) {
          current = null;
          continue;
        }
        if (e.streamId === settingsStream) {
          if (e.type === settingsEvents.deleted) current = null;
          else if (e.type === settingsEvents.created || e.type === settingsEvents.replaced) {
            current = (e.data as unknown as { resource: SnmpSettings }).resource;
          }
          continue;
        }
        if (current === null || current.trapTargetConfig === null) continue;
        const n = notificationOf(e as HealthStreamEvent, e.id);
        if (n === undefined) continue;
        if (isStale(n, clock(), opts.statusWindowMinutes)) {
          stale++;
          continue;
        }
        try {
          await opts.sender.send(current, n);
          sent++;
        } catch (err) {
          // An unanswered INFORM (after its retries) or a socket error: the
          // manager is unreachable. Blocking here would stop every later
          // notification, so log and go on.
          opts.logger.warn('SNMP notification not delivered', { eventId: e.id, code: n.objects.code, reader: n.objects.readerName, err });
        }
      }
      const tx = opts.redis.multi();
      if (current === null) tx.del(stateKey);
      else tx.set(stateKey, JSON.stringify(SnmpSettings.encode(current)));
      checkpoints.saveInTransaction(tx, SNMP_NOTIFIER, position);
      await tx.exec();
      settings = Promise.resolve(current);
      if (sent || stale) opts.logger.debug('SNMP notifications', { sent, staleSkipped: stale });
    },
  });
}
