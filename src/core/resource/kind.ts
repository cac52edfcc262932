// A kind of named configuration resource (facility, zone map, recipe, ...):
// one stream per name (`<kind>-<name>`), created / replaced / deleted as
// whole documents. Deletion is an event, so the audit trail stays.
import * as t from 'io-ts';
import { defineEvents, type EventCodecs } from '../events';

export interface ResourceKind<R> {
  /** Stream category and read-model key, e.g. `facility`. */
  readonly kind: string;
  /** Event-type prefix and message noun, e.g. `Facility`. */
  readonly label: string;
  /** The stored document; also the data codec of its events. */
  readonly codec: t.Type<R, unknown, unknown>;
}

export interface ResourceEventNames {
  readonly created: string;
  readonly replaced: string;
  readonly deleted: string;
}

export function defineResourceKind<R>(kind: string, label: string, codec: t.Type<R, unknown, unknown>): ResourceKind<R> {
  return { kind, label, codec };
}

export const streamOf = (k: ResourceKind<unknown>, name: string): string => `${k.kind}-${name}`;

export function eventNames(k: ResourceKind<unknown>): ResourceEventNames {
  return { created: `${k.label}Created`, replaced: `${k.label}Replaced`, deleted: `${k.label}Deleted` };
}

export type ResourceEvent<R> =
  | { readonly type: string; readonly data: { readonly name: string; readonly resource: R } }
  | { readonly type: string; readonly data: { readonly name: string } };

/** `<Label>Created|Replaced {name, resource}` and `<Label>Deleted {name}`. */
export function resourceEventCodecs<R>(k: ResourceKind<R>): EventCodecs {
  const n = eventNames(k as ResourceKind<unknown>);
  const withResource = t.type({ name: t.string, resource: k.codec });
  return defineEvents({
    [n.created]: withResource,
    [n.replaced]: withResource,
    [n.deleted]: t.type({ name: t.string }),
  });
}
