// Timing of the readers role (docs/readers.md); READERS_* are parsed with
// every other setting in src/config.ts.
import type { BackoffPolicy } from '../core/retry';

export interface ReadersSettings {
  /** KEEPALIVE period asked of LLRP readers; the link is dead after 3 missed (READERS_KEEPALIVE_SECONDS, 10). */
  readonly keepaliveMs: number;
  /** Longest wait between two connection attempts (READERS_RECONNECT_MAX_SECONDS, 30); the first retries are sooner. */
  readonly reconnectMaxMs: number;
  /** Per-reader lease (READERS_LEASE_SECONDS, 15): a standby process takes a reader over this long after its holder died. */
  readonly leaseMs: number;
  /** How often definitions and jobs are looked at (1 s). */
  readonly scanMs: number;
  /** Connecting, and waiting for any answer of the reader (10 s). */
  readonly timeoutMs: number;
  /** Observations a reader's link holds before it holds the reader back (READERS_HELD_OBSERVATIONS, 20000; outbox.ts). */
  readonly heldObservations: number;
}

export const DEFAULT_READERS_SETTINGS: ReadersSettings = { keepaliveMs: 10_000, reconnectMaxMs: 30_000, leaseMs: 15_000, scanMs: 1000, timeoutMs: 10_000, heldObservations: 20_000 };

/**
 * A burst: at least BURST_READS reads into a running job's open batch, then a pause of
 * BURST_PAUSE_MS without any. Its batch is sealed then, not at the end of the reporting interval:
 * a reader that delivered a burst (an LLRP reader emptying its buffer, a stream catching up) has
 * its reads stored as soon as the burst ends. A trickle of reads, or a reader reading without
 * pause, is sealed once per interval as before, so this adds no reports to a steady reader.
 */
export const BURST_READS = 1000;
export const BURST_PAUSE_MS = 50;

/** Sending a tag report again after a failure: 0.5 s doubling up to 10 s, jittered. */
export const REPORT_RETRY_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 10_000, jitter: 0.5 };

/** READERS_MQTT_TOPIC_PREFIX, else tagtrail/<REDIS_KEY_PREFIX without its separator>, made safe as a topic level. */
export function mqttTopicPrefixOf(configured: string | undefined, keyBase: string): string {
  return configured ?? `tagtrail/${keyBase.replace(/[#+:/]+$/, '').replace(/[#+]/g, '_')}`;
}

/** Reconnecting to a reader: 0.5 s doubling up to `maxMs`, each wait drawn in [half, whole] so readers do not retry in step. */
export const reconnectBackoff = (maxMs: number): BackoffPolicy => ({ initialMs: 500, maxMs, jitter: 0.5 });
