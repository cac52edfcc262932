// Timing of the readers role (docs/readers.md), read once from the
// environment when the role starts.
import * as E from 'fp-ts/Either';
import type { BackoffPolicy } from '../core/retry';
import { envVar, formatEnvError, intInRange } from '../core/env';

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
}

export const DEFAULT_READERS_SETTINGS: ReadersSettings = { keepaliveMs: 10_000, reconnectMaxMs: 30_000, leaseMs: 15_000, scanMs: 1000, timeoutMs: 10_000 };

const seconds = intInRange(1, 86_400);

export function loadReadersSettings(env: NodeJS.ProcessEnv): ReadersSettings {
  const read = (name: string, fallbackMs: number): number => {
    const v = envVar(env, name, seconds, fallbackMs / 1000);
    if (E.isLeft(v)) throw new Error(`Invalid configuration: ${formatEnvError(v.left)}`);
    return v.right * 1000;
  };
  return {
    ...DEFAULT_READERS_SETTINGS,
    keepaliveMs: read('READERS_KEEPALIVE_SECONDS', DEFAULT_READERS_SETTINGS.keepaliveMs),
    reconnectMaxMs: read('READERS_RECONNECT_MAX_SECONDS', DEFAULT_READERS_SETTINGS.reconnectMaxMs),
    leaseMs: read('READERS_LEASE_SECONDS', DEFAULT_READERS_SETTINGS.leaseMs),
  };
}

/** MQTT broker IoT readers publish to and the readers role subscribes at (READERS_MQTT_URL), and the topic prefix (READERS_MQTT_TOPIC_PREFIX, default tagtrail/<REDIS_KEY_PREFIX>). */
export function loadMqttSettings(env: NodeJS.ProcessEnv, keyBase: string): { url: string; topicPrefix: string } {
  return { url: env['READERS_MQTT_URL'] ?? 'mqtt://127.0.0.1:1883', topicPrefix: env['READERS_MQTT_TOPIC_PREFIX'] ?? `tagtrail/${keyBase.replace(/[#+:/]+$/, '').replace(/[#+]/g, '_')}` };
}

/** Reconnecting to a reader: 0.5 s doubling up to `maxMs`, each wait drawn in [half, whole] so readers do not retry in step. */
export const reconnectBackoff = (maxMs: number): BackoffPolicy => ({ initialMs: 500, maxMs, jitter: 0.5 });
