-- work.lua — a call-heavy Lua workload for bench/run.sh.
--
--   lua work.lua [N [K]]   fib(N) (default 27), then K rounds (default 20)
--                          of string and table work; prints a checksum.
--
-- What is measured is the interpreter's C functions, not the Lua ones: each
-- Lua call, table access, string concatenation and garbage collection step
-- runs several C functions of the interpreter (luaV_execute, luaD_precall,
-- luaH_get*, luaS_new*, luaC_step ...), so a profiler hooked into those sees
-- tens of millions of short C calls.  Deterministic: no time, no randomness.

local N = tonumber(arg and arg[1]) or 27
local K = tonumber(arg and arg[2]) or 20

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

-- Strings: formatting, concatenation, interning, pattern matching.
local function strings(round)
  local parts = {}
  for i = 1, 2000 do
    parts[#parts + 1] = string.format("%d:%s", i * round, tostring(i % 7))
  end
  local s = table.concat(parts, ",")
  local n = 0
  for a, b in s:gmatch("(%d+):(%d)") do
    n = n + #a + tonumber(b)
  end
  return n + #s:upper()
end

-- Tables: inserts, hash and array lookups, sort with a Lua comparator
-- (a call back into Lua per comparison).
local function tables(round)
  local t, h = {}, {}
  for i = 1, 3000 do
    t[i] = (i * 7919 + round) % 10007
    h["k" .. (i % 500)] = (h["k" .. (i % 500)] or 0) + t[i]
  end
  table.sort(t, function(x, y) return x > y end)
  local sum = 0
  for k, v in pairs(h) do sum = sum + v + #k end
  return sum + t[1] + t[#t]
end

local check = fib(N)
for round = 1, K do
  check = (check + strings(round) + tables(round)) % 1000000007
end
print(string.format("work.lua fib(%d) rounds(%d) checksum %d", N, K, check))
