/**
 * The spend ledger's Redis scripts. Each total is one hash: `m` the month it counts,
 * `mon` spend in that month, `life` lifetime spend (keys only), `res` reserved by calls
 * in flight, all integer micro-dollars; beside them each reservation's mark `r:<id>`, a
 * swept one's note `x:<id>`, and the sweep's next pass `sw` and cursor `sc`. A script
 * runs atomically, so a check and its reservation can never interleave with another
 * node's: that is the whole guarantee.
 */
import { CLOCK_LUA, EPOCH_KEY, redisScript } from "./redis-connection.ts";
import { TAKE_LUA } from "./redis-rate-limiter.ts";

/**
 * Redis's clock in ms, and the sweep of lapsed reservation marks, as Lua functions.
 *
 * A mark `r:<id>` holds its amount and the end of its lease (`<micros>:<ms>`), on Redis's
 * clock: the node whose call holds it renews it while the call runs (RENEW), so a mark
 * lapses only when its node stopped (killed, or cut off from Redis for a whole lease).
 * A reservation first sweeps the hashes it checks: a lapsed mark's amount leaves `res`,
 * and a note `x:<id>` (kept for the totals' time to live) takes its place, so a
 * settlement that still comes adds its real cost once. The work is bounded: one HSCAN
 * step a call (the cursor kept in `sc`), a pass at most every quarter lease (`sw`). A
 * mark of the release before leases (the amount alone) is given the totals' time to live.
 */
const SWEEP_LUA = `${CLOCK_LUA}
local function sweep(k, now, lease, ttl)
  local step = redis.call('HSCAN', k, redis.call('HGET', k, 'sc') or '0', 'MATCH', '[rx]:*', 'COUNT', 64)
  local swept, freed = 0, 0
  local f = step[2]
  for i = 1, #f, 2 do
    local name, v = f[i], f[i + 1]
    if string.sub(name, 1, 1) == 'r' then
      local amount, ends = string.match(v, '^(%-?%d+):(%d+)$')
      if amount == nil then
        if string.match(v, '^%-?%d+$') then redis.call('HSET', k, name, v .. ':' .. string.format('%d', now + ttl)) end
      elseif tonumber(ends) <= now and redis.call('HDEL', k, name) == 1 then
        redis.call('HSET', k, 'x:' .. string.sub(name, 3), string.format('%d', now + ttl))
        swept = swept + 1
        freed = freed + tonumber(amount)
      end
    else
      local forget = tonumber(v)
      if forget == nil or forget <= now then redis.call('HDEL', k, name) end
    end
  end
  if freed ~= 0 then redis.call('HINCRBY', k, 'res', -freed) end
  if step[1] == '0' then
    redis.call('HSET', k, 'sw', string.format('%d', now + math.floor(lease / 4)))
    redis.call('HDEL', k, 'sc')
  else
    redis.call('HSET', k, 'sc', step[1])
  end
  return swept, freed
end
`;

/**
 * The check and reservation, as a Lua function: key hash, organization hash, then month,
 * estimate, key lifetime cap, key monthly cap, organization cap (micros, -1 for none), use
 * key (0/1), use organization (0/1), TTL ms, reservation id (marked in each hash, so its
 * settlement is applied once however often it is sent), lease ms. Answers {"load",
 * "key"|"org", 0, swept} when a total is not in Redis yet, {"deny", which, used, swept}
 * when a cap would be passed, else {"ok", epoch, 0, swept} with the estimate reserved on
 * each total used, and the data's mark (`gw:epoch`, "" if none) its settlement carries;
 * `swept` counts the lapsed marks this call gave back, before it checked.
 */
const RESERVE_LUA = `${SWEEP_LUA}
local function reserve(kk, ko, month, est, capLife, capKeyMon, capOrg, useKey, useOrg, ttl, id, lease)
  local amount = est
  est = tonumber(est)
  ttl = tonumber(ttl)
  lease = tonumber(lease)
  local now = clock()
  local swept = 0
  -- One read a hash (nil when its totals are not in Redis), swept when a pass is due, rolled to this month.
  local function totals(k)
    local v = redis.call('HMGET', k, 'm', 'mon', 'life', 'res', 'sw')
    if not v[1] and not v[4] then return nil end
    local t = {mon = tonumber(v[2] or '0'), life = tonumber(v[3] or '0'), res = tonumber(v[4] or '0')}
    if now >= tonumber(v[5] or '0') then
      local n, freed = sweep(k, now, lease, ttl)
      swept = swept + n
      t.res = t.res - freed
    end
    if v[1] ~= month then
      redis.call('HSET', k, 'm', month, 'mon', 0)
      t.mon = 0
    end
    return t
  end
  local key, org
  if useKey == '1' then
    key = totals(kk)
    if not key then return {'load', 'key', 0, swept} end
  end
  if useOrg == '1' then
    org = totals(ko)
    if not org then return {'load', 'org', 0, swept} end
  end
  if key then
    local cap = tonumber(capLife)
    if cap >= 0 and key.life + key.res + est > cap then return {'deny', 'lifetime', key.life + key.res, swept} end
    cap = tonumber(capKeyMon)
    if cap >= 0 and key.mon + key.res + est > cap then return {'deny', 'keymonth', key.mon + key.res, swept} end
  end
  if org then
    local cap = tonumber(capOrg)
    if cap >= 0 and org.mon + org.res + est > cap then return {'deny', 'org', org.mon + org.res, swept} end
  end
  local mark = 'r:' .. id
  local held = amount .. ':' .. string.format('%d', now + lease)
  local function hold(k, t)
    redis.call('HSET', k, 'res', string.format('%d', t.res + est), mark, held)
    redis.call('PEXPIRE', k, ttl)
  end
  if key then hold(kk, key) end
  if org then hold(ko, org) end
  return {'ok', redis.call('GET', '${EPOCH_KEY}') or '', 0, swept}
end
`;

/** KEYS: key hash, organization hash. ARGV: as RESERVE_LUA's after the two hashes. */
export const RESERVE = redisScript(`${RESERVE_LUA}
return reserve(KEYS[1], KEYS[2], unpack(ARGV))
`);

/**
 * The reservation carrying the call's rate-limit take (rate-charge.ts): one round trip
 * for both. KEYS: key hash, organization hash, the rate bucket. ARGV: the reservation's
 * ten, then the take's six. The token is taken first, as the request runner would
 * have; a refused take reserves nothing. Answers the take's four fields, then the
 * reservation's four ("rate" when the take was refused).
 */
export const RESERVE_TAKING = redisScript(`${TAKE_LUA}${RESERVE_LUA}
local r = take(KEYS[3], ARGV[11], ARGV[12], ARGV[13], ARGV[14], ARGV[15], ARGV[16])
if r[1] == 0 then return {r[1], r[2], r[3], r[4], 'rate', '', 0, 0} end
local s = reserve(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10])
return {r[1], r[2], r[3], r[4], s[1], s[2], s[3], s[4]}
`);

/**
 * KEYS: key hash (or an unused name), organization hash. ARGV: lease ms, reserved on key
 * (0/1), reserved on organization (0/1), reservation id. Moves the end of the lease of a
 * call still running; a mark already settled or swept is not brought back. Answers 1
 * while some mark is held, else 0 (nothing left to renew).
 */
export const RENEW = redisScript(`${CLOCK_LUA}
local ends = string.format('%d', clock() + tonumber(ARGV[1]))
local mark = 'r:' .. ARGV[4]
local held = 0
for i = 1, 2 do
  if ARGV[1 + i] == '1' then
    local amount = string.match(redis.call('HGET', KEYS[i], mark) or '', '^(%-?%d+)')
    if amount then
      redis.call('HSET', KEYS[i], mark, amount .. ':' .. ends)
      held = 1
    end
  end
end
return held
`);

/**
 * KEYS: key hash (or an unused name), organization hash. ARGV: month, estimate, actual,
 * reserved on key (0/1), reserved on organization (0/1), TTL ms, reservation id, the data's
 * mark when it was reserved ("" unknown), first send (0/1). A reservation whose mark and
 * note are both gone was settled already: nothing happens. Gives back the reservation and
 * adds the real cost to every total that exists; where the sweep took the mark (its note
 * `x:<id>` is left), the reservation was given back then, so only the cost is added. A
 * total not in Redis is left alone (whoever loads it reads the store, which the usage
 * flush brings up to date).
 *
 * Unless Redis lost its data since the reservation (a restart without persistence, a
 * FLUSHALL, a failover to an empty replica: `gw:epoch` is another or gone): the mark went
 * with the data, and totals found now were loaded from the store while the call ran, so
 * without its cost, which only reaches the store after the call. Its first send adds the
 * cost to them; a send again (the first's answer lost, so it may have run) does not, and
 * the store's copy counts it when the totals are next read.
 */
export const SETTLE = redisScript(`
local month = ARGV[1]
local est = tonumber(ARGV[2])
local actual = tonumber(ARGV[3])
local id = ARGV[7]
local mark = 'r:' .. id
local lost = ARGV[9] == '1' and ARGV[8] ~= '' and redis.call('GET', '${EPOCH_KEY}') ~= ARGV[8]
for i = 1, 2 do
  local k = KEYS[i]
  if not lost and ARGV[3 + i] == '1' and redis.call('EXISTS', k) == 1 and redis.call('HEXISTS', k, mark) == 0 and redis.call('HEXISTS', k, 'x:' .. id) == 0 then return 0 end
end
for i = 1, 2 do
  local k = KEYS[i]
  if redis.call('EXISTS', k) == 1 then
    if redis.call('HGET', k, 'm') ~= month then redis.call('HSET', k, 'm', month, 'mon', 0) end
    if ARGV[3 + i] == '1' then
      if redis.call('HDEL', k, mark) == 1 then redis.call('HINCRBY', k, 'res', -est)
      else redis.call('HDEL', k, 'x:' .. id) end
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
