-- Several admissions and outcomes in one script run, in the order they were queued: ScriptRunner sends what
-- a lane has queued this way (under load) so that the per-run costs (the command, the script call, TIME)
-- are paid once. Each call is exactly admit.lua's or record.lua's; all calls of a run see the same instant.
-- ARGV: 1 one letter per call, A (admit) or R (record); then every call's arguments in order (admit 6,
--       record 9). KEYS: every call's keys in order (admit 4, record 2). The calls share one hash slot when
--       the server is a cluster. A run holds at most ScriptRunner's batch size (32), so it stays short.
-- Returns one entry per call: its reply, or 'CLOUDG_CALL_ERROR <message>' if it raised an error (what it
-- wrote before the error stays, as for a script of its own; the calls after it still run).
--@include slot.lua admit_call.lua record_call.lua
local kinds = ARGV[1]
local out = {}
local k, a = 0, 1
for i = 1, #kinds do
  local K, A, call
  if string.byte(kinds, i) == 65 then -- 'A'
    K = {KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4]}
    A = {ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], ARGV[a + 6]}
    k, a, call = k + 4, a + 6, admit
  else
    K = {KEYS[k + 1], KEYS[k + 2]}
    A = {ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], ARGV[a + 6], ARGV[a + 7], ARGV[a + 8],
      ARGV[a + 9]}
    k, a, call = k + 2, a + 9, record
  end
  local ok, r = pcall(call, K, A)
  if ok then
    out[i] = r
  elseif type(r) == 'table' and r.err ~= nil then
    out[i] = 'CLOUDG_CALL_ERROR ' .. r.err
  else
    out[i] = 'CLOUDG_CALL_ERROR ' .. tostring(r)
  end
end
return out
