-- record(K, A): after an attempt: AIMD on the leaf, the call verdict on the breaker, the slot release.
-- K (keys): 1 leaf hash, 2 bulkhead lease set
-- A (arguments): 1 now ('' = Redis TIME), 2 limits, 9 little-endian doubles (struct '<d'):
--                leaf ceiling/burst/floor/adaptive, breaker on/threshold/cooldown/max cooldown/probe lease;
--                3 outcome (S success, T throttled, O other), 4 verdict (NONE | SUCCESS | REACHABLE | FAILURE | NEUTRAL),
--                5 retry-after ns (< 0: none), 6 probe generation, 7 lease id to release ('' = none), 8 leaf scope,
--                9 ttl ms (text)
-- Returns {rate decreased 1|0, rate (text, or -1: the configured ceiling), breaker phase 0|1|2, tripped 1|0}.
local function record(K, A)
  local now = clock(A[1])
  local ceiling, burst, floor, adaptive, b_on, threshold, cooldown, max_cooldown, probe_lease =
    struct.unpack('<ddddddddd', A[2])
  local ttl = A[9]
  local outcome, verdict = A[3], A[4]

  -- The common case, straight-line: a success (not a breaker failure) on an existing leaf of this format at
  -- its full rate (no recovery step to take) whose breaker is closed with no failures (or off). The same
  -- arithmetic as Leaves.onSuccess (leaf_success below), the same fields written (those that change, and
  -- updated_at); the breaker does not change (Breakers.onCallEnd: closed, no failures).
  if outcome == 'S' and verdict ~= 'FAILURE' then
    local h = redis.call('HMGET', K[1], 'v', 'tokens', 'refilled_at', 'rate', 'ceiling', 'b_phase', 'b_failures')
    local tokens, at, rate = tonumber(h[2]), tonumber(h[3]), tonumber(h[4])
    if h[1] == VERSION and tokens ~= nil and at ~= nil and rate ~= nil
        and (b_on == 0 or (h[6] == '0' and h[7] == '0')) then
      local new_rate = ceiling
      if adaptive == 1 then new_rate = math.min(math.max(rate, floor), ceiling) end
      if adaptive ~= 1 or new_rate >= ceiling then
        local capacity = leaf_capacity(burst, ceiling)
        if now > at then tokens = math.min(capacity, tokens + (now - at) * rate / SECOND) end
        at = math.max(now, at)
        tokens = math.min(tokens, capacity)
        local now_s = string.format('%d', now)
        local at_s = now_s
        if at ~= now then at_s = string.format('%d', at) end
        if new_rate ~= rate or ceiling ~= tonumber(h[5]) then
          redis.call('HSET', K[1], 'updated_at', now_s, 'tokens', tokens, 'refilled_at', at_s, 'rate', new_rate,
            'ceiling', ceiling)
        else
          redis.call('HSET', K[1], 'updated_at', now_s, 'tokens', tokens, 'refilled_at', at_s)
        end
        redis.call('PEXPIRE', K[1], ttl)
        if A[7] ~= '' then
          redis.call('ZREM', K[2], A[7])
        end
        return {0, -1, CLOSED, 0} -- the rate is the ceiling (new_rate == ceiling here)
      end
    end
  end

  -- The general path: any outcome on any state.
  --@include state.lua bucket.lua leaf.lua breaker.lua
  local L = {ceiling = ceiling, burst = burst, floor = floor, adaptive = adaptive == 1}
  -- what a success needs (refill, recovery) and a closed breaker with no failures; anything else reads everything
  local s = load(K[1], {'tokens', 'refilled_at', 'rate', 'ceiling', 'last_throttle', 'last_increase', 'b_phase',
    'b_failures'})
  if s ~= nil and (outcome == 'T' or verdict == 'FAILURE' or (s.b_phase ~= nil and s.b_phase ~= CLOSED)
      or (s.b_failures ~= nil and s.b_failures ~= 0)) then
    s = load(K[1], ALL_LEAF_FIELDS)
  end
  local existed = s ~= nil and s.tokens ~= nil
  local after = nil
  if outcome == 'T' then
    after = leaf_throttle(s, now, L, tonumber(A[5]))
  elseif outcome == 'S' or not existed then
    after = leaf_success(s, now, L)
  end
  local decreased = after ~= nil and after.last_decrease == now and (not existed or s.last_decrease ~= now)
  local rate
  if after ~= nil then rate = after.rate else rate = s.rate end
  local t, fields = after, nil
  if after ~= nil then fields = LEAF_FIELDS else t = {} end
  local phase, tripped = CLOSED, 0
  if b_on == 1 then
    local c0 = breaker_of(s) or breaker_closed({cooldown = cooldown})
    local b1 = breaker_end(c0, now, {threshold = threshold, cooldown = cooldown, max_cooldown = max_cooldown,
      probe_lease = probe_lease}, verdict, tonumber(A[6]))
    phase = b1.phase
    if b1 ~= c0 and b1.trips > c0.trips then tripped = 1 end
    put_breaker(t, b1)
    if after ~= nil then fields = ALL_LEAF_FIELDS else fields = BREAKER_FIELDS end
  end
  if fields ~= nil then
    save(K[1], s, t, fields, A[8], now, ttl)
  else
    redis.call('PEXPIRE', K[1], ttl)
  end
  if A[7] ~= '' then
    redis.call('ZREM', K[2], A[7])
  end
  local d = 0
  if decreased then d = 1 end
  return {d, num(rate), phase, tripped}
end
