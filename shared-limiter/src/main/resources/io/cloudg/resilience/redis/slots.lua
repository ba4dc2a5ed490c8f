-- Bulkhead leases of one provider x account.
-- KEYS: 1 lease set (id -> expiry), 2 sequence hash
-- ARGV: 1 op (acquire | release | renew | count), 2 now ('' = Redis TIME), 3 lease id or max concurrency,
--       4 lease ns, 5 ttl ms, 6 account scope
-- Returns (integers) a lease id (-1: none free), 1|0 for renew, the count of unexpired leases for count.
--@include state.lua slot.lua
local op = ARGV[1]
if op == 'release' then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return 1
end
local now = clock(ARGV[2])
if op == 'acquire' then
  local lease = tonumber(ARGV[4])
  return slot_acquire(KEYS[1], KEYS[2], now, lease, tonumber(ARGV[3]), slot_keep(ARGV[5], lease), ARGV[6])
elseif op == 'renew' then
  local exp = redis.call('ZSCORE', KEYS[1], ARGV[3])
  if exp == false or tonumber(exp) <= now then
    redis.call('ZREM', KEYS[1], ARGV[3])
    return 0
  end
  local lease = tonumber(ARGV[4])
  redis.call('ZADD', KEYS[1], 'XX', string.format('%d', now + lease), ARGV[3])
  local keep = slot_keep(ARGV[5], lease)
  redis.call('PEXPIRE', KEYS[1], keep)
  redis.call('PEXPIRE', KEYS[2], keep)
  return 1
elseif op == 'count' then
  return redis.call('ZCOUNT', KEYS[1], '(' .. num(now), '+inf')
end
return redis.error_reply('CLOUDG_BAD_OP ' .. op)
