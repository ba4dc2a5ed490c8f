-- KEYS[1] ops hash
-- ARGV: 1 operation id, 2 lease ms, 3 clock offset ms
-- Extends a live registration to now + lease. Returns 1, or 0 if it is gone or has lapsed.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[3])
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local rec = cjson.decode(v)
if tonumber(rec.deadline) <= now then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 0
end
rec.deadline = string.format('%d', now + tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(rec))
return 1
