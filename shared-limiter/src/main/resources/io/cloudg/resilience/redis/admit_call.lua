-- admit(K, A): the gate before an attempt: breaker, leaf bucket, account bucket, bulkhead slot (one slot:
-- the account's).
-- K (keys): 1 leaf hash, 2 account bucket hash, 3 bulkhead lease set, 4 bulkhead sequence hash
-- A (arguments): 1 now ('' = Redis TIME), 2 limits, 16 little-endian doubles (struct '<d'): permits,
--                leaf ceiling/burst/floor/adaptive, breaker on/threshold/cooldown/max cooldown/probe lease,
--                account bucket on/rate/burst, slot on/max concurrency/lease ns; 3 leaf scope, 4 account scope,
--                5 ttl ms (text), 6 the bulkhead keys' TTL ms (text)
-- Returns integers {decision (0 permit, 1 probe, 2 reject), probe generation, retry-in ns, wait ns, lease id or -1}.
local function admit(K, A)
  local now = clock(A[1])
  local permits, ceiling, burst, floor, adaptive, b_on, threshold, cooldown, max_cooldown, probe_lease,
    a_on, a_rate, a_burst, slot_on, max_conc, lease_ns = struct.unpack('<dddddddddddddddd', A[2])
  local ttl = A[5]

  -- The common case, straight-line: an existing leaf (and account bucket) of this format whose breaker is
  -- closed (or off). The same arithmetic as Leaves.reserve and TokenBuckets.reserve (leaf_reserve,
  -- bucket_reserve below), the same fields written (those that change, and updated_at).
  local h = redis.call('HMGET', K[1], 'v', 'tokens', 'refilled_at', 'rate', 'ceiling', 'b_phase')
  local tokens, at, rate = tonumber(h[2]), tonumber(h[3]), tonumber(h[4])
  local fast = h[1] == VERSION and tokens ~= nil and at ~= nil and rate ~= nil and (b_on == 0 or h[6] == '0')
  local a_tokens, a_at
  if fast and a_on == 1 then
    local a = redis.call('HMGET', K[2], 'v', 'tokens', 'refilled_at')
    a_tokens, a_at = tonumber(a[2]), tonumber(a[3])
    fast = a[1] == VERSION and a_tokens ~= nil and a_at ~= nil
  end
  if fast then
    -- Leaves.current: clamp the rate to the configured ceiling, refill at the stored rate, cap at the
    -- capacity
    local new_rate = ceiling
    if adaptive == 1 then new_rate = math.min(math.max(rate, floor), ceiling) end
    local capacity = leaf_capacity(burst, ceiling)
    if now > at then tokens = math.min(capacity, tokens + (now - at) * rate / SECOND) end
    at = math.max(now, at)
    tokens = math.min(tokens, capacity) - permits
    local wait = math.max(0, at - now)
    if tokens < 0 then wait = wait + math.ceil(-tokens * SECOND / new_rate) end
    -- times are integral: printed once with %d (tokens, a fraction, goes in as a number: Redis prints it)
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
    if a_on == 1 then
      if now > a_at then a_tokens = math.min(a_burst, a_tokens + (now - a_at) * a_rate / SECOND) end
      a_at = math.max(now, a_at)
      a_tokens = a_tokens - permits
      local account_wait = math.max(0, a_at - now)
      if a_tokens < 0 then account_wait = account_wait + math.ceil(-a_tokens * SECOND / a_rate) end
      local a_at_s = now_s
      if a_at ~= now then a_at_s = string.format('%d', a_at) end
      redis.call('HSET', K[2], 'updated_at', now_s, 'tokens', a_tokens, 'refilled_at', a_at_s)
      redis.call('PEXPIRE', K[2], ttl)
      wait = math.max(wait, account_wait)
    end
    local lease = -1
    if slot_on == 1 and wait <= 0 then
      lease = slot_acquire(K[3], K[4], now, lease_ns, max_conc, A[6], A[4])
    end
    return {0, 0, 0, wait, lease}
  end

  -- The general path, for any state: a new leaf or account bucket, a breaker that is not closed, another
  -- format (refused by load()).
  --@include state.lua bucket.lua leaf.lua breaker.lua
  local L = {ceiling = ceiling, burst = burst, floor = floor, adaptive = adaptive == 1}
  -- what the bucket and a closed breaker need; a breaker that is not closed reads everything
  local s = load(K[1], {'tokens', 'refilled_at', 'rate', 'ceiling', 'b_phase'})
  if s ~= nil and s.b_phase ~= nil and s.b_phase ~= CLOSED then s = load(K[1], ALL_LEAF_FIELDS) end
  local kind, gen = 0, 0
  local b = nil
  if b_on == 1 then
    local k, retry
    b, k, gen, retry = breaker_admit(breaker_of(s), now,
      {threshold = threshold, cooldown = cooldown, max_cooldown = max_cooldown, probe_lease = probe_lease})
    if k == 'REJECT' then
      return {2, 0, retry, 0, -1}
    end
    if k == 'PROBE' then kind = 1 end
  end
  local c, wait = leaf_reserve(s, now, L, permits)
  local fields = LEAF_FIELDS
  if b ~= nil then
    put_breaker(c, b)
    fields = ALL_LEAF_FIELDS
  end
  save(K[1], s, c, fields, A[3], now, ttl)
  if a_on == 1 then
    local a0 = load(K[2], BUCKET_FIELDS)
    local a, account_wait = bucket_reserve(a0, now, a_rate, a_burst, permits)
    save(K[2], a0, a, BUCKET_FIELDS, A[4], now, ttl)
    wait = math.max(wait, account_wait)
  end
  local lease = -1
  if slot_on == 1 and wait <= 0 then
    lease = slot_acquire(K[3], K[4], now, lease_ns, max_conc, A[6], A[4])
  end
  return {kind, gen, 0, wait, lease}
end
