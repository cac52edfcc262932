import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/Either';
import {
  jsonEvent,
  type AllStreamResolvedEvent,
  type EventData,
  type JSONType,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { formatDecodeErrors, type FieldError } from './decode-errors';

/**
 * A slice declares its events as a map from event type to the io-ts codec of
 * the event's data. The codec both validates what is read back and encodes
 * what is written, so a data field may be a richer type (e.g. a Date) than
 * its JSON form.
 */
export type EventCodecs = { readonly [eventType: string]: t.Mixed };

/** The union of `{type, data}` events a codec map describes. */
export type EventOf<C extends EventCodecs> = {
  [K in keyof C & string]: { readonly type: K; readonly data: t.TypeOf<C[K]> };
}[keyof C & string];

/** Identity, so a slice gets its literal event-type keys inferred. */
export const defineEvents = <C extends EventCodecs>(codecs: C): C => codecs;

/** Who and what caused an event: carried on every event we write. */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  /** The authenticated user (or agent) on whose behalf the event was written. */
  user?: string;
}

// On the wire the ids use EventStoreDB's `$correlationId`/`$causationId`
// names, so the server's by-correlation-id system projection understands them.
const WireMetadata = t.partial({ $correlationId: t.string, $causationId: t.string, user: t.string });
type WireMetadata = t.TypeOf<typeof WireMetadata>;

/** An event as read back: the domain event plus where and when it was stored. */
export type RecordedDomainEvent<E> = E & {
  readonly id: string;
  readonly streamId: string;
  readonly revision: bigint;
  readonly created: Date;
  /** Position in `$all`; present when the server reports it (always for `$all` reads). */
  readonly position: Position | undefined;
  readonly metadata: EventMetadata;
};

export type MalformedReason = 'unknown-type' | 'not-json' | 'invalid-data' | 'invalid-metadata' | 'missing-event';

/**
 * A stored event that does not match its codec. It says exactly which event
 * (stream + revision) is bad so an operator can find it; it is a value, not a
 * crash, so readers decide whether to skip it or to stop.
 */
export class MalformedEventError extends Error {
  override readonly name = 'MalformedEventError';
  constructor(
    readonly streamId: string,
    readonly revision: bigint,
    readonly eventType: string,
    readonly eventId: string,
    readonly reason: MalformedReason,
    readonly errors: FieldError[],
    readonly position?: Position,
  ) {
    super(
      `malformed event ${eventType} at ${streamId}@${revision.toString()} (${reason})` +
        (errors.length ? `: ${errors.map((e) => `${e.path || '<root>'} ${e.reason}`).join('; ')}` : ''),
    );
  }
}

function toWireMetadata(metadata: EventMetadata | undefined): WireMetadata | undefined {
  if (!metadata) return undefined;
  const wire: WireMetadata = {};
  if (metadata.correlationId !== undefined) wire.$correlationId = metadata.correlationId;
  if (metadata.causationId !== undefined) wire.$causationId = metadata.causationId;
  if (metadata.user !== undefined) wire.user = metadata.user;
  return Object.keys(wire).length ? wire : undefined;
}

function fromWireMetadata(wire: WireMetadata): EventMetadata {
  const metadata: EventMetadata = {};
  if (wire.$correlationId !== undefined) metadata.correlationId = wire.$correlationId;
  if (wire.$causationId !== undefined) metadata.causationId = wire.$causationId;
  if (wire.user !== undefined) metadata.user = wire.user;
  return metadata;
}

/** Encodes a domain event with its codec into an EventStoreDB JSON event. */
export function encodeEvent<C extends EventCodecs>(
  codecs: C,
  event: EventOf<C>,
  metadata?: EventMetadata,
  id?: string,
): EventData {
  const codec = codecs[event.type];
  if (!codec) throw new Error(`no codec for event type ${event.type}`);
  // A codec's output is JSON by construction (that is what makes it a codec
  // for stored events); io-ts cannot express that bound in its types.
  const data = codec.encode(event.data) as JSONType;
  const wire = toWireMetadata(metadata);
  return jsonEvent({
    type: event.type,
    data,
    ...(wire ? { metadata: wire } : {}),
    ...(id ? { id } : {}),
  });
}

export function hasCodec<C extends EventCodecs>(codecs: C, eventType: string): eventType is keyof C & string {
  return Object.prototype.hasOwnProperty.call(codecs, eventType);
}

/**
 * Decodes a stored event with the slice's codecs. Every way a stored event
 * can be wrong (unknown type, binary content, data or metadata not matching)
 * comes back as a MalformedEventError naming its stream and revision.
 */
export function decodeRecorded<C extends EventCodecs>(
  resolved: ResolvedEvent | AllStreamResolvedEvent,
  codecs: C,
): Either<MalformedEventError, RecordedDomainEvent<EventOf<C>>> {
  const recorded = resolved.event;
  if (!recorded) {
    const link = resolved.link;
    return left(
      new MalformedEventError(link?.streamId ?? '<unknown>', link?.revision ?? -1n, link?.type ?? '<unknown>',
        link?.id ?? '<unknown>', 'missing-event', [], link?.position),
    );
  }
  const { streamId, revision, type, id, position } = recorded;
  const fail = (reason: MalformedReason, errors: FieldError[] = []) =>
    left(new MalformedEventError(streamId, revision, type, id, reason, errors, position));

  if (!hasCodec(codecs, type)) return fail('unknown-type');
  if (!recorded.isJson) return fail('not-json');
  const codec = codecs[type] as t.Mixed;
  const data = codec.decode(recorded.data);
  const wire = WireMetadata.decode(recorded.metadata ?? {});
  if (isLeft(data)) {
    return fail('invalid-data', formatDecodeErrors(data.left, 'data'));
  }
  if (isLeft(wire)) return fail('invalid-metadata', formatDecodeErrors(wire.left, 'metadata'));

  // The cast ties the runtime pair (type, codec[type]) to the union member
  // TypeScript cannot correlate on its own.
  const event = { type, data: data.right } as EventOf<C>;
  return right({
    ...event,
    id,
    streamId,
    revision,
    created: recorded.created,
    position,
    metadata: fromWireMetadata(wire.right),
  });
}
