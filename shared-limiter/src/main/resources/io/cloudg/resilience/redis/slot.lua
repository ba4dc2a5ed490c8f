-- Bulkhead leases: a sorted set of lease id -> expiry, plus a hash whose counter numbers the leases. The
-- hash gets the format version and scope when the first lease creates it; after that only its counter is
-- incremented (the leaf hash each admission reads carries the version check). Times go in as integers
-- printed with %d (exact for integral doubles below 2^63, and far cheaper than Redis's %.17g); keep is the
-- keys' TTL in ms as text.
local function slot_acquire(zkey, mkey, now, lease, max, keep, scope)
  local now_s = string.format('%d', now)
  if redis.call('ZCARD', zkey) >= max then
    redis.call('ZREMRANGEBYSCORE', zkey, '-inf', now_s)
    if redis.call('ZCARD', zkey) >= max then return -1 end
  end
  local id = redis.call('HINCRBY', mkey, 'seq', '1')
  if id == 1 then
    redis.call('HSET', mkey, 'v', VERSION, 'scope', scope, 'updated_at', now_s)
  end
  redis.call('ZADD', zkey, string.format('%d', now + lease), string.format('%d', id))
  redis.call('PEXPIRE', zkey, keep)
  redis.call('PEXPIRE', mkey, keep)
  return id
end

-- The TTL of a bulkhead's keys, in ms as text: the learned TTL, or longer than one lease.
local function slot_keep(ttl, lease)
  return string.format('%d', math.max(tonumber(ttl), math.ceil(lease / 1000000) + 1000))
end
