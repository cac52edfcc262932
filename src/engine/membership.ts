// The live engine processes of a partitioned engine, in one Redis hash
// (RedisKeys.engineMembers): holder id -> "<expiry ms> <JSON of what it may
// own and how many it holds>". Each process refreshes its entry at every
// claim round and reads everyone's in the same script; expiries are Redis
// server time, so the processes' clocks need not agree. An entry whose
// process died expires (and is pruned) after the lease, as its partitions'
// leases do; a graceful stop removes it at once. Only balancing reads it
// (./balance.ts).
import * as t from 'io-ts';
import type { RedisClient } from '../core/redis/connect';
import { decodeStoredOrAbsent } from '../core/stored-json';
import type { Member } from './balance';

/** Writes this member's entry (expiring in ARGV[2] ms of server time), prunes expired ones, returns the live ones (field, value, ...). */
const REFRESH =
  "local t = redis.call('time') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) " +
  "redis.call('hset', KEYS[1], ARGV[1], string.format('%d', now + tonumber(ARGV[2])) .. ' ' .. ARGV[3]) " +
  "if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then redis.call('pexpire', KEYS[1], ARGV[2]) end " +
  "local all = redis.call('hgetall', KEYS[1]) local live = {} " +
  'for i = 1, #all, 2 do local exp = tonumber(string.match(all[i + 1], "^%d+")) ' +
  "if exp == nil or exp < now then redis.call('hdel', KEYS[1], all[i]) else live[#live + 1] = all[i] live[#live + 1] = all[i + 1] end end " +
  'return live';

/** What each entry records after its expiry: how many partitions the process holds and which it may own. */
const MemberEntry = t.type({ holds: t.number, owned: t.array(t.Int) });

/** One entry's value, or undefined when it is not one (written by another version): such a member is left out. */
export function parseMember(holder: string, value: string): Member | undefined {
  const entry = decodeStoredOrAbsent(MemberEntry, value.slice(value.indexOf(' ') + 1));
  return entry === undefined ? undefined : { holder, holds: entry.holds, owned: entry.owned };
}

export class EngineMembership {
  readonly holder = crypto.randomUUID();

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly ttlMs: number,
    readonly owned: readonly number[],
  ) {}

  /** Records this process (holding `holds` partitions) for another lease; returns every live member, this one included. */
  async refresh(holds: number): Promise<Member[]> {
    const entry = JSON.stringify({ holds, owned: this.owned });
    const reply = await this.redis.sendCommand(['EVAL', REFRESH, '1', this.key, this.holder, String(this.ttlMs), entry]);
    const flat = Array.isArray(reply) ? reply.map(String) : [];
    const members: Member[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const m = parseMember(flat[i] ?? '', flat[i + 1] ?? '');
      if (m !== undefined) members.push(m);
    }
    return members;
  }

  /** Removes this process's entry (graceful stop): the others count without it at their next round. */
  async leave(): Promise<void> {
    await this.redis.hDel(this.key, this.holder).catch(() => undefined);
  }
}
