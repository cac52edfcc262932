// What a part of the config projection is: one stream category, the codecs
// of its events and the writes each event makes in the projection's MULTI.
// The parts are listed in ./parts.ts.
import type { EventCodecs, RecordedDomainEvent } from '../../src/core/events';
import { eventNames, resourceEventCodecs, type ResourceKind } from '../../src/core/resource/kind';
import type { RedisKeys } from '../../src/core/redis/keys';

/** The slice of a Redis MULTI a part writes with. */
export interface ConfigTx {
  hSet(key: string, field: string, value: string): unknown;
  hDel(key: string, field: string): unknown;
  del(key: string): unknown;
}

export interface ConfigProjectionPart {
  readonly streamPrefix: string;
  readonly codecs: EventCodecs;
  apply(tx: ConfigTx, event: RecordedDomainEvent<{ type: string; data: unknown }>, keys: RedisKeys): void;
}

/** The part for a named resource kind: HSET on created/replaced, HDEL on deleted. */
export function resourcePart<R>(k: ResourceKind<R>): ConfigProjectionPart {
  const n = eventNames(k as ResourceKind<unknown>);
  return {
    streamPrefix: `${k.kind}-`,
    codecs: resourceEventCodecs(k),
    apply(tx, event, keys) {
      const data = event.data as { name: string; resource?: R };
      if (event.type === n.deleted) tx.hDel(keys.config(k.kind), data.name);
      else if (data.resource !== undefined) tx.hSet(keys.config(k.kind), data.name, JSON.stringify(k.codec.encode(data.resource)));
    },
  };
}
