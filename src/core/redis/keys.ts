// Every Redis key of tagtrail, under one configurable namespace. The version
// segment lets a read model be rebuilt beside the old one under new keys.
export class RedisKeys {
  constructor(readonly base: string = 'tagtrail:') {}

  /** Prefix of projection checkpoints (RedisCheckpointStore). */
  get checkpointPrefix(): string {
    return `${this.base}v1:checkpoint:`;
  }

  /** Hash name -> JSON of one configuration resource kind. */
  config(kind: string): string {
    return `${this.base}v1:config:${kind}`;
  }

  /** Hash token -> ISO time it was last used (kept outside the event log on purpose). */
  get tokenLastUsed(): string {
    return `${this.base}v1:token-last-used`;
  }

  /** Hash queue name -> epoch ms the relay first saw it without a consumer (src/queues/retirement.ts). */
  get queueIdleSince(): string {
    return `${this.base}v1:relay:queue-idle-since`;
  }

  /** The relay lease: the holder id of the one relay that publishes (src/core/redis/lease.ts). */
  get relayLease(): string {
    return `${this.base}v1:relay:lease`;
  }

  /** The lease of one item engine partition: the holder id of the process that runs it (src/engine/partitioned.ts). */
  engineLease(partition: number): string {
    return `${this.base}v1:engine:lease:${partition}`;
  }

  /** Hash holder id -> expiry and partitions of each live engine process, for balancing (src/engine/membership.ts). */
  get engineMembers(): string {
    return `${this.base}v1:engine:members`;
  }

  /**
   * The generation marker: a random id the projections role writes when it
   * (re)builds the read models. Its absence means Redis lost its data (or
   * never held read models of this service): see src/core/redis/readiness.ts.
   */
  get generation(): string {
    return `${this.base}v1:generation`;
  }

  /** Hash read model name -> JSON of its state (ready / rebuilding) in the current generation. */
  get readModelStates(): string {
    return `${this.base}v1:read-model-states`;
  }

  /** Hash `{n, until}` of failed logins of one throttle key (src/auth/throttle.ts); expires by itself. */
  loginFailures(id: string): string {
    return `${this.base}v1:login-failures:${id}`;
  }

  /** Sorted set of the login attempts in flight under that throttle key (attempt -> start time); expires by itself. */
  loginAttempts(id: string): string {
    return `${this.base}v1:login-attempts:${id}`;
  }

  /** Every key of this namespace (for tests and resets). */
  get pattern(): string {
    return `${this.base}*`;
  }
}
