/**
 * The spend ledger's Redis scripts. Each total is one hash: `m` the month it counts,
 * `mon` spend in that month, `life` lifetime spend (keys only), `res` reserved by calls
 * in flight; all integer micro-dollars. A script runs atomically, so a check and its
 * reservation can never interleave with another node's: that is the whole guarantee.
 */
import { redisScript } from "./redis-connection.ts";

/**
 * KEYS: key hash, organization hash. ARGV: month, estimate, key lifetime cap, key monthly
 * cap, organization cap (micros, -1 for none), use key (0/1), use organization (0/1), TTL ms,
 * reservation id (marked in each hash, so its settlement is applied once however often it is sent).
 * Answers {"load", "key"|"org"} when a total is not in Redis yet, {"deny", which, used}
 * when a cap would be passed, else {"ok"} with the estimate reserved on each total used.
 */
export const RESERVE = redisScript(`
local month = ARGV[1]
local est = tonumber(ARGV[2])
local useKey = ARGV[6] == '1'
local useOrg = ARGV[7] == '1'
if useKey and redis.call('EXISTS', KEYS[1]) == 0 then return {'load', 'key'} end
if useOrg and redis.call('EXISTS', KEYS[2]) == 0 then return {'load', 'org'} end
local function roll(k)
  if redis.call('HGET', k, 'm') ~= month then redis.call('HSET', k, 'm', month, 'mon', 0) end
end
local function num(k, f) return tonumber(redis.call('HGET', k, f) or '0') end
if useKey then
  roll(KEYS[1])
  local res = num(KEYS[1], 'res')
  local cap = tonumber(ARGV[3])
  if cap >= 0 then
    local used = num(KEYS[1], 'life') + res
    if used + est > cap then return {'deny', 'lifetime', used} end
  end
  cap = tonumber(ARGV[4])
  if cap >= 0 then
    local used = num(KEYS[1], 'mon') + res
    if used + est > cap then return {'deny', 'keymonth', used} end
  end
end
if useOrg then
  roll(KEYS[2])
  local cap = tonumber(ARGV[5])
  local used = num(KEYS[2], 'mon') + num(KEYS[2], 'res')
  if cap >= 0 and used + est > cap then return {'deny', 'org', used} end
end
local mark = 'r:' .. ARGV[9]
if useKey then
  redis.call('HINCRBY', KEYS[1], 'res', est)
  redis.call('HSET', KEYS[1], mark, est)
  redis.call('PEXPIRE', KEYS[1], ARGV[8])
end
if useOrg then
  redis.call('HINCRBY', KEYS[2], 'res', est)
  redis.call('HSET', KEYS[2], mark, est)
  redis.call('PEXPIRE', KEYS[2], ARGV[8])
end
return {'ok'}
`);

/**
 * KEYS: key hash (or an unused name), organization hash. ARGV: month, estimate, actual,
 * reserved on key (0/1), reserved on organization (0/1), TTL ms, reservation id. A
 * reservation whose mark is gone was settled already: nothing happens. Gives back the
 * reservation and adds the real cost to every total that exists; a total not in Redis
 * is left alone (whoever loads it reads the store, which the usage flush brings up to date).
 */
export const SETTLE = redisScript(`
local month = ARGV[1]
local est = tonumber(ARGV[2])
local actual = tonumber(ARGV[3])
local mark = 'r:' .. ARGV[7]
for i = 1, 2 do
  if ARGV[3 + i] == '1' and redis.call('EXISTS', KEYS[i]) == 1 and redis.call('HEXISTS', KEYS[i], mark) == 0 then return 0 end
end
for i = 1, 2 do
  local k = KEYS[i]
  if redis.call('EXISTS', k) == 1 then
    if redis.call('HGET', k, 'm') ~= month then redis.call('HSET', k, 'm', month, 'mon', 0) end
    if ARGV[3 + i] == '1' then
      redis.call('HINCRBY', k, 'res', -est)
      redis.call('HDEL', k, mark)
    end
    if actual > 0 then
      redis.call('HINCRBY', k, 'mon', actual)
      if i == 1 then redis.call('HINCRBY', k, 'life', actual) end
    end
    redis.call('PEXPIRE', k, ARGV[6])
  end
end
return 1
`);

/** KEYS: a hash. ARGV: month, month spend, lifetime spend, TTL ms. Sets the totals read from the store unless another node already did. */
export const LOAD = redisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'm', ARGV[1], 'mon', ARGV[2], 'life', ARGV[3], 'res', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`);
