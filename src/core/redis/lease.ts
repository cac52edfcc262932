// One holder at a time: a lease in Redis (a random holder id with an
// expiry, taken when free and extended by its holder, in one script). The
// relay, the EPCIS capture, each reader connection and each engine partition
// hold one. A second relay process
// (a scaled deployment, an operator starting one by mistake) waits as a
// standby and takes over once the lease expires or is released. Without it,
// two relays would each publish every message and overwrite each other's
// checkpoint: duplicates, never loss. The lease does not fence a paused
// holder (a process stopped longer than the lease publishes until its next
// renewal finds the lease taken): duplicates again, same messageId.
import { setTimeout as delay } from 'node:timers/promises';
import type { RedisClient } from './connect';
import type { Logger } from '../logger';

/** Takes the lease when free, or extends it when this holder has it already (renewal; a start-up attempt after a failed one): 1, else 0. */
const ACQUIRE =
  "local v = redis.call('get', KEYS[1]) if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end " +
  "if v == false then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0";
/** Deletes the lease only while this holder has it. */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export class RedisLease {
  readonly holder = crypto.randomUUID();
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    /** Who holds it, in log lines ("relay"; the readers role names the reader). */
    private readonly what = 'relay',
  ) {}

  /**
   * One attempt: true when this instance holds the lease now (taken or
   * extended). The readers role holds one lease per reader this way, so two
   * processes never connect to one reader.
   */
  async tryAcquire(): Promise<boolean> {
    return Number(await this.redis.sendCommand(['EVAL', ACQUIRE, '1', this.key, this.holder, String(this.ttlMs)])) === 1;
  }

  /** Resolves once this instance holds the lease; retries every third of the lease; rejects when `signal` aborts. */
  async acquire(signal: AbortSignal): Promise<void> {
    let told = false;
    for (;;) {
      signal.throwIfAborted();
      if (await this.tryAcquire()) {
        if (told) this.logger.info(`${this.what}: lease acquired, taking over`, { holder: this.holder });
        return;
      }
      if (!told) {
        const current = await this.redis.get(this.key).catch(() => null);
        this.logger.warn(`${this.what}: standby, another relay holds the lease`, { holder: current, leaseMs: this.ttlMs });
        told = true;
      }
      await delay(Math.max(1, Math.floor(this.ttlMs / 3)), undefined, { signal });
    }
  }

  /**
   * Renews every third of the lease. `onLost` is called once when the lease
   * turns out to be someone else's (it expired and another relay took it). A renewal that fails because Redis is
   * unreachable keeps publishing: no other relay can take the lease without
   * Redis either, and stopping would only delay delivery.
   */
  keep(onLost: () => void): void {
    this.stopKeeping();
    const tick = async (): Promise<void> => {
      try {
        // Free again (expired while this process was paused, or Redis lost it) and nobody took it: nobody else
        // published meanwhile, so taking it again is as good as extending it.
        const renewed = await this.redis.sendCommand(['EVAL', ACQUIRE, '1', this.key, this.holder, String(this.ttlMs)]);
        if (Number(renewed) !== 1) {
          this.stopKeeping();
          onLost();
          return;
        }
      } catch (err) {
        this.logger.warn(`${this.what}: lease renewal failed; carrying on`, { err: err instanceof Error ? err.message : String(err) });
      }
      if (this.renewTimer) this.schedule(tick);
    };
    this.schedule(tick);
  }

  /** Stops renewing and gives the lease up if still ours, so a standby takes over at once. */
  async release(): Promise<void> {
    this.stopKeeping();
    await this.redis.sendCommand(['EVAL', RELEASE, '1', this.key, this.holder]).catch(() => undefined);
  }

  private schedule(tick: () => Promise<void>): void {
    this.renewTimer = setTimeout(() => void tick(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.renewTimer.unref();
  }

  private stopKeeping(): void {
    clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
  }
}
