-- bench/lua.lua - the Lua binding against what a Lua user writes instead.
--
--   LUA_CPATH_5_4='build/?.so;;' lua5.4 bench/lua.lua [N [RUNS [TSV]]]
--
-- t:alloc(v), t:find(id), t:remove(id) and a full iteration, each against
-- the idiom: a table of values plus a stack of freed IDs.  The idiom's
-- alloc pops the most recently freed ID, else takes the one after the
-- highest so far: IDs are reused, but not lowest-first as idr's are.
-- Both are objects with methods, so both pay the same method lookup.
-- Times are os.clock() (CPU time), medians of RUNS; every result is
-- checked as it is timed, and a wrong one stops the run with an error.

local idr = require "idr"

local N = math.tointeger(tonumber(arg[1] or "1000000"))
local RUNS = math.tointeger(tonumber(arg[2] or "5"))
local TSV = arg[3]
assert(N and N >= 2 and RUNS and RUNS >= 1,
       "usage: lua.lua [N [RUNS [TSV]]]")

-- {==================== The idiom ====================

local Pool = {}
Pool.__index = Pool

local function pool_new()
  return setmetatable({ items = {}, free = {}, nfree = 0, top = 0 }, Pool)
end

function Pool:alloc(v)
  local id, nf = nil, self.nfree
  if nf > 0 then
    id = self.free[nf]
    self.free[nf] = nil
    self.nfree = nf - 1
  else
    id = self.top + 1
    self.top = id
  end
  self.items[id] = v
  return id
end

function Pool:find(id)
  return self.items[id]
end

function Pool:remove(id)
  local v = self.items[id]
  if v == nil then return nil end
  self.items[id] = nil
  local nf = self.nfree + 1
  self.free[nf] = id
  self.nfree = nf
  return v
end

function Pool:pairs()
  return pairs(self.items)
end

-- }==================== The idiom ====================

-- The value stored at the k-th allocation (k from 0), and its ID: idr
-- counts from 0, the idiom's table from 1.
local impls = {
  { name = "idr", new = idr.new, first = 0 },
  { name = "idiom", new = pool_new, first = 1 },
}

local function shuffled(n)
  local a = {}
  for i = 1, n do a[i] = i - 1 end
  math.randomseed(1)
  for i = n, 2, -1 do
    local j = math.random(i)
    a[i], a[j] = a[j], a[i]
  end
  return a
end

local order = shuffled(N)

local function timed(fn, ...)
  collectgarbage()
  local t0 = os.clock()
  fn(...)
  return (os.clock() - t0) * 1e9 / N
end

local function fail(impl, what, k)
  error(string.format("lua.lua: %s: %s: wrong result at %d", impl.name,
                      what, k), 0)
end

-- {==================== Scenarios ====================

local function alloc_all(impl, t)
  for k = 0, N - 1 do
    if t:alloc(k) ~= k + impl.first then fail(impl, "alloc", k) end
  end
end

local function find_all(impl, t)
  local first = impl.first
  for i = 1, N do
    local k = order[i]
    if t:find(k + first) ~= k then fail(impl, "find", k) end
  end
end

local function iterate(impl, t)
  local n, first = 0, impl.first
  for id, v in t:pairs() do
    if v ~= id - first then fail(impl, "iterate", id) end
    n = n + 1
  end
  if n ~= N then fail(impl, "iterate", n) end
end

local function remove_all(impl, t)
  local first = impl.first
  for i = 1, N do
    local k = order[i]
    if t:remove(k + first) ~= k then fail(impl, "remove", k) end
  end
end

local scenarios = {
  { "alloc", alloc_all }, { "find", find_all }, { "iterate", iterate },
  { "remove", remove_all },
}

-- }==================== Scenarios ====================

local function median(v)
  table.sort(v)
  local m = #v // 2
  return #v % 2 == 1 and v[m + 1] or (v[m] + v[m + 1]) / 2
end

-- ns[impl name][scenario name] = { one figure per run }
local function run_all()
  local ns = {}
  for _, impl in ipairs(impls) do ns[impl.name] = {} end
  for _ = 1, RUNS do
    for _, impl in ipairs(impls) do
      local t = impl.new()
      for _, s in ipairs(scenarios) do
        local per = ns[impl.name]
        per[s[1]] = per[s[1]] or {}
        table.insert(per[s[1]], timed(s[2], impl, t))
      end
    end
  end
  return ns
end

local function report(ns)
  local out = TSV and assert(io.open(TSV, "w"))
  print(string.format("\nlua: N = %d, medians of %d runs (ns per " ..
                      "operation, CPU time)", N, RUNS))
  print("idiom: a table plus a stack of freed IDs (reuses the last " ..
        "freed ID, not the lowest)")
  print(string.format("%-12s %10s %10s %10s", "lua", "idr", "idiom",
                      "idr/idiom"))
  if out then out:write("scenario\timpl\tn\truns\tns_per_op\tratio_idiom\n") end
  for _, s in ipairs(scenarios) do
    local a, b = median(ns.idr[s[1]]), median(ns.idiom[s[1]])
    print(string.format("%-12s %10.2f %10.2f %9.2fx", s[1], a, b, a / b))
    if out then
      out:write(string.format("%s\tidr\t%d\t%d\t%.3f\t%.4f\n", s[1], N,
                              RUNS, a, a / b))
      out:write(string.format("%s\tidiom\t%d\t%d\t%.3f\t1.0000\n", s[1], N,
                              RUNS, b))
    end
  end
  if out then assert(out:close()) end
end

report(run_all())
