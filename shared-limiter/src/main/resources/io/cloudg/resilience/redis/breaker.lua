-- Breakers -------------------------------------------------------------------------------------
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

-- Copies breaker state b into the leaf table t as its b_* fields.
local function put_breaker(t, b)
  t.b_phase, t.b_failures, t.b_opened_at, t.b_cooldown = b.phase, b.failures, b.opened_at, b.cooldown
  t.b_probe_until, t.b_probe_gen, t.b_trips = b.probe_until, b.probe_gen, b.trips
end
