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
import { streamNameFilter, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { Logger } from '../core/logger';
import { decodeStoredIfAny } from '../core/stored-json';
import { defineEvents, type EventOf, type RecordedDomainEvent } from '../core/events';
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

type NotifierEvent = RecordedDomainEvent<EventOf<typeof codecs>>;
const settingsStream = streamOf(snmpSettingsKind as ResourceKind<unknown>, SNMP_SETTINGS_NAME);

/**
 * What a settings event or a factory reset makes of the settings in force;
 * undefined for a health event (it is to be notified under them).
 */
function settingsAfter(e: NotifierEvent, current: SnmpSettings | null): SnmpSettings | null | undefined {
  if (e.streamId === FACTORY_RESET_STREAM) return null;
  if (e.streamId !== settingsStream) return undefined;
  if (e.type === settingsEvents.deleted) return null;
  if (e.type === settingsEvents.created || e.type === settingsEvents.replaced) return (e.data as unknown as { resource: SnmpSettings }).resource;
  return current;
}

/** The subscription's handler: folds the settings in log order and sends the health events' notifications under them. */
class SnmpBatches {
  private readonly stateKey: string;
  private readonly clock: () => Date;
  private settings: Promise<SnmpSettings | null> | undefined;

  constructor(
    private readonly opts: SnmpNotifierOptions,
    private readonly checkpoints: RedisCheckpointStore,
  ) {
    this.stateKey = snmpSettingsStateKey(opts.keys);
    this.clock = opts.clock ?? (() => new Date());
  }

  readonly handle = async (events: readonly NotifierEvent[], position: Position): Promise<void> => {
    let current = await this.loaded();
    let sent = 0;
    let stale = 0;
    for (const e of events) {
      const after = settingsAfter(e, current);
      if (after !== undefined) current = after;
      else if (current !== null && current.trapTargetConfig !== null) {
        const outcome = await this.notify(current, e);
        if (outcome === 'sent') sent++;
        else if (outcome === 'stale') stale++;
      }
    }
    await this.save(current, position);
    if (sent || stale) this.opts.logger.debug('SNMP notifications', { sent, staleSkipped: stale });
  };

  /**
   * Loaded once per run (the handler is the only writer afterwards); a
   * failed batch is retried from the checkpoint, so reload after errors.
   */
  private async loaded(): Promise<SnmpSettings | null> {
    this.settings ??= loadSettings(this.opts.redis, this.stateKey);
    try {
      return await this.settings;
    } catch (err) {
      this.settings = undefined;
      throw err;
    }
  }

  private async notify(current: SnmpSettings, e: NotifierEvent): Promise<'sent' | 'stale' | undefined> {
    const { opts } = this;
    const n = notificationOf(e as HealthStreamEvent, e.id);
    if (n === undefined) return undefined;
    if (isStale(n, this.clock(), opts.statusWindowMinutes)) return 'stale';
    try {
      await opts.sender.send(current, n);
      return 'sent';
    } catch (err) {
      // An unanswered INFORM (after its retries) or a socket error: the
      // manager is unreachable. Blocking here would stop every later
      // notification, so log and go on.
      opts.logger.warn('SNMP notification not delivered', { eventId: e.id, code: n.objects.code, reader: n.objects.readerName, err });
      return undefined;
    }
  }

  /** The settings folded so far and the checkpoint, in one MULTI. */
  private async save(current: SnmpSettings | null, position: Position): Promise<void> {
    const tx = this.opts.redis.multi();
    if (current === null) tx.del(this.stateKey);
    else tx.set(this.stateKey, JSON.stringify(SnmpSettings.encode(current)));
    this.checkpoints.saveInTransaction(tx, SNMP_NOTIFIER, position);
    await tx.exec();
    this.settings = Promise.resolve(current);
  }
}

export function startSnmpNotifier(opts: SnmpNotifierOptions): RunningSubscription {
  const checkpoints = new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix);
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
    handler: new SnmpBatches(opts, checkpoints).handle,
  });
}
