// Whether a Redis read model may be served. Redis can lose its data (a
// restart without persistence, a flush) while the service runs; a read model
// that vanished must answer "not yet" (503), never its emptiness as the truth
// (an empty list, a wrong 401).
//
// The projections role keeps two things in Redis (projections/supervisor.ts):
// - `<prefix>v1:generation`: a random id written when it (re)builds the read
//   models. Redis losing its data loses this key too;
// - `<prefix>v1:read-model-states`: per read model, its state in that
//   generation: `rebuilding` (replaying the log from the start) or `ready`
//   (holds everything up to its checkpoint; it may still be a few events
//   behind the log, like any projection).
// A read model is servable only when both keys exist, agree on the
// generation and say `ready`. Each read goes with that check in the same
// round trip (commands issued together are pipelined), so a flush is seen
// by the very next read, before the supervisor has even noticed it; and
// the marker is read once more after the read, so a read that a loss cut
// through (its first command before, its last after) is refused too.
import * as t from 'io-ts';
import { unavailable, type ApiError } from '../http/errors';
import type { RedisKeys } from './keys';
import { retry } from '../retry';
import { decodeStoredOrAbsent } from '../stored-json';

/** How long a client is told to wait before retrying a read of a rebuilding read model. */
export const REBUILDING_RETRY_AFTER_S = 2;
/** ... and when Redis is not reachable at all. */
export const REDIS_DOWN_RETRY_AFTER_S = 1;

export const ReadModelStateDoc = t.intersection([
  t.type({ state: t.keyof({ ready: null, rebuilding: null }), generation: t.string, since: t.string }),
  t.partial({
    /** Rebuilding: events applied so far and the position reached (`commit/prepare`). */
    events: t.number,
    position: t.string,
  }),
]);
export type ReadModelStateDoc = t.TypeOf<typeof ReadModelStateDoc>;

// A state the supervisor did not write (or an older version wrote) counts as
// "not built in this Redis yet": refused, and rewritten by the rebuild.
export function parseStateDoc(raw: string | null | undefined): ReadModelStateDoc | undefined {
  return decodeStoredOrAbsent(ReadModelStateDoc, raw);
}

/** Why `name` cannot be served, or undefined when it can. */
export function notServable(name: string, generation: string | null | undefined, doc: ReadModelStateDoc | undefined): string | undefined {
  if (generation == null) return 'Redis lost its data; rebuilding from the event log';
  if (doc === undefined || doc.generation !== generation) return 'not built in this Redis yet; rebuilding from the event log';
  if (doc.state === 'rebuilding') return `rebuilding from the event log (${doc.events ?? 0} events applied so far)`;
  return undefined;
}

/** The 503 for read models that are not ready: `reasons` by read model name. */
export function readModelsNotReady(reasons: ReadonlyMap<string, string>): ApiError {
  const names = [...reasons.keys()];
  return unavailable(
    `Read model${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} rebuilding from the event log; retry in ${REBUILDING_RETRY_AFTER_S} s`,
    REBUILDING_RETRY_AFTER_S,
    [...reasons].map(([name, reason]) => ({ path: `readModels.${name}`, reason })),
  );
}

export const redisDown = (): ApiError => unavailable('Redis is not reachable; retry shortly', REDIS_DOWN_RETRY_AFTER_S);

/** What the gate needs of a Redis client (the real one, or a test double). */
export interface ReadinessRedis {
  readonly isReady: boolean;
  get(key: string): Promise<unknown>;
  hmGet(key: string, fields: string[]): Promise<readonly unknown[]>;
}

/**
 * Guards the reads of read models. Stateless (everything is in Redis), so
 * any reader can make one from its client and keys, in any process role.
 */
export class ReadModelGate {
  constructor(
    private readonly redis: ReadinessRedis,
    private readonly keys: RedisKeys,
  ) {}

  /** Throws the 503 when Redis is down or one of `names` is not ready; else answers the generation. */
  async check(names: readonly string[]): Promise<string> {
    if (!this.redis.isReady) throw redisDown();
    const [generation, docs] = await Promise.all([this.redis.get(this.keys.generation), this.redis.hmGet(this.keys.readModelStates, [...names])]);
    const reasons = new Map<string, string>();
    names.forEach((name, i) => {
      const why = notServable(name, asString(generation), parseStateDoc(asString(docs[i])));
      if (why !== undefined) reasons.set(name, why);
    });
    if (reasons.size > 0) throw readModelsNotReady(reasons);
    return asString(generation) ?? '';
  }

  /** Resolves once `names` are ready (polling every `everyMs`); `onWait` is told the first refusal. */
  async untilReady(names: readonly string[], everyMs = 200, onWait?: (why: string) => void): Promise<void> {
    await retry(() => this.check(names), {
      backoff: { initialMs: everyMs, maxMs: everyMs },
      onRetry: (err, { attempt }) => {
        if (attempt === 1) onWait?.(err instanceof Error ? err.message : String(err));
      },
    });
  }

  /** `read()` and the check of `names`, sent together; the result only when the read models are ready. */
  async read<T>(names: string | readonly string[], read: () => Promise<T>): Promise<T> {
    const list = typeof names === 'string' ? [names] : names;
    if (!this.redis.isReady) throw redisDown();
    // Settled both ways: a read of a half-built model may fail too, and then
    // "rebuilding" is the answer, not that failure.
    const [checked, result] = await Promise.allSettled([this.check(list), read()]);
    if (checked.status === 'rejected') throw checked.reason;
    if (result.status === 'rejected') throw result.reason;
    if (asString(await this.redis.get(this.keys.generation)) !== checked.value) {
      throw readModelsNotReady(new Map(list.map((n) => [n, 'Redis lost its data during this read; rebuilding from the event log'])));
    }
    return result.value;
  }
}

const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);
