-- GuardRules.decide, translated (io.cloudg.mcp.guard.GuardRules is the reference; keep them in step).
-- KEYS[1] ops hash (operation id -> JSON), KEYS[2] cooldown hash (scope -> end ms), KEYS[3] caller zset
-- ARGV: 1 operation id, 2 principal, 3 tool, 4 force (0/1), 5 max per scope, 6 max total, 7 caller max,
--       8 caller window ms, 9 lease ms, 10 clock offset ms, 11 number of scopes, then scope, cooldown ms pairs
-- Returns {'started', now} or {'refused', reason, limit, retry ms, scope...}; numbers as strings.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[10])
local fmt = function(n) return string.format('%d', n) end

local maxPerScope = tonumber(ARGV[5])
local maxTotal = tonumber(ARGV[6])
local callerMax = tonumber(ARGV[7])
local window = tonumber(ARGV[8])
local n = tonumber(ARGV[11])
local scopes, cooldowns = {}, {}
local longest = 0
for i = 1, n do
  scopes[i] = ARGV[10 + 2 * i]
  cooldowns[i] = tonumber(ARGV[11 + 2 * i])
  if cooldowns[i] > longest then longest = cooldowns[i] end
end

-- forget lapsed registrations and ended cooldowns (both bounded by the caps and the configured scopes)
local live = {}
local ops = redis.call('HGETALL', KEYS[1])
for i = 1, #ops, 2 do
  local rec = cjson.decode(ops[i + 1])
  if tonumber(rec.deadline) <= now then
    redis.call('HDEL', KEYS[1], ops[i])
  else
    live[#live + 1] = rec
  end
end
local cd = redis.call('HGETALL', KEYS[2])
for i = 1, #cd, 2 do
  if tonumber(cd[i + 1]) <= now then redis.call('HDEL', KEYS[2], cd[i]) end
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)

local failures = {}
-- busy: per scope, then overall
local hint = math.max(1000, longest)
local full = {}
for i = 1, n do
  local holding = 0
  for _, rec in ipairs(live) do
    for _, s in ipairs(rec.scopes) do
      if s == scopes[i] then holding = holding + 1 end
    end
  end
  if holding >= maxPerScope then full[#full + 1] = scopes[i] end
end
if #full > 0 then
  table.sort(full)
  failures[#failures + 1] = {'busy', 'live_max_concurrent', hint, full}
elseif #live >= maxTotal then
  failures[#failures + 1] = {'busy', 'live_max_concurrent_total', hint, {}}
end
-- cooldown, unless forced
if ARGV[4] ~= '1' then
  local cooling, wait = {}, 0
  for i = 1, n do
    local untilv = tonumber(redis.call('HGET', KEYS[2], scopes[i]) or '0')
    if untilv > now then
      cooling[#cooling + 1] = scopes[i]
      if untilv - now > wait then wait = untilv - now end
    end
  end
  if #cooling > 0 then
    table.sort(cooling)
    failures[#failures + 1] = {'cooldown', 'live_cooldown_seconds', wait, cooling}
  end
end
-- the caller's quota
if callerMax > 0 then
  local count = redis.call('ZCARD', KEYS[3])
  if count >= callerMax then
    local pivot = redis.call('ZRANGE', KEYS[3], count - callerMax, count - callerMax, 'WITHSCORES')
    failures[#failures + 1] = {'quota', 'live_caller_max_operations', tonumber(pivot[2]) + window - now, {}}
  end
end

if #failures > 0 then
  local retry = 0
  for _, f in ipairs(failures) do
    if f[3] > retry then retry = f[3] end
  end
  local out = {'refused', failures[1][1], failures[1][2], fmt(math.max(0, retry))}
  for _, s in ipairs(failures[1][4]) do out[#out + 1] = s end
  return out
end

redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({id = ARGV[1], tool = ARGV[3], principal = ARGV[2],
  scopes = scopes, started = fmt(now), deadline = fmt(now + tonumber(ARGV[9]))}))
if callerMax > 0 then
  redis.call('ZADD', KEYS[3], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[3], window)
end
return {'started', fmt(now)}
