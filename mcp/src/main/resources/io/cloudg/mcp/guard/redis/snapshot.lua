-- KEYS[1] ops hash, KEYS[2] cooldown hash, KEYS[3] caller zset
-- ARGV: 1 clock offset ms, 2 caller window ms
-- Read only. Returns {now, number of ops, op JSON..., number of cooldown pairs, scope, end ms..., caller starts}.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
local out = {string.format('%d', now)}
local ops = redis.call('HVALS', KEYS[1])
out[#out + 1] = tostring(#ops)
for _, v in ipairs(ops) do out[#out + 1] = v end
local cd = redis.call('HGETALL', KEYS[2])
out[#out + 1] = tostring(#cd / 2)
for _, v in ipairs(cd) do out[#out + 1] = v end
out[#out + 1] = tostring(redis.call('ZCOUNT', KEYS[3], '(' .. string.format('%d', now - tonumber(ARGV[2])), '+inf'))
return out
