-- The gate before an attempt (admit_call.lua), as a script of its own.
--@include slot.lua admit_call.lua
return admit(KEYS, ARGV)
