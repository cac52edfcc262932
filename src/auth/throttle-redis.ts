// The login throttle's counts in Redis (./throttle-store.ts says what they
// are), so every api process sees the same ones, the attempts in flight
// included: parallel guesses spread over several processes get no more
// checks than guesses sent to one. Each key is a hash `{n, until}` (its
// failures, until when it is closed) and a sorted set of the attempts in
// flight (scored by their start); both expire by themselves. A start and an
// end are one script each, over every key of the attempt at once.
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { sha256Hex } from '../core/digest';
import { IN_FLIGHT_LIMIT_MS, type CountedKey, type Outcome, type Start, type ThrottleStore } from './throttle-store';

// KEYS: per counted key its hash, then its set of attempts in flight.
// ARGV: now, the attempt, IN_FLIGHT_LIMIT_MS, then each key's free failures.
// Mirrors MemoryThrottleStore.start (and mustWait).
const START_SCRIPT = `
local now, attempt, limit = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local closed, wait = 0, false
for i = 1, #KEYS / 2 do
  local hash, flying = KEYS[2 * i - 1], KEYS[2 * i]
  redis.call('ZREMRANGEBYSCORE', flying, '-inf', now - limit)
  local n = tonumber(redis.call('HGET', hash, 'n') or '0')
  local untilMs = tonumber(redis.call('HGET', hash, 'until') or '0')
  local inFlight = redis.call('ZCARD', flying)
  if untilMs > closed then closed = untilMs end
  if inFlight > 0 and n + inFlight > tonumber(ARGV[3 + i]) then wait = true end
end
if closed > now then return {'closed', closed - now} end
if wait then return {'wait', 0} end
for i = 1, #KEYS / 2 do
  redis.call('ZADD', KEYS[2 * i], now, attempt)
  redis.call('PEXPIRE', KEYS[2 * i], limit)
end
return {'started', 0}`;

// KEYS as above. ARGV: now, the attempt, the outcome, then per key: free
// failures, base delay, max delay, forget after (ms), cleared by success (1/0).
// A failure closes the key per delayAfter, never shortening a closure already
// set, and renews its expiry. Mirrors MemoryThrottleStore.end.
const END_SCRIPT = `
local now, attempt, outcome = tonumber(ARGV[1]), ARGV[2], ARGV[3]
for i = 1, #KEYS / 2 do
  local hash, a = KEYS[2 * i - 1], 3 + 5 * (i - 1)
  redis.call('ZREM', KEYS[2 * i], attempt)
  if outcome == 'failed' then
    local free, base, max = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
    local n = redis.call('HINCRBY', hash, 'n', 1)
    if n > free then
      local untilMs = now + math.min(base * 2 ^ (n - free - 1), max)
      local prev = tonumber(redis.call('HGET', hash, 'until') or '0')
      if untilMs > prev then redis.call('HSET', hash, 'until', string.format('%d', untilMs)) end
    end
    redis.call('PEXPIRE', hash, ARGV[a + 4])
  elseif outcome == 'ok' and ARGV[a + 5] == '1' then
    redis.call('DEL', hash)
  end
end
return 0`;

/** Counts shared by every process on the Redis. */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  // Names and addresses are client input: the keys hold their digest.
  private redisKeys(keys: readonly CountedKey[]): string[] {
    return keys.flatMap((k) => {
      const id = sha256Hex(k.key).slice(0, 32);
      return [this.keys.loginFailures(id), this.keys.loginAttempts(id)];
    });
  }

  async start(keys: readonly CountedKey[], attempt: string, now: number): Promise<Start> {
    const args = [String(now), attempt, String(IN_FLIGHT_LIMIT_MS), ...keys.map((k) => String(k.policy.freeFailures))];
    const [kind, ms] = (await this.redis.eval(START_SCRIPT, { keys: this.redisKeys(keys), arguments: args })) as [string, number];
    if (kind === 'closed') return { kind, retryAfterMs: Number(ms) };
    return kind === 'wait' ? { kind } : { kind: 'started' };
  }

  async end(keys: readonly CountedKey[], attempt: string, outcome: Outcome, now: number): Promise<void> {
    const perKey = keys.flatMap((k) => [k.policy.freeFailures, k.policy.baseDelayMs, k.policy.maxDelayMs, k.policy.forgetAfterMs, k.clearedBySuccess ? 1 : 0].map(String));
    await this.redis.eval(END_SCRIPT, { keys: this.redisKeys(keys), arguments: [String(now), attempt, outcome, ...perKey] });
  }
}
