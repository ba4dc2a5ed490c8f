-- TokenBuckets ---------------------------------------------------------------------------------
local BUCKET_FIELDS = {'tokens', 'refilled_at'}

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

local function bucket_reserve(s, now, rate, burst, permits)
  local cur = s
  if cur == nil then cur = {tokens = burst, refilled_at = now} end
  local tokens = refilled(cur.tokens, cur.refilled_at, now, rate, burst)
  local at = math.max(now, cur.refilled_at)
  tokens = tokens - permits
  return {tokens = tokens, refilled_at = at}, wait_for(tokens, at, now, rate)
end
