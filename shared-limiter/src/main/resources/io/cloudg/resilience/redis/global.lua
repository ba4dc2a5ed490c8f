-- The provider-wide bucket (global_max_rps), in its own slot; called only when it is configured.
-- KEYS: 1 global bucket hash
-- ARGV: 1 now ('' = Redis TIME), 2 ttl ms, 3 rate, 4 burst, 5 permits, 6 provider scope
-- Returns the wait in ns.
local now = clock(ARGV[1])
local g, wait = bucket_reserve(load(KEYS[1], BUCKET_FIELDS), now, tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]))
save(KEYS[1], g, BUCKET_FIELDS, ARGV[6], now, ARGV[2])
return num(wait)
