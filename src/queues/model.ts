// What a configured queue is: its kind, its filter, its delivery mode and the
// arguments tagtrail declares it with. Pure data and codecs; the HTTP side is
// ./routes.ts, the publishing side ./relay.ts. Rules in docs/queues.md.
import * as t from 'io-ts';
import { HexString, Name, NonEmptyString, NonNegativeNumber } from '../core/codecs';
import { HealthEventTypeCodec } from '../health';

export const QUEUE_KINDS = ['items', 'health', 'threshold'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/**
 * Exactly the arguments existing clients redeclare (or passively check) the
 * queue with (docs/interface.md, "AMQP queues"); any difference makes their
 * declare fail with PRECONDITION_FAILED.
 */
export const QUEUE_ARGUMENTS = {
  'x-expires': 3_600_000,
  'x-message-ttl': 3_600_000,
  'x-max-length-bytes': 1_073_741_824,
} as const;

/**
 * The queue types the service can declare its queues as (AMQP_QUEUE_TYPE;
 * docs/scaling.md, "Quorum queues"). Classic is the default and declares
 * exactly QUEUE_ARGUMENTS, as always; quorum adds `x-queue-type: quorum`,
 * which clients must then declare too.
 */
export const QUEUE_TYPES = ['classic', 'quorum'] as const;
export type QueueType = (typeof QUEUE_TYPES)[number];

/** The arguments a queue of `type` is declared with (and clients must redeclare it with). */
export function queueArguments(type: QueueType): Record<string, string | number> {
  return type === 'quorum' ? { ...QUEUE_ARGUMENTS, 'x-queue-type': 'quorum' } : { ...QUEUE_ARGUMENTS };
}

export const DELIVERY_MODES = ['PERSISTENT', 'NON_PERSISTENT'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const DeliveryModeCodec = t.keyof({ PERSISTENT: null, NON_PERSISTENT: null }, 'DeliveryMode');

// null counts as absent: clients serialising their filter object send unset fields as null.
const optional = <C extends t.Mixed>(c: C) => t.union([c, t.undefined, t.null]);

/** What the text fields of a filter are held to: when configured, and when read back from an event. */
interface FilterText {
  readonly name: t.Type<string, string, unknown>;
  readonly epc: t.Type<string, string, unknown>;
}

// A filter's text fields name something (a facility, zone, job, reader,
// threshold or health code) or are an EPC prefix: configured, each is a Name
// (at most 256 characters, no control characters), as bounded as what it
// names. Read back from a QueueConfigured, they are held only to what every
// version accepted (any length), so a queue configured before keeps working.
const CONFIGURED: FilterText = { name: Name, epc: Name.pipe(HexString, 'EPC prefix') };
const STORED: FilterText = { name: NonEmptyString, epc: HexString };

const itemFilter = (text: FilterText) =>
  t.type(
    {
      fromFacility: optional(text.name),
      toFacility: optional(text.name),
      fromZone: optional(text.name),
      toZone: optional(text.name),
      /** Hexadecimal EPC prefix, compared case-insensitively. */
      epc: optional(text.epc),
      jobId: optional(text.name),
      /** Meters an item must have moved (both locations known) for a message; 0 filters nothing. */
      distance: optional(NonNegativeNumber),
      zoneTransitionsOnly: optional(t.boolean),
    },
    'ItemQueueFilter',
  );
/** An item queue's filter: every field optional, all present ones must match. */
export const ItemQueueFilter = itemFilter(STORED);
export type ItemQueueFilter = t.TypeOf<typeof ItemQueueFilter>;

// Type and code consistency is checked in ./validate.ts.
const healthFilter = (text: FilterText) => t.type({ readerName: optional(text.name), type: optional(HealthEventTypeCodec), code: optional(text.name) }, 'HealthQueueFilter');
/** A health queue's filter. */
export const HealthQueueFilter = healthFilter(STORED);
export type HealthQueueFilter = t.TypeOf<typeof HealthQueueFilter>;

const thresholdFilter = (text: FilterText) => t.type({ threshold: optional(text.name), jobId: optional(text.name) }, 'ThresholdQueueFilter');
/** A threshold queue's filter. */
export const ThresholdQueueFilter = thresholdFilter(STORED);
export type ThresholdQueueFilter = t.TypeOf<typeof ThresholdQueueFilter>;

/** The bodies of `PUT /data/v1/items/queues`, `PUT /health/v1/events/queues` and `PUT /data/v1/items/queues/threshold`. */
export const QueueFilterBody = { items: itemFilter(CONFIGURED), health: healthFilter(CONFIGURED), threshold: thresholdFilter(CONFIGURED) } as const;

/** A configured queue as the relay keeps it (undefined filter fields dropped). */
export type QueueConfig =
  | { readonly kind: 'items'; readonly queue: string; readonly deliveryMode: DeliveryMode; readonly filter: ItemQueueFilter }
  | { readonly kind: 'health'; readonly queue: string; readonly deliveryMode: DeliveryMode; readonly filter: HealthQueueFilter }
  | { readonly kind: 'threshold'; readonly queue: string; readonly deliveryMode: DeliveryMode; readonly filter: ThresholdQueueFilter };

/** Queue names: unique per configuration call (docs/queues.md, "Names"). */
const QUEUE_PREFIX = 'tagtrail.';
export const queueName = (kind: QueueKind, id: string): string => `${QUEUE_PREFIX}${kind}.${id}`;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const NAME = new RegExp(`^${QUEUE_PREFIX.replace('.', '\\.')}(?:${QUEUE_KINDS.join('|')})\\.(${UUID})$`);

/** The queue id of a name queueName gives, else undefined (broker authentication's client queues). Pure. */
export function clientQueueId(name: string): string | undefined {
  return NAME.exec(name)?.[1];
}
export const queueStream = (id: string): string => `queue-${id}`;
export const QUEUE_STREAM_PREFIX = 'queue-';

/** `amqp://HOST:PORT/%2F`: the vhost `/`, URL-encoded as clients expect. */
export function serverUrl(host: string, port: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `amqp://${h}:${port}/%2F`;
}

/** The host of AMQP_URL, the public host when AMQP_PUBLIC_HOST is unset. */
export function hostOfUrl(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Drops absent (undefined or null) fields: the stored filter holds only what was given. */
export function compact<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as { [K in keyof T]: Exclude<T[K], null> };
}
