-- cloudg governor, Redis backend: helpers prepended to every script (state format version 1).
-- These functions mirror io.cloudg.resilience.core line for line: same constants, same order of
-- floating-point operations, so Lua and Java compute the same doubles. Times are nanoseconds; a
-- timestamp that "never happened" (Java's Time.NEVER) is stored as 'n' and read back as nil.
if redis.replicate_commands then redis.replicate_commands() end

local VERSION = '1'
local SECOND = 1000000000
local SAME_EVENT_NANOS = SECOND          -- Leaves.SAME_EVENT_NANOS
local RECOVERY_QUIET_NANOS = 5 * SECOND  -- Leaves.RECOVERY_QUIET_NANOS
local RECOVERY_STEP = 0.05               -- Leaves.RECOVERY_STEP
local FRESH_HEADROOM_SECONDS = 0.25      -- Leaves.FRESH_HEADROOM_SECONDS
local TOKEN_MILLIS = 1000                -- RetryBudgets.TOKEN_MILLIS
local REFUND_MILLIS = 100                -- RetryBudgets.REFUND_MILLIS
local CLOSED, OPEN, HALF_OPEN = 0, 1, 2

-- A number as text that reads back to the same double (never tostring(): it prints 14 digits).
local function num(x)
  if x == nil then return 'n' end
  return string.format('%.17g', x)
end

-- Server time (Redis TIME) unless the caller injected one (test mode only).
local function clock(arg)
  if arg ~= nil and arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * SECOND + tonumber(t[2]) * 1000
end

local function since(now, t)
  if t == nil then return math.huge end
  return now - t
end

-- Reads fields of a hash written by this format; nil if the key is absent. Refuses other formats.
local function load(key, fields)
  local vals = redis.call('HMGET', key, 'v', unpack(fields))
  local v = vals[1]
  if v ~= VERSION then
    if v == false then
      local any = false
      for i = 2, #vals do if vals[i] ~= false then any = true end end
      if not any then return nil end
      v = '(none)'
    end
    error('CLOUDG_STATE_FORMAT key ' .. key .. ' holds governor state format version ' .. v
      .. ', but this cloudg reads only version ' .. VERSION .. ' (end)', 0)
  end
  local t = {}
  for i, f in ipairs(fields) do t[f] = tonumber(vals[i + 1]) end
  return t
end

local function save(key, t, fields, scope, now, ttl)
  local args = {'v', VERSION, 'scope', scope, 'updated_at', num(now)}
  for _, f in ipairs(fields) do
    args[#args + 1] = f
    args[#args + 1] = num(t[f])
  end
  redis.call('HSET', key, unpack(args))
  redis.call('PEXPIRE', key, ttl)
end

-- TokenBuckets ---------------------------------------------------------------------------------
local BUCKET_FIELDS = {'tokens', 'refilled_at'}

local function refilled(tokens, refilled_at, now, rate, burst)
  if now <= refilled_at then return tokens end
  local t = tokens + (now - refilled_at) * rate / SECOND
  return math.min(burst, t)
end

local function wait_for(tokens, refilled_at, now, rate)
  local pause = math.max(0, refilled_at - now)
  if tokens >= 0 then return pause end
  return pause + math.ceil(-tokens * SECOND / rate)
end

local function bucket_reserve(s, now, rate, burst, permits)
  local cur = s
  if cur == nil then cur = {tokens = burst, refilled_at = now} end
  local tokens = refilled(cur.tokens, cur.refilled_at, now, rate, burst)
  local at = math.max(now, cur.refilled_at)
  tokens = tokens - permits
  return {tokens = tokens, refilled_at = at}, wait_for(tokens, at, now, rate)
end

-- Leaves (AIMD) --------------------------------------------------------------------------------
local LEAF_FIELDS = {'tokens', 'refilled_at', 'rate', 'ceiling', 'paused_until', 'last_decrease',
  'last_throttle', 'last_increase', 'throttles'}
local BREAKER_FIELDS = {'b_phase', 'b_failures', 'b_opened_at', 'b_cooldown', 'b_probe_until',
  'b_probe_gen', 'b_trips'}
local ALL_LEAF_FIELDS = {}
for _, f in ipairs(LEAF_FIELDS) do ALL_LEAF_FIELDS[#ALL_LEAF_FIELDS + 1] = f end
for _, f in ipairs(BREAKER_FIELDS) do ALL_LEAF_FIELDS[#ALL_LEAF_FIELDS + 1] = f end

local function leaf_limit(a, i)
  return {ceiling = tonumber(a[i]), burst = tonumber(a[i + 1]), floor = tonumber(a[i + 2]), adaptive = a[i + 3] == '1'}
end

local function leaf_copy(c)
  return {tokens = c.tokens, refilled_at = c.refilled_at, rate = c.rate, ceiling = c.ceiling,
    paused_until = c.paused_until, last_decrease = c.last_decrease, last_throttle = c.last_throttle,
    last_increase = c.last_increase, throttles = c.throttles}
end

-- Leaves.current: created if absent, clamped to the configured ceiling, refilled.
local function leaf_current(s, now, L)
  if s == nil or s.tokens == nil then
    -- LeafState.fresh: the burst less FRESH_HEADROOM_SECONDS of refill, at least min(1, burst)
    local tokens = math.max(math.min(1.0, L.burst), L.burst - FRESH_HEADROOM_SECONDS * L.ceiling)
    return {tokens = tokens, refilled_at = now, rate = L.ceiling, ceiling = L.ceiling, throttles = 0}
  end
  local ceiling = L.ceiling
  local rate
  if L.adaptive then rate = math.min(math.max(s.rate, L.floor), ceiling) else rate = ceiling end
  local tokens = refilled(s.tokens, s.refilled_at, now, s.rate, L.burst)
  local at = math.max(now, s.refilled_at)
  local c = leaf_copy(s)
  c.tokens = math.min(tokens, L.burst)
  c.refilled_at = at
  c.rate = rate
  c.ceiling = ceiling
  return c
end

local function leaf_reserve(s, now, L, permits)
  local c = leaf_current(s, now, L)
  c.tokens = c.tokens - permits
  return c, wait_for(c.tokens, c.refilled_at, now, c.rate)
end

local function leaf_throttle(s, now, L, retry_after)
  local c = leaf_current(s, now, L)
  local tokens = c.tokens
  local refilled_at = c.refilled_at
  local rate = c.rate
  local last_decrease = c.last_decrease
  if L.adaptive and since(now, last_decrease) >= SAME_EVENT_NANOS then
    rate = math.max(L.floor, rate / 2)
    tokens = math.min(tokens, 0)
    last_decrease = now
  end
  local paused_until = c.paused_until
  if retry_after > 0 then
    local till = now + retry_after
    if till > refilled_at then
      refilled_at = till
      tokens = math.min(tokens, 0)
    end
    if paused_until == nil then paused_until = till else paused_until = math.max(paused_until, till) end
  end
  return {tokens = tokens, refilled_at = refilled_at, rate = rate, ceiling = c.ceiling, paused_until = paused_until,
    last_decrease = last_decrease, last_throttle = now, last_increase = c.last_increase, throttles = c.throttles + 1}
end

local function leaf_success(s, now, L)
  local c = leaf_current(s, now, L)
  if not L.adaptive or c.rate >= c.ceiling
      or since(now, c.last_throttle) < RECOVERY_QUIET_NANOS
      or since(now, c.last_increase) < RECOVERY_QUIET_NANOS then
    return c
  end
  c.rate = math.min(c.ceiling, c.rate + RECOVERY_STEP * c.ceiling)
  c.last_increase = now
  return c
end

-- Breakers -------------------------------------------------------------------------------------
local function breaker_limit(a, i)
  return {threshold = tonumber(a[i]), cooldown = tonumber(a[i + 1]), max_cooldown = tonumber(a[i + 2]),
    probe_lease = tonumber(a[i + 3])}
end

local function breaker_of(s)
  if s == nil or s.b_phase == nil then return nil end
  return {phase = s.b_phase, failures = s.b_failures, opened_at = s.b_opened_at, cooldown = s.b_cooldown,
    probe_until = s.b_probe_until, probe_gen = s.b_probe_gen, trips = s.b_trips}
end

local function breaker_closed(B)
  return {phase = CLOSED, failures = 0, cooldown = B.cooldown, probe_gen = 0, trips = 0}
end

local function breaker_state(phase, failures, opened_at, cooldown, probe_until, probe_gen, trips)
  return {phase = phase, failures = failures, opened_at = opened_at, cooldown = cooldown, probe_until = probe_until,
    probe_gen = probe_gen, trips = trips}
end

local function retry_in(c, now)
  if c.phase == OPEN then return math.max(0, c.opened_at + c.cooldown - now) end
  if c.phase == HALF_OPEN then return math.max(0, c.probe_until - now) end
  return 0
end

-- Breakers.admit: returns the state, 'PERMIT' | 'PROBE' | 'REJECT', the probe generation, retry-in.
local function breaker_admit(s, now, B)
  local c = s or breaker_closed(B)
  if c.phase == CLOSED then return c, 'PERMIT', 0, 0 end
  local reject
  if c.phase == OPEN then reject = now - c.opened_at < c.cooldown else reject = now < c.probe_until end
  if reject then return c, 'REJECT', 0, math.max(1, retry_in(c, now)) end
  local gen = c.probe_gen + 1
  return breaker_state(HALF_OPEN, c.failures, c.opened_at, c.cooldown, now + B.probe_lease, gen, c.trips), 'PROBE', gen, 0
end

-- Breakers.onCallEnd
local function breaker_end(s, now, B, verdict, gen)
  local c = s or breaker_closed(B)
  if verdict == 'NONE' then return c end
  if c.phase == CLOSED then
    if verdict == 'SUCCESS' or verdict == 'REACHABLE' then
      if c.failures == 0 then return c end
      return breaker_state(CLOSED, 0, c.opened_at, B.cooldown, nil, c.probe_gen, c.trips)
    elseif verdict == 'FAILURE' then
      local failures = c.failures + 1
      if failures >= B.threshold then
        return breaker_state(OPEN, 0, now, B.cooldown, nil, c.probe_gen, c.trips + 1)
      end
      return breaker_state(CLOSED, failures, c.opened_at, c.cooldown, nil, c.probe_gen, c.trips)
    end
    return c
  elseif c.phase == HALF_OPEN then
    if gen == 0 or gen ~= c.probe_gen then return c end
    if verdict == 'SUCCESS' or verdict == 'REACHABLE' then
      return breaker_state(CLOSED, 0, c.opened_at, B.cooldown, nil, c.probe_gen, c.trips)
    elseif verdict == 'FAILURE' then
      local doubled
      if c.cooldown > math.floor(B.max_cooldown / 2) then doubled = B.max_cooldown
      else doubled = math.min(B.max_cooldown, c.cooldown * 2) end
      return breaker_state(OPEN, 0, now, doubled, nil, c.probe_gen, c.trips + 1)
    end
    return breaker_state(HALF_OPEN, c.failures, c.opened_at, c.cooldown, now, c.probe_gen, c.trips)
  end
  return c
end

local function breaker_fields(b)
  return {b_phase = b.phase, b_failures = b.failures, b_opened_at = b.opened_at, b_cooldown = b.cooldown,
    b_probe_until = b.probe_until, b_probe_gen = b.probe_gen, b_trips = b.trips}
end

-- Bulkhead leases: a sorted set of lease id -> expiry, plus a hash with the id sequence. ----------
local function slot_acquire(zkey, mkey, now, lease, max, ttl, scope)
  if redis.call('ZCARD', zkey) >= max then
    redis.call('ZREMRANGEBYSCORE', zkey, '-inf', num(now))
    if redis.call('ZCARD', zkey) >= max then return -1 end
  end
  load(mkey, {'seq'})
  local id = redis.call('HINCRBY', mkey, 'seq', 1)
  redis.call('HSET', mkey, 'v', VERSION, 'scope', scope, 'updated_at', num(now))
  redis.call('ZADD', zkey, num(now + lease), id)
  local keep = math.max(tonumber(ttl), math.ceil(lease / 1000000) + 1000)
  redis.call('PEXPIRE', zkey, keep)
  redis.call('PEXPIRE', mkey, keep)
  return id
end
