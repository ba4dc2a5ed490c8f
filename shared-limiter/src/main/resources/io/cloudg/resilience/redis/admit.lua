-- The gate before an attempt: breaker, leaf bucket, account bucket, bulkhead slot (one slot: the account's).
-- KEYS: 1 leaf hash, 2 account bucket hash, 3 bulkhead lease set, 4 bulkhead sequence hash
-- ARGV: 1 now ('' = Redis TIME), 2 ttl ms, 3 permits, 4-7 leaf ceiling/burst/floor/adaptive,
--       8 breaker on, 9-12 threshold/cooldown/max cooldown/probe lease, 13 account on, 14-15 rate/burst,
--       16 slot on, 17 max concurrency, 18 lease ns, 19 leaf scope, 20 account scope
-- Returns {decision, probe generation, retry-in ns, wait ns, lease id or -1}.
local now = clock(ARGV[1])
local ttl = ARGV[2]
local permits = tonumber(ARGV[3])
local L = leaf_limit(ARGV, 4)
local s = load(KEYS[1], ALL_LEAF_FIELDS)
local kind, gen = 'PERMIT', 0
local b = nil
if ARGV[8] == '1' then
  local retry
  b, kind, gen, retry = breaker_admit(breaker_of(s), now, breaker_limit(ARGV, 9))
  if kind == 'REJECT' then
    return {kind, '0', num(retry), '0', '-1'}
  end
end
local c, wait = leaf_reserve(s, now, L, permits)
local fields = leaf_copy(c)
local names = LEAF_FIELDS
if b ~= nil then
  for k, v in pairs(breaker_fields(b)) do fields[k] = v end
  names = ALL_LEAF_FIELDS
end
save(KEYS[1], fields, names, ARGV[19], now, ttl)
if ARGV[13] == '1' then
  local a, account_wait = bucket_reserve(load(KEYS[2], BUCKET_FIELDS), now, tonumber(ARGV[14]), tonumber(ARGV[15]),
    permits)
  save(KEYS[2], a, BUCKET_FIELDS, ARGV[20], now, ttl)
  wait = math.max(wait, account_wait)
end
local lease = -1
if ARGV[16] == '1' and wait <= 0 then
  lease = slot_acquire(KEYS[3], KEYS[4], now, tonumber(ARGV[18]), tonumber(ARGV[17]), ttl, ARGV[20])
end
return {kind, num(gen), '0', num(wait), num(lease)}
