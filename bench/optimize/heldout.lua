-- heldout.lua — the input the link orders are measured on, not trained on.
--
--   lua heldout.lua [N]   N rounds (default 40); prints a checksum.
--
-- Different work from bench/progs/work.lua (the training input): objects
-- with metatables and method calls, closures, coroutines, string building
-- with gsub and byte/char, a small expression parser, and integer maths.
-- It shares the interpreter's core with the training input (the VM loop,
-- calls, tables, strings) but leans on other library functions, as a
-- program's real inputs do.  Deterministic.

local N = tonumber(arg and arg[1]) or 40

-- Objects: a class with methods and __index/__add/__eq/__tostring.
local Vec = {}
Vec.__index = Vec
function Vec.new(x, y) return setmetatable({ x = x, y = y }, Vec) end
function Vec.__add(a, b) return Vec.new(a.x + b.x, a.y + b.y) end
function Vec.__eq(a, b) return a.x == b.x and a.y == b.y end
function Vec.__tostring(v) return "(" .. v.x .. "," .. v.y .. ")" end
function Vec:dot(o) return self.x * o.x + self.y * o.y end
function Vec:scale(k) return Vec.new(self.x * k, self.y * k) end

local function objects(round)
  local acc, s = Vec.new(0, 0), 0
  for i = 1, 1500 do
    local v = Vec.new(i % 13, (i * round) % 17)
    acc = acc + v:scale(2)
    s = s + v:dot(acc) % 1000
    if v == Vec.new(1, 1) then s = s + 1 end
  end
  return s + #tostring(acc)
end

-- Closures and coroutines: a generator pipeline.
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i) end
  end)
end

local function map(f, g)
  return coroutine.wrap(function()
    for v in g do coroutine.yield(f(v)) end
  end)
end

local function pipeline(round)
  local s = 0
  for v in map(function(x) return x * x + round end, gen(1200)) do
    s = (s + v) % 1000003
  end
  return s
end

-- Strings: gsub with a function, byte/char, rep, find.
local function strings(round)
  local text = string.rep("the quick brown fox jumps over the lazy dog ", 40)
  local caesar = text:gsub("%a", function(c)
    local b = c:byte()
    return string.char((b - 97 + round) % 26 + 97)
  end)
  local words = 0
  for _ in caesar:gmatch("%a+") do words = words + 1 end
  local pos, hits = 1, 0
  while true do
    local a = caesar:find("x", pos, true)
    if not a then break end
    hits, pos = hits + 1, a + 1
  end
  return words + hits + #caesar
end

-- A recursive-descent parser and evaluator for integer expressions.
local function parse(src)
  local pos = 1
  local function peek() return src:sub(pos, pos) end
  local function skip() while peek() == " " do pos = pos + 1 end end
  local expr
  local function atom()
    skip()
    if peek() == "(" then
      pos = pos + 1
      local v = expr()
      skip()
      pos = pos + 1
      return v
    end
    local s, e = src:find("^%d+", pos)
    pos = e + 1
    return tonumber(src:sub(s, e))
  end
  local function term()
    local v = atom()
    while true do
      skip()
      local op = peek()
      if op == "*" then pos = pos + 1; v = v * atom() % 1000003
      elseif op == "%" then pos = pos + 1; v = v % (atom() + 1)
      else return v end
    end
  end
  function expr()
    local v = term()
    while true do
      skip()
      local op = peek()
      if op == "+" then pos = pos + 1; v = v + term()
      elseif op == "-" then pos = pos + 1; v = v - term()
      else return v end
    end
  end
  return expr()
end

local function expressions(round)
  local s = 0
  for i = 1, 150 do
    local e = string.format("(%d + %d) * (%d - %d %% 7) + %d * (%d + 3)",
      i, round, i * 3, round, i % 11, round)
    s = (s + parse(e)) % 1000003
  end
  return s
end

local check = 0
for round = 1, N do
  check = (check + objects(round) + pipeline(round) + strings(round)
           + expressions(round)) % 1000000007
end
print(string.format("heldout.lua rounds(%d) checksum %d", N, check))
