/**
 * The spend ledger's Redis scripts. Each total is one hash: `m` the month it counts,
 * `mon` spend in that month, `life` lifetime spend (keys only), `res` reserved by calls
 * in flight; all integer micro-dollars. A script runs atomically, so a check and its
 * reservation can never interleave with another node's: that is the whole guarantee.
 */
import { redisScript } from "./redis-connection.ts";
import { TAKE_LUA } from "./redis-rate-limiter.ts";

/**
 * The check and reservation, as a Lua function: key hash, organization hash, then month,
 * estimate, key lifetime cap, key monthly cap, organization cap (micros, -1 for none), use
 * key (0/1), use organization (0/1), TTL ms, reservation id (marked in each hash, so its
 * settlement is applied once however often it is sent). Answers {"load", "key"|"org"}
 * when a total is not in Redis yet, {"deny", which, used} when a cap would be passed,
 * else {"ok"} with the estimate reserved on each total used.
 */
const RESERVE_LUA = `
local function reserve(kk, ko, month, est, capLife, capKeyMon, capOrg, useKey, useOrg, ttl, id)
  est = tonumber(est)
  useKey = useKey == '1'
  useOrg = useOrg == '1'
  if useKey and redis.call('EXISTS', kk) == 0 then return {'load', 'key'} end
  if useOrg and redis.call('EXISTS', ko) == 0 then return {'load', 'org'} end
  local function roll(k)
    if redis.call('HGET', k, 'm') ~= month then redis.call('HSET', k, 'm', month, 'mon', 0) end
  end
  local function num(k, f) return tonumber(redis.call('HGET', k, f) or '0') end
  if useKey then
    roll(kk)
    local res = num(kk, 'res')
    local cap = tonumber(capLife)
    if cap >= 0 then
      local used = num(kk, 'life') + res
      if used + est > cap then return {'deny', 'lifetime', used} end
    end
    cap = tonumber(capKeyMon)
    if cap >= 0 then
      local used = num(kk, 'mon') + res
      if used + est > cap then return {'deny', 'keymonth', used} end
    end
  end
  if useOrg then
    roll(ko)
    local cap = tonumber(capOrg)
    local used = num(ko, 'mon') + num(ko, 'res')
    if cap >= 0 and used + est > cap then return {'deny', 'org', used} end
  end
  local mark = 'r:' .. id
  for _, k in ipairs({useKey and kk or false, useOrg and ko or false}) do
    if k then
      redis.call('HINCRBY', k, 'res', est)
      redis.call('HSET', k, mark, est)
      redis.call('PEXPIRE', k, ttl)
    end
  end
  return {'ok'}
end
`;

/** KEYS: key hash, organization hash. ARGV: as RESERVE_LUA's after the two hashes. */
export const RESERVE = redisScript(`${RESERVE_LUA}
return reserve(KEYS[1], KEYS[2], unpack(ARGV))
`);

/**
 * The reservation carrying the call's rate-limit take (rate-charge.ts): one round trip
 * for both. KEYS: key hash, organization hash, the rate bucket. ARGV: the reservation's
 * nine, then the take's four. The token is taken first, as the request runner would
 * have; a refused take reserves nothing. Answers the take's four fields, then the
 * reservation's answer ("rate" when the take was refused), padded to three.
 */
export const RESERVE_TAKING = redisScript(`${TAKE_LUA}${RESERVE_LUA}
local r = take(KEYS[3], ARGV[10], ARGV[11], ARGV[12], ARGV[13])
if r[1] == 0 then return {r[1], r[2], r[3], r[4], 'rate', '', 0} end
local s = reserve(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9])
return {r[1], r[2], r[3], r[4], s[1], s[2] or '', s[3] or 0}
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
