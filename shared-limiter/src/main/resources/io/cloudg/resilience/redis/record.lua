-- After an attempt: AIMD on the leaf, the call verdict on the breaker, the slot release.
-- KEYS: 1 leaf hash, 2 bulkhead lease set
-- ARGV: 1 now ('' = Redis TIME), 2 ttl ms, 3 outcome (S success, T throttled, O other), 4 retry-after ns (< 0: none),
--       5-8 leaf ceiling/burst/floor/adaptive, 9 breaker on, 10-13 threshold/cooldown/max cooldown/probe lease,
--       14 verdict, 15 probe generation, 16 lease id to release ('' = none), 17 leaf scope
-- Returns {rate decreased 1|0, rate, breaker phase 0|1|2, tripped 1|0}.
local now = clock(ARGV[1])
local ttl = ARGV[2]
local L = leaf_limit(ARGV, 5)
local s = load(KEYS[1], ALL_LEAF_FIELDS)
local existed = s ~= nil and s.tokens ~= nil
local after = nil
if ARGV[3] == 'T' then
  after = leaf_throttle(s, now, L, tonumber(ARGV[4]))
elseif ARGV[3] == 'S' or not existed then
  after = leaf_success(s, now, L)
end
local decreased = after ~= nil and after.last_decrease == now and (not existed or s.last_decrease ~= now)
local rate
if after ~= nil then rate = after.rate else rate = s.rate end
local fields, names = {}, {}
if after ~= nil then
  fields = after
  names = LEAF_FIELDS
end
local phase, tripped = CLOSED, false
if ARGV[9] == '1' then
  local b0 = breaker_of(s)
  local b1 = breaker_end(b0, now, breaker_limit(ARGV, 10), ARGV[14], tonumber(ARGV[15]))
  phase = b1.phase
  local trips0 = 0
  if b0 ~= nil then trips0 = b0.trips end
  tripped = b1.trips > trips0
  for k, v in pairs(breaker_fields(b1)) do fields[k] = v end
  if after ~= nil then names = ALL_LEAF_FIELDS else names = BREAKER_FIELDS end
end
if #names > 0 then
  save(KEYS[1], fields, names, ARGV[17], now, ttl)
else
  redis.call('PEXPIRE', KEYS[1], ttl)
end
if ARGV[16] ~= '' then
  redis.call('ZREM', KEYS[2], ARGV[16])
end
local d, t = '0', '0'
if decreased then d = '1' end
if tripped then t = '1' end
return {d, num(rate), num(phase), t}
