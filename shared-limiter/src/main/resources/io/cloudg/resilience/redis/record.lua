-- After an attempt (record_call.lua), as a script of its own.
--@include record_call.lua
return record(KEYS, ARGV)
