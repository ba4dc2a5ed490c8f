-- The provider's retry budget in thousandths of a token (RetryBudgets), in the provider's slot.
-- KEYS: 1 budget hash
-- ARGV: 1 op (take | peek), 2 size in tokens, 3 refunds batched by the caller, 4 ttl ms, 5 provider scope
-- Returns integers {1 if a token was taken else 0, balance in thousandths afterwards}.
--@include state.lua
local TOKEN_MILLIS = 1000                -- RetryBudgets.TOKEN_MILLIS
local REFUND_MILLIS = 100                -- RetryBudgets.REFUND_MILLIS
local full = tonumber(ARGV[2]) * TOKEN_MILLIS
local refunds = tonumber(ARGV[3])
local s = load(KEYS[1], {'millis'})
local bal = full
if s ~= nil and s.millis ~= nil then bal = s.millis end
local before = bal
if refunds > 0 and bal < full then
  bal = math.min(full, bal + refunds * REFUND_MILLIS)
end
local took = 0
if ARGV[1] == 'take' and bal >= TOKEN_MILLIS then
  bal = bal - TOKEN_MILLIS
  took = 1
end
if bal ~= before or s == nil then
  redis.call('HSET', KEYS[1], 'v', VERSION, 'scope', ARGV[5], 'millis', bal)
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {took, bal}
