-- KEYS[1] ops hash, KEYS[2] cooldown hash
-- ARGV: 1 operation id, 2 clock offset ms, 3 number of scopes, then scope, cooldown ms pairs
-- Removes the registration and extends each scope's cooldown to at least now + its cooldown, whether or
-- not the registration still existed. Returns {existed (0/1), now}.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[2])
local existed = redis.call('HDEL', KEYS[1], ARGV[1])
local n = tonumber(ARGV[3])
for i = 1, n do
  local scope = ARGV[2 + 2 * i]
  local untilv = now + tonumber(ARGV[3 + 2 * i])
  local cur = tonumber(redis.call('HGET', KEYS[2], scope) or '0')
  if untilv > cur then redis.call('HSET', KEYS[2], scope, string.format('%d', untilv)) end
end
return {string.format('%d', existed), string.format('%d', now)}
