/**
 * Provider rate-limit states shared by every node (limit-states.ts says why): one hash
 * per configuration, `gw:rlstate:<org>:<config>` with the state `s` and the time `at` of
 * the observation that set it, swapped by one script so that two nodes seeing the same
 * change at the same moment are told apart (only one is answered the old state). The
 * hash lapses after a day without a newer observation: a state then announced again
 * is a day old. Redis away: this node's own memory decides, as a node alone would
 * (each node may then announce the change itself).
 */
import type { LimitState, LimitStates } from "../limit-states.ts";
import type { RedisConnection } from "./redis-connection.ts";
import { redisScript } from "./redis-connection.ts";

/** KEYS: the hash. ARGV: state, observed at (ms), lifetime (ms). Answers the state replaced, or nil when a newer one stands. */
const SWAP = redisScript(`
local held = redis.call('HMGET', KEYS[1], 's', 'at')
if held[2] and tonumber(held[2]) > tonumber(ARGV[2]) then return false end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'at', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return held[1] or 'ok'
`);

const LIFETIME_MS = 86_400_000;

export class RedisLimitStates implements LimitStates {
  constructor(
    private readonly redis: RedisConnection,
    private readonly local: LimitStates,
  ) {}

  async swap(orgId: string, configId: string, status: LimitState, at: number): Promise<LimitState | null> {
    // This node's memory follows too, so that Redis away it goes on from what it last saw.
    const mine = await this.local.swap(orgId, configId, status, at);
    try {
      const before = await this.redis.eval(SWAP, [`gw:rlstate:${orgId}:${configId}`], [status, at, LIFETIME_MS]);
      return before === null || before === undefined ? null : (String(before) as LimitState);
    } catch {
      return mine;
    }
  }
}
