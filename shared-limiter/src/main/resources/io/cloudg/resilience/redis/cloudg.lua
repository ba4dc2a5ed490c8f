-- cloudg governor, Redis backend (state format version 1): every rule of the governor, once. On Redis 7 this
-- library is loaded once as a function library, one function per entry point; on Redis 6 each script Redis
-- runs is this library plus one line that calls an entry point (see Script.java): admit, record, batch,
-- slots, global, budget, free, troubled, register, registered, member. The rules mirror io.cloudg.resilience.core
-- line for line (same constants, same order of floating-point operations, so Lua and Java compute the same
-- doubles), each written once as a function of numbers: admit's and record's straight-line common cases (an
-- existing leaf, a closed breaker) call them on locals read by one HMGET, and the general cases call the
-- same functions through the state-table helpers (leaf_current, leaf_success, ...). No rule is written twice.
-- Times are nanoseconds; a timestamp that "never happened" (Java's Time.NEVER) is an absent field or 'n',
-- read back as nil.
--
-- Cost rules (a script blocks the server, and its cost is the fleet's throughput; every redis.call costs
-- about 1.5-2 us of Lua and Redis, whatever the command): read only the fields the computation uses (one
-- HMGET a hash), write only the fields that changed (one HSET, nothing at all when nothing changed),
-- refresh a TTL only when it runs low (see keep_until), print times with %d (Redis prints a Lua number with
-- %.17g, far slower), pass other numbers straight to redis.call, take limits as one struct-packed argument,
-- reply with integers.
--
-- Arguments: every entry point names its keys and arguments in its first lines, and reads KEYS and ARGV
-- nowhere else: `local leaf_key, account_key = K[1], K[2]`, `local injected_now, limits = A[1], A[2]`, and
-- a struct-packed argument is unpacked into named locals once (`local permits, ceiling = struct.unpack(...)`).
-- ScriptArgs.java holds the same layouts with named offsets, and ScriptArgsTest reads this file and fails
-- unless both name the same things at the same positions (batch's per-call counts included).

local VERSION = '1'
local SECOND = 1000000000
local CLOSED, OPEN, HALF_OPEN = 0, 1, 2
local HEADROOM_SECONDS = 0.5             -- Leaves.HEADROOM_SECONDS
local SAME_EVENT_NANOS = SECOND          -- Leaves.SAME_EVENT_NANOS
local RECOVERY_QUIET_NANOS = 5 * SECOND  -- Leaves.RECOVERY_QUIET_NANOS
local RECOVERY_STEP = 0.05               -- Leaves.RECOVERY_STEP
local TOKEN_MILLIS = 1000                -- RetryBudgets.TOKEN_MILLIS
local REFUND_MILLIS = 100                -- RetryBudgets.REFUND_MILLIS

-- State hashes ------------------------------------------------------------------------------------------
local LEAF_FIELDS = {'tokens', 'refilled_at', 'rate', 'ceiling', 'paused_until', 'last_decrease',
  'last_throttle', 'last_increase', 'throttles', 'window_rate'}
local BREAKER_FIELDS = {'b_phase', 'b_failures', 'b_opened_at', 'b_cooldown', 'b_probe_until',
  'b_probe_gen', 'b_trips'}
local ALL_LEAF_FIELDS = {'tokens', 'refilled_at', 'rate', 'ceiling', 'paused_until', 'last_decrease',
  'last_throttle', 'last_increase', 'throttles', 'window_rate', 'b_phase', 'b_failures', 'b_opened_at', 'b_cooldown',
  'b_probe_until', 'b_probe_gen', 'b_trips'}
-- A leaf keeps its hot fields (what every admission reads and writes) packed in one field, h: nine
-- little-endian doubles (struct '<d'), NaN for an absent one (never written: 'n' elsewhere), in this order.
-- One HMGET of v and h and one HSET of h (and struct's unpack and pack) cost Redis about 2 us less per
-- admission than nine fields read and written as text and converted with tonumber and %d (measured: see
-- docs/benchmarks-history.md). The other (cold) fields are decimal text as in every other hash. The Java
-- reader (StateReader.HOT_FIELDS) expands h in this order; ScriptArgsTest checks that it is the same.
local HOT_FIELDS = {'tokens', 'refilled_at', 'rate', 'ceiling', 'x', 'bx', 'b_phase', 'b_failures', 'updated_at'}
local HOT_FORMAT = '<ddddddddd'
local IS_HOT = {}
for i = 1, #HOT_FIELDS do IS_HOT[HOT_FIELDS[i]] = true end
-- the cold fields the general cases read: none for an admission whose breaker is closed, all otherwise
local NO_FIELDS = {}
local ALL_COLD_FIELDS = {}
for i = 1, #ALL_LEAF_FIELDS do
  if not IS_HOT[ALL_LEAF_FIELDS[i]] then ALL_COLD_FIELDS[#ALL_COLD_FIELDS + 1] = ALL_LEAF_FIELDS[i] end
end

-- Server time (Redis TIME) unless the caller injected one (test mode only).
local function clock(arg)
  if arg ~= nil and arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * SECOND + tonumber(t[2]) * 1000
end

-- A number as text that reads back to the same double (for replies; never tostring()).
local function num(x)
  if x == nil then return 'n' end
  return string.format('%.17g', x)
end

local function since(now, t)
  if t == nil then return math.huge end
  return now - t
end

local function format_error(key, v)
  error('CLOUDG_STATE_FORMAT key ' .. key .. ' holds governor state format version ' .. v
    .. ', but this cloudg reads only version ' .. VERSION .. ' (end)', 0)
end

-- Lazy TTLs: every hash holds x, the server time until which its TTL is known to last. A write refreshes
-- the TTL (PEXPIRE to 1.5 ttl, x to now + 1.5 ttl) only when less than one ttl is left, or when it would end
-- before until_ns (a lease's expiry). So a key outlives its last write by between ttl and 1.5 ttl, and a
-- bulkhead key every lease it holds, at one PEXPIRE per half ttl instead of one per write. Returns the new
-- x and the PEXPIRE argument, or nil when the TTL lasts.
local function ttl_lasts(x, now, ttl_ms, until_ns)
  return x ~= nil and x - now >= ttl_ms * 1000000 and x > until_ns
end

local function keep_until(x, now, ttl_ms, until_ns)
  if ttl_lasts(x, now, ttl_ms, until_ns) then return nil end
  local keep = math.floor(ttl_ms * 1.5)
  return string.format('%d', now + keep * 1000000), string.format('%d', keep)
end

-- The index of an account's troubled leaves: a set of leaf keys ({tag}:troubled, beside the leaf in its
-- hash slot: its name is the leaf key's tag and a suffix, derived here rather than passed, so admit's and
-- record's key lists stay as they are). A leaf enters it when a script leaves it troubled (below its
-- ceiling, a breaker that is not closed, a breaker that has tripped: what StateStore.troubled() lists); it
-- leaves it only through the troubled entry point, which checks each member and keeps the troubled ones.
-- So the index may hold more than the troubled leaves, never fewer, and reading the troubled leaves of an
-- estate costs what they are, not what the whole key set is. Its TTL: 1.5 ttl from its last mark or read.
local function troubled_index(leaf_key)
  local close = string.find(leaf_key, '}:', 1, true)
  return string.sub(leaf_key, 1, close + 1) .. 'troubled'
end

local function mark_troubled(leaf_key, ttl)
  local idx = troubled_index(leaf_key)
  redis.call('SADD', idx, leaf_key)
  redis.call('PEXPIRE', idx, string.format('%d', math.floor(tonumber(ttl) * 1.5)))
end

-- Whether a leaf's rate, stored ceiling, breaker phase and trips (nil: absent) make it troubled.
local function is_troubled(rate, ceiling, phase, trips)
  return (rate ~= nil and ceiling ~= nil and rate < ceiling) or (phase ~= nil and phase ~= CLOSED)
    or (trips ~= nil and trips > 0)
end

-- Whether the hash whose HMGET (of 'v' first) answered vals exists; refuses another format.
local function exists(key, vals)
  local v = vals[1]
  if v == VERSION then return true end
  if v == false then
    local any = false
    for i = 2, #vals do if vals[i] ~= false then any = true end end
    if not any then return false end
    v = '(none)'
  end
  format_error(key, v)
end

-- HSET of args[1..n] (the hash's fields that changed, updated_at first) that keeps the TTL (keep_until; x:
-- the hash's x as read, nil for a new hash).
local function write(key, args, n, x, now, ttl)
  local nx, keep = keep_until(x, now, tonumber(ttl), now)
  if nx ~= nil then args[n + 1], args[n + 2], n = 'x', nx, n + 2 end
  redis.call('HSET', key, unpack(args, 1, n))
  if keep ~= nil then redis.call('PEXPIRE', key, keep) end
end

-- Reads fields of a hash written by this format (and its x, as t.x); nil if the key is absent. Refuses
-- other formats.
local function load(key, fields)
  local vals = redis.call('HMGET', key, 'v', 'x', unpack(fields))
  if not exists(key, vals) then return nil end
  local t = {x = tonumber(vals[2])}
  for i = 1, #fields do t[fields[i]] = tonumber(vals[i + 2]) end
  return t
end

-- A leaf's hot value as packed (NaN for nil) and back.
local NAN = 0 / 0
local function packed(v)
  if v == nil then return NAN end
  return v
end

local function unpacked(v)
  if v ~= v then return nil end
  return v
end

-- A leaf's h as read (false: absent), refused unless it holds the nine doubles.
local HOT_BYTES = 8 * #HOT_FIELDS
local function hot_of(key, h)
  if h and #h ~= HOT_BYTES then
    error('CLOUDG_STATE_FORMAT key ' .. key .. ' holds a packed field h of ' .. #h .. ' bytes, but this cloudg'
      .. ' reads only ' .. HOT_BYTES .. ' (end)', 0)
  end
  return h
end

-- A leaf's packed hot fields (h) of state t.
local function pack_hot(t)
  return struct.pack(HOT_FORMAT, packed(t.tokens), packed(t.refilled_at), packed(t.rate), packed(t.ceiling),
    packed(t.x), packed(t.bx), packed(t.b_phase), packed(t.b_failures), packed(t.updated_at))
end

-- load for a leaf: its hot fields (all of them, from h) and the cold fields listed; nil if the key is absent.
local function load_leaf(key, cold)
  local vals = redis.call('HMGET', key, 'v', 'h', unpack(cold))
  if not exists(key, vals) then return nil end
  local t = {}
  if hot_of(key, vals[2]) then
    local v = {struct.unpack(HOT_FORMAT, vals[2])}
    for i = 1, #HOT_FIELDS do t[HOT_FIELDS[i]] = unpacked(v[i]) end
  end
  for i = 1, #cold do t[cold[i]] = tonumber(vals[i + 2]) end
  return t
end

-- Writes state t of a leaf read as old (nil: a new hash, which gets v and scope): of the listed fields only
-- those that differ from old (a cold one nil becomes 'n'); a hot one that differs, or a new bx (nil: none),
-- rewrites h whole (the hot fields not listed keep old's values, updated_at becomes now, x as keep_until
-- says, which may also refresh the TTL); writes nothing when nothing changed. A field the caller did not
-- read must be one the computation copied unchanged (then it is nil on both sides and is not written). Cold
-- times and counts go in with %d, window_rate as a number. A write that leaves the leaf troubled marks it in
-- its account's index (mark_troubled).
local function save_leaf(key, old, t, fields, scope, now, ttl, bx)
  local args, n, h = {}, 0, {}
  if old == nil then
    args, n = {'v', VERSION, 'scope', scope}, 4
  else
    for i = 1, #HOT_FIELDS do h[HOT_FIELDS[i]] = old[HOT_FIELDS[i]] end
  end
  local hot = old == nil
  if bx ~= nil then h.bx, hot = bx, true end
  for i = 1, #fields do
    local f = fields[i]
    local v = t[f]
    if IS_HOT[f] then
      h[f] = v
      if old == nil or v ~= old[f] then hot = true end
    elseif old == nil or v ~= old[f] then
      if v == nil then
        if old ~= nil then args[n + 1], args[n + 2], n = f, 'n', n + 2 end
      else
        if f ~= 'window_rate' then v = string.format('%d', v) end
        args[n + 1], args[n + 2], n = f, v, n + 2
      end
    end
  end
  if n == 0 and not hot then return end -- nothing changed
  h.updated_at = now
  local nx, keep = keep_until(h.x, now, tonumber(ttl), now)
  if nx ~= nil then h.x = tonumber(nx) end
  args[n + 1], args[n + 2], n = 'h', pack_hot(h), n + 2
  redis.call('HSET', key, unpack(args, 1, n))
  if keep ~= nil then redis.call('PEXPIRE', key, keep) end
  local trips = t.b_trips
  if trips == nil and old ~= nil then trips = old.b_trips end
  if is_troubled(h.rate, h.ceiling, h.b_phase, trips) then mark_troubled(key, ttl) end
end

-- TokenBuckets ------------------------------------------------------------------------------------------
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

-- TokenBuckets.reserve on the fixed bucket at key (the account's, the provider's: created full); the wait.
local function fixed_bucket(key, now, rate, burst, permits, scope, ttl)
  local h = redis.call('HMGET', key, 'v', 'x', 'tokens', 'refilled_at')
  local found = exists(key, h)
  local tokens, at = tonumber(h[3]), tonumber(h[4])
  if tokens == nil then tokens, at = burst, now end -- BucketState.full
  tokens = refilled(tokens, at, now, rate, burst)
  at = math.max(now, at)
  tokens = tokens - permits
  local args = {'updated_at', string.format('%d', now), 'tokens', tokens, 'refilled_at', string.format('%d', at),
    'v', VERSION, 'scope', scope}
  local n = 6
  if not found then n = 10 end
  write(key, args, n, tonumber(h[2]), now, ttl)
  return wait_for(tokens, at, now, rate)
end

-- Leaves (AIMD) -----------------------------------------------------------------------------------------
-- Leaves.capacity: the most a leaf holds, and what a new one starts with.
local function leaf_capacity(burst, ceiling)
  return math.max(math.min(1.0, burst), burst - HEADROOM_SECONDS * ceiling)
end

-- Leaves.rate: the stored rate clamped to the configured ceiling (and floor, when adaptive).
local function leaf_rate(rate, ceiling, floor, adaptive)
  if adaptive then return math.min(math.max(rate, floor), ceiling) end
  return ceiling
end

-- The balance part of Leaves.current: refilled at the stored rate, capped at the capacity, less `taken`;
-- and the time refill is credited up to.
local function leaf_take(tokens, refilled_at, rate, now, capacity, taken)
  return math.min(refilled(tokens, refilled_at, now, rate, capacity), capacity) - taken, math.max(now, refilled_at)
end

-- Leaves.recoveryLimit: the highest rate recovery may reach, the ceiling or the learned window rate (nil: none).
local function leaf_recovery_limit(ceiling, window_rate)
  if window_rate ~= nil and window_rate > 0 and window_rate < ceiling then return window_rate end
  return ceiling
end

-- Leaves.recovers: whether a success now takes a recovery step on a leaf at `rate` below `ceiling` (and below
-- the window rate it learned).
local function leaf_recovers(adaptive, rate, ceiling, last_throttle, last_increase, now, window_rate)
  return adaptive and rate < leaf_recovery_limit(ceiling, window_rate)
    and since(now, last_throttle) >= RECOVERY_QUIET_NANOS and since(now, last_increase) >= RECOVERY_QUIET_NANOS
end

-- Leaves.onSuccess's "nothing changes": no recovery step, the rate and ceiling already those configured.
local function leaf_keeps(rate, stored_ceiling, L, last_throttle, last_increase, now, window_rate)
  return stored_ceiling == L.ceiling and leaf_rate(rate, L.ceiling, L.floor, L.adaptive) == rate
    and not leaf_recovers(L.adaptive, rate, stored_ceiling, last_throttle, last_increase, now, window_rate)
end

-- Leaves.current: created if absent, clamped to the configured ceiling, refilled, less `taken` tokens. L.share
-- (admit's refill_share; nil elsewhere: 1) scales the refill and the capacity, not the stored rate (Leaves.reserve
-- with a share). An outcome's refill (record: a throttle, a recovery step) is credited at the whole rate.
local function leaf_current(s, now, L, taken)
  local share = L.share or 1
  local capacity = leaf_capacity(L.burst, L.ceiling) * share
  if s == nil or s.tokens == nil then
    return {tokens = capacity - taken, refilled_at = now, rate = L.ceiling, ceiling = L.ceiling, throttles = 0}
  end
  local tokens, at = leaf_take(s.tokens, s.refilled_at, s.rate * share, now, capacity, taken)
  return {tokens = tokens, refilled_at = at, rate = leaf_rate(s.rate, L.ceiling, L.floor, L.adaptive),
    ceiling = L.ceiling, paused_until = s.paused_until, last_decrease = s.last_decrease,
    last_throttle = s.last_throttle, last_increase = s.last_increase, throttles = s.throttles,
    window_rate = s.window_rate}
end

local function leaf_reserve(s, now, L, permits)
  local c = leaf_current(s, now, L, permits)
  return c, wait_for(c.tokens, c.refilled_at, now, c.rate * (L.share or 1))
end

-- What a throttle said about a fixed-window quota (QuotaWindow), from record's window argument ('' = nothing;
-- else 3 little-endian doubles): its reset ns (negative: not said), its calls and its length ns (0: not said).
local NO_WINDOW = {reset = -1, calls = 0, window = 0, known = false, sized = false}

local function quota_window(window)
  if window == nil or window == '' then return NO_WINDOW end
  local reset, calls, length = struct.unpack('<ddd', window)
  local sized = calls > 0 and length > 0
  return {reset = reset, calls = calls, window = length, known = reset >= 0 or sized, sized = sized}
end

-- Leaves.onThrottle: AIMD (halve, once per event), a window learned (its quota spread over it, QuotaWindow.
-- spreadRps), a pause until Retry-After or the window's reset.
local function leaf_throttle(s, now, L, retry_after, W)
  local c = leaf_current(s, now, L, 0)
  local tokens = c.tokens
  local refilled_at = c.refilled_at
  local rate = c.rate
  local window_rate = c.window_rate
  local last_decrease = c.last_decrease
  local paused_until = c.paused_until
  local same_event = since(now, last_decrease) < SAME_EVENT_NANOS
    or (W.known and paused_until ~= nil and now < paused_until)
  if L.adaptive then
    local target = rate
    if W.sized then
      window_rate = W.calls * SECOND / (W.window + HEADROOM_SECONDS * SECOND)
      target = math.max(L.floor, math.min(window_rate, c.ceiling))
    end
    if rate > target or not same_event then
      if rate > target then rate = target else rate = math.max(L.floor, rate / 2) end
      tokens = math.min(tokens, 0)
      last_decrease = now
    end
  end
  local pause = math.max(retry_after, W.reset)
  if pause > 0 then
    local till = now + pause
    if till > refilled_at then
      refilled_at = till
      tokens = math.min(tokens, 0)
    end
    if paused_until == nil then paused_until = till else paused_until = math.max(paused_until, till) end
  end
  return {tokens = tokens, refilled_at = refilled_at, rate = rate, ceiling = c.ceiling, paused_until = paused_until,
    last_decrease = last_decrease, last_throttle = now, last_increase = c.last_increase, throttles = c.throttles + 1,
    window_rate = window_rate}
end

-- Leaves.onSuccess: s itself when nothing changes (the refill is credited by the next reservation).
local function leaf_success(s, now, L)
  if s ~= nil and s.rate ~= nil
      and leaf_keeps(s.rate, s.ceiling, L, s.last_throttle, s.last_increase, now, s.window_rate) then
    return s
  end
  local c = leaf_current(s, now, L, 0)
  if not leaf_recovers(L.adaptive, c.rate, c.ceiling, c.last_throttle, c.last_increase, now, c.window_rate) then
    return c
  end
  c.rate = math.min(leaf_recovery_limit(c.ceiling, c.window_rate), c.rate + RECOVERY_STEP * c.ceiling)
  c.last_increase = now
  return c
end

-- Breakers ----------------------------------------------------------------------------------------------
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

-- A closed breaker with no failures, as the common cases find it (only phase and failures are read there).
local CLOSED_CLEAN = {phase = CLOSED, failures = 0}

-- Copies breaker state b into the leaf table t as its b_* fields.
local function put_breaker(t, b)
  t.b_phase, t.b_failures, t.b_opened_at, t.b_cooldown = b.phase, b.failures, b.opened_at, b.cooldown
  t.b_probe_until, t.b_probe_gen, t.b_trips = b.probe_until, b.probe_gen, b.trips
end

-- Bulkhead leases ---------------------------------------------------------------------------------------
-- One hash per provider x account: v, scope, x (see keep_until), c, and one field per lease: its id -> its
-- expiry. c packs two counters into one integer, c = seq * SLOT_N + n: seq, the last lease id handed out,
-- and n, the lease fields as last counted exactly plus the leases added since (a release is one HDEL and
-- leaves it alone), so n >= the lease fields. One HINCRBY of c by SLOT_N + 1 takes the next id and counts
-- the lease at once, and answers both: while n stays within max a slot is certainly free, and the
-- acquisition is that HINCRBY and the HSETNX of the lease, with nothing read. Otherwise (n past max, a new
-- hash, seq at its wrap, an id still held after a wrap) slot_counted counts the lease fields exactly (HLEN)
-- and, still full, sweeps the expired ones, then sets c. So the cap counts the leases neither released nor
-- swept, as the in-memory bulkhead (memory.Bulkhead) does, and a dead worker's leases are swept once they
-- expire and someone needs the slot.
-- The key's TTL must outlast every lease in it (keep: the bulkhead's TTL, longer than a lease). Its x only
-- grows (keep_until extends, never shortens), so the x an admission's leaf recorded (the leaf's bx) when it
-- last saw the bulkhead's is a lower bound of the key's life: the bulkhead's x is read (HGET) only when
-- that copy runs low or is unknown (once per half TTL per leaf).
local SLOT_N = 2097152            -- 2^21: n's part of c (past SLOT_N - 2 leases every acquisition counts)
local SLOT_STEP = '2097153'       -- SLOT_N + 1, as text (redis.call prints a Lua number with %.17g)
local SLOT_SEQ_WRAP = 2147483648  -- 2^31: ids start again at 1, so c stays exact in a Lua number (< 2^53)
local SLOT_META = 4               -- v, scope, x, c

local function lease_field(f)
  return f ~= 'v' and f ~= 'scope' and f ~= 'x' and f ~= 'c'
end

-- c as text for ids up to seq and n counted leases (n clamped: past SLOT_N - 2 the next HINCRBY counts).
local function slot_c(seq, n)
  return string.format('%d', seq * SLOT_N + math.min(n, SLOT_N - 2))
end

-- Removes the expired leases; returns how many.
local function slot_sweep(key, now)
  local all = redis.call('HGETALL', key)
  local dead = {}
  for i = 1, #all, 2 do
    if lease_field(all[i]) and tonumber(all[i + 1]) <= now then dead[#dead + 1] = all[i] end
  end
  if #dead > 0 then redis.call('HDEL', key, unpack(dead)) end
  return #dead
end

-- Keeps the bulkhead's TTL past until_ns (lazily, keep_until) given known, a lower bound of its x (nil:
-- unknown): reads and refreshes x only when known does not vouch for it. Returns the x now known (to
-- record in the leaf), or nil when known sufficed.
local function slot_ttl(key, now, keep, until_ns, known)
  if ttl_lasts(known, now, keep, until_ns) then return nil end
  local x = tonumber(redis.call('HGET', key, 'x'))
  local nx, ttl = keep_until(x, now, keep, until_ns)
  if nx == nil then return x end
  redis.call('HSET', key, 'x', nx)
  redis.call('PEXPIRE', key, ttl)
  return tonumber(nx)
end

-- The acquisition's exact path (see above); c: what the HINCRBY answered. Returns as slot_acquire.
local function slot_counted(key, now, lease, max, keep, scope, known, c)
  local seq = math.floor(c / SLOT_N)
  local v = redis.call('HGET', key, 'v')
  local n, made
  if v == VERSION then
    n = redis.call('HLEN', key) - SLOT_META
    if n >= max then
      n = n - slot_sweep(key, now)
      if n >= max then
        redis.call('HSET', key, 'c', slot_c(seq - 1, n)) -- no id taken
        return -1, nil
      end
    end
  elseif v == false and redis.call('HLEN', key) == 1 then
    -- a new bulkhead (the HINCRBY made it)
    n = 0
    if max < 1 then
      redis.call('DEL', key)
      return -1, nil
    end
    local nx, ttl = keep_until(nil, now, keep, now + lease)
    redis.call('HSET', key, 'v', VERSION, 'scope', scope, 'x', nx)
    redis.call('PEXPIRE', key, ttl)
    made = tonumber(nx)
  else
    -- another format: undo the count and refuse
    if c == SLOT_N + 1 then redis.call('HDEL', key, 'c') else redis.call('HINCRBY', key, 'c', '-' .. SLOT_STEP) end
    if v == false then v = '(none)' end
    format_error(key, v)
  end
  if seq >= SLOT_SEQ_WRAP then seq = 1 end
  local exp_s = string.format('%d', now + lease)
  while redis.call('HSETNX', key, string.format('%d', seq), exp_s) == 0 do seq = seq + 1 end -- held since a wrap
  redis.call('HSET', key, 'c', slot_c(seq, n + 1))
  local x = slot_ttl(key, now, keep, now + lease, made or known)
  return seq, x or made
end

-- A new lease id, or -1 if all `max` slots are held by unexpired leases; and the bulkhead's x now known (to
-- record in the leaf; nil: known, the x the caller knew, still holds). keep: the key's TTL in ms; known: a
-- lower bound of its x, or nil.
local function slot_acquire(key, now, lease, max, keep, scope, known)
  local c = redis.call('HINCRBY', key, 'c', SLOT_STEP)
  local seq = math.floor(c / SLOT_N)
  local n = c - seq * SLOT_N
  if n <= max and n < SLOT_N - 1 and c ~= SLOT_N + 1 and seq < SLOT_SEQ_WRAP then
    -- a slot is certainly free
    if redis.call('HSETNX', key, string.format('%d', seq), string.format('%d', now + lease)) == 1 then
      return seq, slot_ttl(key, now, keep, now + lease, known)
    end
  end
  return slot_counted(key, now, lease, max, keep, scope, known, c)
end

-- Gives a lease back (a no-op for an expired and swept or unknown one).
local function slot_release(key, id)
  redis.call('HDEL', key, id)
end

-- Gives several leases back at once: ids is their ids separated by spaces (the releases a client deferred,
-- see DeferredReleases); returns how many were held.
local function slot_free(key, ids)
  local t, n = {}, 0
  for id in string.gmatch(ids, '%d+') do n = n + 1 t[n] = id end
  if n == 0 then return 0 end
  return redis.call('HDEL', key, unpack(t, 1, n))
end

-- Extends a live lease: 1, or 0 if it had expired (then it is removed).
local function slot_renew(key, now, id, lease, keep)
  local h = redis.call('HMGET', key, 'v', 'x', id)
  local exp = h[3]
  if exp == false or tonumber(exp) <= now then
    if exp ~= false then redis.call('HDEL', key, id) end
    return 0
  end
  local x, ttl = keep_until(tonumber(h[2]), now, keep, now + lease)
  if x ~= nil then
    redis.call('HSET', key, id, string.format('%d', now + lease), 'x', x)
    redis.call('PEXPIRE', key, ttl)
  else
    redis.call('HSET', key, id, string.format('%d', now + lease))
  end
  return 1
end

-- The unexpired leases.
local function slot_count(key, now)
  local all = redis.call('HGETALL', key)
  local n = 0
  for i = 1, #all, 2 do
    if lease_field(all[i]) and tonumber(all[i + 1]) > now then n = n + 1 end
  end
  return n
end

-- The TTL of a bulkhead's key, in ms: the learned TTL, or longer than one lease.
local function slot_keep(ttl, lease)
  return math.max(tonumber(ttl), math.ceil(lease / 1000000) + 1000)
end

-- Entry points ------------------------------------------------------------------------------------------

-- The general case of an admission (a new leaf, a breaker that is not closed, another format): the state
-- tables. Returns the decision (0 permit, 1 probe, 2 reject), the probe generation, retry-in, the wait, and
-- (unless rejected) what admit saves once the bulkhead is done: the leaf as read, as it becomes, the fields.
local function admit_general(leaf_key, now, permits, L, breaker_on, B)
  -- what the bucket and a closed breaker need; a breaker that is not closed reads everything
  local s = load_leaf(leaf_key, NO_FIELDS)
  if s ~= nil and s.b_phase ~= nil and s.b_phase ~= CLOSED then s = load_leaf(leaf_key, ALL_COLD_FIELDS) end
  local kind, gen, b = 0, 0, nil
  if breaker_on == 1 then
    local b0 = breaker_of(s)
    local k, retry
    b, k, gen, retry = breaker_admit(b0, now, B)
    if k == 'REJECT' then return 2, 0, retry, 0 end
    if k == 'PROBE' then kind = 1 end
    if b == b0 then b = nil end -- unchanged: no breaker field to write
  end
  local c, wait = leaf_reserve(s, now, L, permits)
  local fields = LEAF_FIELDS
  if b ~= nil then
    put_breaker(c, b)
    fields = ALL_LEAF_FIELDS
  end
  return kind, gen, 0, wait, s, c, fields
end

-- admit(K, A, now): the gate before an attempt: breaker, leaf bucket, account bucket, bulkhead slot.
-- K: the leaf hash, the account bucket hash, the bulkhead lease hash.
-- A: injected_now ('' = Redis TIME; the caller turned it into now), the limits (17 little-endian doubles,
--    struct '<d': permits; the leaf's ceiling, burst, floor, adaptive 1|0; the breaker on 1|0, its threshold,
--    cooldown, max cooldown, probe lease; the account bucket on 1|0, its rate and burst; the slot on 1|0, max
--    concurrency, lease ns; the refill share), the leaf's and the account's scope texts, the ttl ms (text), the
--    bulkhead key's TTL ms (text). The refill share (Presence.refillShare: 1, or less while other processes
--    are presumed degraded) scales the refill and capacity of the leaf and account buckets and the bulkhead's
--    size for this admission; the stored rate, ceiling and AIMD state are the leaf's as ever. Times 1 is exact,
--    so with no process missing every double is what it was.
-- Returns integers {decision (0 permit, 1 probe, 2 reject), probe generation, retry-in ns, wait ns, lease id or -1,
-- steady 1|0}; the common answer, a permit with no wait, as one integer instead: (lease id + 1) * 2 + steady
-- (a table reply costs Redis and the client several times an integer's). Steady: the straight-line case left
-- the leaf at its configured ceiling with a closed breaker without failures, where a success changes nothing
-- (Leaves.onSuccess keeps the leaf, Breakers.onCallEnd the breaker): the client may then skip the outcome
-- script of a plain success (HotPath.recordAsync). The general case answers 0.
local function admit(K, A, now)
  local leaf_key, account_key, bulkhead_key = K[1], K[2], K[3]
  local injected_now, limits, leaf_scope, account_scope, ttl, bulkhead_ttl = A[1], A[2], A[3], A[4], A[5], A[6]
  local permits, ceiling, burst, floor, adaptive, breaker_on, threshold, cooldown, max_cooldown, probe_lease,
    account_on, account_rate, account_burst, slot_on, max_concurrency, lease_ns, refill_share =
    struct.unpack('<ddddddddddddddddd', limits)
  local kind, gen, wait = 0, 0, 0
  local h = redis.call('HMGET', leaf_key, 'v', 'h')
  local steady = 0
  local tokens, at, rate, stored_ceiling, x, bx, b_phase, b_failures
  if h[1] == VERSION and hot_of(leaf_key, h[2]) then
    tokens, at, rate, stored_ceiling, x, bx, b_phase, b_failures = struct.unpack(HOT_FORMAT, h[2])
  end
  local straight, t, a, new_rate = false, nil, nil, nil
  local old, state, fields -- the general case's save
  if tokens ~= nil and tokens == tokens and (breaker_on == 0 or b_phase == CLOSED) then
    -- the common case, straight-line: an existing leaf whose breaker is closed (or off), which
    -- Breakers.admit permits and leaves as it is; Leaves.reserve on locals, the same functions. Its h is
    -- written once, after the bulkhead (which may refresh bx)
    straight = true
    new_rate = leaf_rate(rate, ceiling, floor, adaptive == 1)
    t, a = leaf_take(tokens, at, rate * refill_share, now, leaf_capacity(burst, ceiling) * refill_share, permits)
    wait = wait_for(t, a, now, new_rate * refill_share)
    -- steady: the leaf now runs at its configured ceiling (no recovery step to take) and its breaker is
    -- closed with no failures, so a success changes nothing here (leaf_keeps, breaker_end)
    if new_rate == ceiling and (breaker_on == 0 or b_failures == 0) then steady = 1 end
  else
    local retry
    kind, gen, retry, wait, old, state, fields = admit_general(leaf_key, now, permits,
      {ceiling = ceiling, burst = burst, floor = floor, adaptive = adaptive == 1, share = refill_share}, breaker_on,
      {threshold = threshold, cooldown = cooldown, max_cooldown = max_cooldown, probe_lease = probe_lease})
    if kind == 2 then return {2, 0, retry, 0, -1, 0} end
    bx = old and old.bx
  end
  if account_on == 1 then
    wait = math.max(wait, fixed_bucket(account_key, now, account_rate * refill_share, account_burst * refill_share,
      permits, account_scope, ttl))
  end
  local lease, nbx = -1, nil
  if slot_on == 1 and wait <= 0 then
    local known = bx
    if known ~= nil and known ~= known then known = nil end
    if refill_share < 1 then max_concurrency = math.max(1, math.floor(max_concurrency * refill_share)) end
    lease, nbx = slot_acquire(bulkhead_key, now, lease_ns, max_concurrency, tonumber(bulkhead_ttl), account_scope, known)
    -- the bulkhead's x as now known, for the next admission of this leaf (once per half TTL of the bulkhead)
    if nbx ~= nil then bx = nbx end
  end
  if not straight then
    save_leaf(leaf_key, old, state, fields, leaf_scope, now, ttl, nbx)
  else
    local nx, keep = keep_until(x, now, tonumber(ttl), now)
    if nx ~= nil then x = tonumber(nx) end
    redis.call('HSET', leaf_key, 'h', struct.pack(HOT_FORMAT, t, a, new_rate, ceiling, x, bx, b_phase, b_failures, now))
    if keep ~= nil then redis.call('PEXPIRE', leaf_key, keep) end
    -- a configured ceiling raised above the leaf's rate leaves it below its ceiling without an outcome: it
    -- becomes troubled here (one comparison; a mark only on that change)
    if new_rate < ceiling and not (rate < stored_ceiling) then mark_troubled(leaf_key, ttl) end
  end
  if kind == 0 and wait <= 0 then return (lease + 1) * 2 + steady end
  return {kind, gen, 0, wait, lease, steady}
end

-- The general case of an outcome (anything that may change the leaf or the breaker): the state tables. B: the
-- breaker's limits, nil when it is off; the rest as record's arguments.
local function record_general(leaf_key, bulkhead_key, now, L, B, outcome, verdict, retry_after, probe_generation,
                              release_lease, leaf_scope, ttl, window)
  local s = load_leaf(leaf_key, ALL_COLD_FIELDS)
  local existed = s ~= nil and s.rate ~= nil
  local after = nil
  if outcome == 'T' then
    after = leaf_throttle(s, now, L, tonumber(retry_after), quota_window(window))
  elseif outcome == 'S' or not existed then
    after = leaf_success(s, now, L)
  end
  local decreased = after ~= nil and after.last_decrease == now and (not existed or s.last_decrease ~= now)
  local rate
  if after ~= nil then rate = after.rate else rate = s.rate end
  local t, fields = after, LEAF_FIELDS
  if after == nil or after == s then
    -- the leaf does not change: copy what was read, so that only breaker fields can differ
    t, fields = {}, {}
  end
  local phase, tripped = CLOSED, 0
  if B ~= nil then
    local c0 = breaker_of(s) or breaker_closed(B)
    local b1 = breaker_end(c0, now, B, verdict, tonumber(probe_generation))
    phase = b1.phase
    if b1 ~= c0 and b1.trips > c0.trips then tripped = 1 end
    if b1 ~= c0 or breaker_of(s) == nil then
      put_breaker(t, b1)
      if #fields == 0 then fields = BREAKER_FIELDS else fields = ALL_LEAF_FIELDS end
    end
  end
  if #fields > 0 then save_leaf(leaf_key, s, t, fields, leaf_scope, now, ttl) end
  if release_lease ~= '' then slot_release(bulkhead_key, release_lease) end
  local d = 0
  if decreased then d = 1 end
  if rate == L.ceiling then return {d, -1, phase, tripped} end
  return {d, num(rate), phase, tripped}
end

-- record(K, A, now): after an attempt: AIMD on the leaf, the call verdict on the breaker, the slot release.
-- K: the leaf hash, the bulkhead lease hash.
-- A: injected_now ('' = Redis TIME; the caller turned it into now), the limits (9 little-endian doubles,
--    struct '<d': the leaf's ceiling, burst, floor, adaptive 1|0; the breaker on 1|0, its threshold, cooldown,
--    max cooldown, probe lease), the outcome (S success, T throttled, O other), the verdict (NONE | SUCCESS |
--    REACHABLE | FAILURE | NEUTRAL), retry-after ns (< 0: none), the probe generation, the lease id to release
--    ('' = none), the leaf's scope text, the ttl ms (text), what a throttle said about a quota window ('' =
--    nothing; else quota_window's 3 doubles).
-- Returns {rate decreased 1|0, rate (text, or -1: the configured ceiling), breaker phase 0|1|2, tripped 1|0}.
local function record(K, A, now)
  local leaf_key, bulkhead_key = K[1], K[2]
  local injected_now, limits, outcome, verdict, retry_after, probe_generation, release_lease, leaf_scope, ttl,
    window = A[1], A[2], A[3], A[4], A[5], A[6], A[7], A[8], A[9], A[10]
  local ceiling, burst, floor, adaptive, breaker_on, threshold, cooldown, max_cooldown, probe_lease =
    struct.unpack('<ddddddddd', limits)
  local L = {ceiling = ceiling, burst = burst, floor = floor, adaptive = adaptive == 1}
  if outcome ~= 'T' and verdict ~= 'FAILURE' then
    -- the common case, straight-line: an outcome that changes nothing (Leaves.onSuccess keeps the leaf, or
    -- the outcome is neither success nor throttle; Breakers.onCallEnd keeps a closed breaker with no
    -- failures): one HMGET, and the release
    local h = redis.call('HMGET', leaf_key, 'v', 'h', 'last_throttle', 'last_increase', 'window_rate')
    local rate, stored_ceiling, b_phase, b_failures
    if h[1] == VERSION and hot_of(leaf_key, h[2]) then
      local _t, _a, r, c, _x, _bx, p, f = struct.unpack(HOT_FORMAT, h[2])
      rate, stored_ceiling, b_phase, b_failures = r, c, p, f
    end
    if rate ~= nil and rate == rate
        and (outcome ~= 'S' or leaf_keeps(rate, stored_ceiling, L, tonumber(h[3]), tonumber(h[4]), now, tonumber(h[5])))
        and (breaker_on == 0 or (b_phase == CLOSED and b_failures == 0
          and breaker_end(CLOSED_CLEAN, now, nil, verdict, tonumber(probe_generation)) == CLOSED_CLEAN)) then
      if release_lease ~= '' then slot_release(bulkhead_key, release_lease) end
      if rate == ceiling then return {0, -1, CLOSED, 0} end
      return {0, num(rate), CLOSED, 0}
    end
  end
  local B = nil
  if breaker_on == 1 then
    B = {threshold = threshold, cooldown = cooldown, max_cooldown = max_cooldown, probe_lease = probe_lease}
  end
  return record_general(leaf_key, bulkhead_key, now, L, B, outcome, verdict, retry_after, probe_generation,
    release_lease, leaf_scope, ttl, window)
end

-- troubled(K, A): the troubled leaves of one account, from its index (troubled_index): each member is checked
-- against its leaf (v, h and b_trips, as StateStore.troubled() decides) and removed when the leaf is gone or
-- no longer troubled, in the same run as the check, so a leaf marked again meanwhile is never lost.
-- K: the account's index. A: the ttl ms (text): the index's TTL is renewed while it lists a leaf.
-- Returns the keys of the troubled leaves.
local function troubled(K, A)
  local index_key = K[1]
  local ttl = A[1]
  local out, gone = {}, {}
  local members = redis.call('SMEMBERS', index_key)
  for i = 1, #members do
    local leaf = members[i]
    local vals = redis.call('HMGET', leaf, 'v', 'h', 'b_trips')
    local keep = false
    if exists(leaf, vals) and hot_of(leaf, vals[2]) then -- gone: not kept; another format: refused
      local _t, _a, rate, ceiling, _x, _bx, phase = struct.unpack(HOT_FORMAT, vals[2])
      keep = is_troubled(unpacked(rate), unpacked(ceiling), unpacked(phase), tonumber(vals[3]))
    end
    if keep then out[#out + 1] = leaf else gone[#gone + 1] = leaf end
  end
  for i = 1, #gone, 1000 do -- unpack's stack is bounded
    redis.call('SREM', index_key, unpack(gone, i, math.min(#gone, i + 999)))
  end
  if #out > 0 then redis.call('PEXPIRE', index_key, string.format('%d', math.floor(tonumber(ttl) * 1.5))) end
  return out
end

-- The registry of the estate's accounts ({prefix:}:accounts, a sorted set in a slot of its own): each account
-- index key a store has used, scored by the server time it last said so. A store says so on its first
-- admission in the account and again every half ttl while it keeps using it, so an account whose leaves
-- still live is never more than 2 ttl old here (a leaf outlives its last write by at most 1.5 ttl).
-- StateStore.troubled() reads the indexes it lists, instead of walking the whole key set.
-- register(K, A): K: the registry. A: injected_now ('' = Redis TIME), the account's index key, the ttl ms (text).
local function register(K, A)
  local registry_key = K[1]
  local injected_now, account_index, ttl = A[1], A[2], A[3]
  local now = clock(injected_now)
  redis.call('ZADD', registry_key, string.format('%d', now), account_index)
  redis.call('PEXPIRE', registry_key, string.format('%d', 2 * tonumber(ttl)))
  return 1
end

-- registered(K, A): the account index keys of the registry, less (and without) those older than 2 ttl.
-- K: the registry. A: injected_now ('' = Redis TIME), the ttl ms (text).
local function registered(K, A)
  local registry_key = K[1]
  local injected_now, ttl = A[1], A[2]
  local now = clock(injected_now)
  redis.call('ZREMRANGEBYSCORE', registry_key, '-inf', '(' .. string.format('%d', now - 2 * tonumber(ttl) * 1000000))
  return redis.call('ZRANGE', registry_key, 0, -1)
end

-- member(K, A): this process in the estate's sorted set of processes (scored by the time it last said so), or
-- out of it when leaving (a process that ends cleanly is never missing). Presence.java holds the rule: a process
-- heard from within the lapse is live; one silent for longer is missing (presumed degraded: it lost Redis and
-- paces locally at its share, so the live ones leave that share unspent) until it has been silent for the
-- forget time, when it is gone and dropped here. One ZCOUNT a heartbeat (every few seconds a process), never
-- on an admission: the live process turns the counts into the share its admissions refill at.
-- K: the set. A: injected_now ('' = Redis TIME), the process id, the lapse ms (text), the forget ms (text),
-- '1' to leave else '0'.
-- Returns integers {live, missing}.
local function member(K, A)
  local processes_key = K[1]
  local injected_now, process_id, lapse, forget, leaving = A[1], A[2], A[3], A[4], A[5]
  local now = clock(injected_now)
  if leaving == '1' then
    redis.call('ZREM', processes_key, process_id)
  else
    redis.call('ZADD', processes_key, string.format('%d', now), process_id)
    redis.call('PEXPIRE', processes_key, string.format('%d', 2 * tonumber(forget)))
  end
  redis.call('ZREMRANGEBYSCORE', processes_key, '-inf', string.format('%d', now - tonumber(forget) * 1000000))
  local all = redis.call('ZCARD', processes_key)
  local live = redis.call('ZCOUNT', processes_key, string.format('%d', now - tonumber(lapse) * 1000000), '+inf')
  return {live, all - live}
end

-- free(K, A): deferred releases of one bulkhead. K: the bulkhead lease hash. A: the lease ids, separated by
-- spaces. Returns how many of them were held (an integer).
local function free(K, A)
  local bulkhead_key = K[1]
  local lease_ids = A[1]
  return slot_free(bulkhead_key, lease_ids)
end

-- batch(K, A, now): several admissions and outcomes in one script run, in the order they were queued
-- (ScriptRunner sends what a lane has queued this way, so that the per-run costs are paid once). Each call
-- is exactly admit's or record's; all calls of a run see the same instant.
-- A: kinds, one letter per call, A (admit), R (record) or F (free: deferred releases); then every call's
--    arguments in order (admit 6, record 10, free 1). K: every call's keys in order (admit 3, record 2, free 1).
--    The calls share one hash slot when the server is a cluster. A run holds at most ScriptRunner's batch size
--    (32), so it stays short. The counts, and admit's and record's injected_now as their first argument, are
--    checked against ScriptArgs by ScriptArgsTest.
-- Returns one entry per call: its reply, or 'CLOUDG_CALL_ERROR <message>' if it raised an error (what it
-- wrote before the error stays, as for a script of its own; the calls after it still run).
-- The calls' keys and arguments are handed over in two tables made once per run and refilled per call (an
-- entry point reads only its own count of entries and keeps no reference to them).
local function batch(K, A)
  local kinds = A[1]
  local out = {}
  local k, a = 0, 1
  local now
  local keys, args = {}, {}
  for i = 1, #kinds do
    local call
    local kind = string.byte(kinds, i)
    if kind == 65 then -- 'A'
      keys[1], keys[2], keys[3] = K[k + 1], K[k + 2], K[k + 3]
      args[1], args[2], args[3], args[4], args[5], args[6] = A[a + 1], A[a + 2], A[a + 3], A[a + 4], A[a + 5], A[a + 6]
      k, a, call = k + 3, a + 6, admit
    elseif kind == 70 then -- 'F': deferred releases, no time needed
      keys[1], args[1] = K[k + 1], A[a + 1]
      k, a, call = k + 1, a + 1, free
    elseif kind == 82 then -- 'R'
      keys[1], keys[2] = K[k + 1], K[k + 2]
      args[1], args[2], args[3], args[4], args[5] = A[a + 1], A[a + 2], A[a + 3], A[a + 4], A[a + 5]
      args[6], args[7], args[8], args[9], args[10] = A[a + 6], A[a + 7], A[a + 8], A[a + 9], A[a + 10]
      k, a, call = k + 2, a + 10, record
    else
      return redis.error_reply('CLOUDG_BAD_KIND ' .. kind)
    end
    local at
    if call == free then
      at = 0
    elseif args[1] ~= '' then
      at = tonumber(args[1])
    else
      if now == nil then now = clock('') end
      at = now
    end
    local ok, r = pcall(call, keys, args, at)
    if ok then
      out[i] = r
    elseif type(r) == 'table' and r.err ~= nil then
      out[i] = 'CLOUDG_CALL_ERROR ' .. r.err
    else
      out[i] = 'CLOUDG_CALL_ERROR ' .. tostring(r)
    end
  end
  return out
end

-- slots(K, A): bulkhead lease operations of one provider x account.
-- K: the bulkhead lease hash.
-- A: the op (acquire | release | renew | count), injected_now ('' = Redis TIME), the lease id (release, renew)
--    or the max concurrency (acquire), the lease ns, the ttl ms, the account's scope text.
-- Returns (integers) a lease id (-1: none free), 1|0 for renew, the count of unexpired leases for count.
local function slots(K, A)
  local bulkhead_key = K[1]
  local op, injected_now, id_or_max, lease_ns, ttl, account_scope = A[1], A[2], A[3], A[4], A[5], A[6]
  if op == 'release' then
    slot_release(bulkhead_key, id_or_max)
    return 1
  end
  local now = clock(injected_now)
  local lease = tonumber(lease_ns)
  if op == 'acquire' then
    return (slot_acquire(bulkhead_key, now, lease, tonumber(id_or_max), slot_keep(ttl, lease), account_scope, nil))
  elseif op == 'renew' then
    return slot_renew(bulkhead_key, now, id_or_max, lease, slot_keep(ttl, lease))
  elseif op == 'count' then
    return slot_count(bulkhead_key, now)
  end
  return redis.error_reply('CLOUDG_BAD_OP ' .. op)
end

-- global(K, A): the provider-wide bucket (global_max_rps), in its own slot; called only when configured.
-- K: the global bucket hash.
-- A: injected_now ('' = Redis TIME), the limits (3 little-endian doubles, struct '<d': rate, burst, permits),
--    the provider's scope text, the ttl ms (text).
-- Returns the wait in ns (integer).
local function global(K, A)
  local global_key = K[1]
  local injected_now, limits, provider_scope, ttl = A[1], A[2], A[3], A[4]
  local rate, burst, permits = struct.unpack('<ddd', limits)
  return fixed_bucket(global_key, clock(injected_now), rate, burst, permits, provider_scope, ttl)
end

-- budget(K, A): the provider's retry budget in thousandths of a token (RetryBudgets), in the provider's slot.
-- K: the budget hash.
-- A: the op (take | peek), the size in tokens, the refunds batched by the caller, the ttl ms, the provider's
--    scope text.
-- Returns integers {1 if a token was taken else 0, balance in thousandths afterwards}.
local function budget(K, A)
  local budget_key = K[1]
  local op, size, refunds, ttl, provider_scope = A[1], A[2], A[3], A[4], A[5]
  local full = tonumber(size) * TOKEN_MILLIS
  refunds = tonumber(refunds)
  local s = load(budget_key, {'millis'})
  local bal = full
  if s ~= nil and s.millis ~= nil then bal = s.millis end
  local before = bal
  if refunds > 0 and bal < full then
    bal = math.min(full, bal + refunds * REFUND_MILLIS)
  end
  local took = 0
  if op == 'take' and bal >= TOKEN_MILLIS then
    bal = bal - TOKEN_MILLIS
    took = 1
  end
  if bal ~= before or s == nil then
    redis.call('HSET', budget_key, 'v', VERSION, 'scope', provider_scope, 'millis', bal)
  end
  redis.call('PEXPIRE', budget_key, ttl)
  return {took, bal}
end
