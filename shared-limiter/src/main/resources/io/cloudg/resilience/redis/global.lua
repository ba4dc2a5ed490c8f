-- The provider-wide bucket (global_max_rps), in its own slot; called only when it is configured.
-- KEYS: 1 global bucket hash
-- ARGV: 1 now ('' = Redis TIME), 2 limits, 3 little-endian doubles (struct '<d'): rate, burst, permits;
--       3 provider scope, 4 ttl ms (text)
-- Returns the wait in ns (integer).
--@include state.lua bucket.lua
local now = clock(ARGV[1])
local rate, burst, permits = struct.unpack('<ddd', ARGV[2])
local ttl = ARGV[4]
local g0 = load(KEYS[1], BUCKET_FIELDS)
local g, wait = bucket_reserve(g0, now, rate, burst, permits)
save(KEYS[1], g0, g, BUCKET_FIELDS, ARGV[3], now, ttl)
return wait
