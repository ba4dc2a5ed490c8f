-- cloudg governor, Redis backend: what every script starts with (state format version 1). A script is
-- common.lua + its own file, in which `--@include` lines pull in helper files (state.lua, bucket.lua,
-- leaf.lua, breaker.lua, slot.lua) where they are needed (see Script.java). The helpers mirror io.cloudg.resilience.core
-- line for line: same constants, same order of floating-point operations, so Lua and Java compute the same
-- doubles. Times are nanoseconds; a timestamp that "never happened" (Java's Time.NEVER) is an absent field
-- or 'n', read back as nil.
--
-- Cost rules (a script blocks the server, and its cost is the fleet's throughput): read only the fields the
-- computation uses, write only the fields that changed, pass numbers straight to redis.call (Redis prints
-- them with 17 significant digits, which read back to the same double; tostring() would print 14), take
-- limits as one struct-packed argument, and define only what runs: every function definition and table
-- constructor executes on every call, so admit.lua and record.lua serve the common case with straight-line
-- code first and include the general helpers only after it, where the general path starts.
if redis.replicate_commands then redis.replicate_commands() end

local VERSION = '1'
local SECOND = 1000000000
local CLOSED, OPEN, HALF_OPEN = 0, 1, 2
local HEADROOM_SECONDS = 0.25  -- Leaves.HEADROOM_SECONDS

-- Leaves.capacity: the most a leaf holds, and what a new one starts with: the burst less HEADROOM_SECONDS
-- of refill at its ceiling, at least min(1, burst). Shared by both straight-line paths and leaf.lua.
local function leaf_capacity(burst, ceiling)
  return math.max(math.min(1.0, burst), burst - HEADROOM_SECONDS * ceiling)
end

-- Server time (Redis TIME, read once per script run, however many calls the run serves) unless the caller
-- injected one (test mode only).
local server_now
local function clock(arg)
  if arg ~= nil and arg ~= '' then return tonumber(arg) end
  if server_now == nil then
    local t = redis.call('TIME')
    server_now = tonumber(t[1]) * SECOND + tonumber(t[2]) * 1000
  end
  return server_now
end
