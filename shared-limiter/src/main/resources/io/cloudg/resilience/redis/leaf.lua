-- Leaves (AIMD) --------------------------------------------------------------------------------
local SAME_EVENT_NANOS = SECOND          -- Leaves.SAME_EVENT_NANOS
local RECOVERY_QUIET_NANOS = 5 * SECOND  -- Leaves.RECOVERY_QUIET_NANOS
local RECOVERY_STEP = 0.05               -- Leaves.RECOVERY_STEP

local LEAF_FIELDS = {'tokens', 'refilled_at', 'rate', 'ceiling', 'paused_until', 'last_decrease',
  'last_throttle', 'last_increase', 'throttles'}
local BREAKER_FIELDS = {'b_phase', 'b_failures', 'b_opened_at', 'b_cooldown', 'b_probe_until',
  'b_probe_gen', 'b_trips'}
local ALL_LEAF_FIELDS = {'tokens', 'refilled_at', 'rate', 'ceiling', 'paused_until', 'last_decrease',
  'last_throttle', 'last_increase', 'throttles', 'b_phase', 'b_failures', 'b_opened_at', 'b_cooldown',
  'b_probe_until', 'b_probe_gen', 'b_trips'}

local function leaf_copy(c)
  return {tokens = c.tokens, refilled_at = c.refilled_at, rate = c.rate, ceiling = c.ceiling,
    paused_until = c.paused_until, last_decrease = c.last_decrease, last_throttle = c.last_throttle,
    last_increase = c.last_increase, throttles = c.throttles}
end

-- Leaves.current: created if absent, clamped to the configured ceiling, refilled.
local function leaf_current(s, now, L)
  local capacity = leaf_capacity(L.burst, L.ceiling)
  if s == nil or s.tokens == nil then
    return {tokens = capacity, refilled_at = now, rate = L.ceiling, ceiling = L.ceiling, throttles = 0}
  end
  local ceiling = L.ceiling
  local rate
  if L.adaptive then rate = math.min(math.max(s.rate, L.floor), ceiling) else rate = ceiling end
  local tokens = refilled(s.tokens, s.refilled_at, now, s.rate, capacity)
  local at = math.max(now, s.refilled_at)
  local c = leaf_copy(s)
  c.tokens = math.min(tokens, capacity)
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
