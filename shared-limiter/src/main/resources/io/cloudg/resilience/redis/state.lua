-- Reading and writing state hashes (the general paths and the other scripts).
-- A number as text that reads back to the same double (for replies; never tostring()).
local function num(x)
  if x == nil then return 'n' end
  return string.format('%.17g', x)
end

local function since(now, t)
  if t == nil then return math.huge end
  return now - t
end

-- Reads fields of a hash written by this format; nil if the key is absent. Refuses other formats.
local function load(key, fields)
  local vals = redis.call('HMGET', key, 'v', unpack(fields))
  local v = vals[1]
  if v ~= VERSION then
    if v == false then
      local any = false
      for i = 2, #vals do if vals[i] ~= false then any = true end end
      if not any then return nil end
      v = '(none)'
    end
    error('CLOUDG_STATE_FORMAT key ' .. key .. ' holds governor state format version ' .. v
      .. ', but this cloudg reads only version ' .. VERSION .. ' (end)', 0)
  end
  local t = {}
  for i = 1, #fields do t[fields[i]] = tonumber(vals[i + 1]) end
  return t
end

-- Writes state t of a hash read as old (nil: a new hash, which gets v and scope): of the listed fields only
-- those that differ from old (nil becomes 'n'), plus updated_at; refreshes the TTL. A field the caller did
-- not read must be one the computation copied unchanged (then it is nil on both sides and is not written).
local function save(key, old, t, fields, scope, now, ttl)
  local args, n
  if old == nil then
    args, n = {'v', VERSION, 'scope', scope, 'updated_at', now}, 6
    for i = 1, #fields do
      local f = fields[i]
      local v = t[f]
      if v ~= nil then
        args[n + 1], args[n + 2], n = f, v, n + 2
      end
    end
  else
    args, n = {'updated_at', now}, 2
    for i = 1, #fields do
      local f = fields[i]
      local v = t[f]
      if v ~= old[f] then
        if v == nil then v = 'n' end
        args[n + 1], args[n + 2], n = f, v, n + 2
      end
    end
  end
  redis.call('HSET', key, unpack(args, 1, n))
  redis.call('PEXPIRE', key, ttl)
end
