-- Iteration: pairs, __pairs and for_each, also while the body changes
-- the idr.
local idr = require "idr"

local function collect(t)
	local ids, vals = {}, {}
	for id, v in t:pairs() do
		ids[#ids + 1], vals[#vals + 1] = id, v
	end
	return table.concat(ids, ","), vals
end

local t = idr.new()
for i = 0, 9 do t:alloc("v" .. i) end
t:remove(3)
t:replace(5, nil)               -- reserved: skipped
t:alloc("far", 5000)
local ids, vals = collect(t)
assert(ids == "0,1,2,4,6,7,8,9,5000", ids)
assert(vals[1] == "v0" and vals[#vals] == "far")

-- pairs(t) is the same as t:pairs().
local seen = {}
for id, v in pairs(t) do seen[#seen + 1] = id .. "=" .. v end
assert(table.concat(seen, " ") ==
	"0=v0 1=v1 2=v2 4=v4 6=v6 7=v7 8=v8 9=v9 5000=far")

-- An empty idr, and one holding only reservations.
for _ in pairs(idr.new()) do error("empty") end
local r = idr.new()
r:alloc()
r:alloc(nil, 100)
for _ in pairs(r) do error("only reserved") end
assert(#r == 2)

-- Removing the current entry and later ones inside the loop.
local m = idr.new()
for i = 0, 199 do m:alloc(i) end
local visited = {}
for id, v in pairs(m) do
	assert(v == id)
	visited[#visited + 1] = id
	m:remove(id)
	m:remove(id + 1)         -- never visited
end
assert(#visited == 100 and visited[2] == 2 and visited[100] == 198)
assert(m:is_empty() and m:validate())

-- Adding inside the loop: IDs above the current one are visited.
local a = idr.new()
a:alloc("x", 10)
local order = {}
for id in pairs(a) do
	order[#order + 1] = id
	if id < 40 then a:alloc("y", id + 10) end
	a:alloc("below", 0)       -- below the current ID: not visited
end
assert(table.concat(order, ",") == "10,20,30,40", table.concat(order, ","))
assert(a:validate())

-- Replacing the current value is seen by nobody else; reserving it too.
local p = idr.new()
for i = 1, 5 do p:alloc(i) end
for id in pairs(p) do p:replace(id, id * 10) end
assert(select(2, collect(p))[5] == 40)
for id in pairs(p) do if id % 2 == 0 then p:replace(id, nil) end end
assert(collect(p) == "1,3" and #p == 5, collect(p))

-- Destroying the idr inside the loop: the next step raises.
local d = idr.new()
d:alloc(1)
d:alloc(2)
local ok, err = pcall(function()
	for _ in pairs(d) do d:destroy() end
end)
assert(not ok and err:find("attempt to use a destroyed idr"))

-- The step function can be driven by hand, as a generic for does.
local step, state, ctl = pairs(t)
assert(state == t and ctl == nil)
local id1, v1 = step(state, ctl)
assert(id1 == 0 and v1 == "v0")
assert(step(state, 4999) == 5000)
assert(step(state, 5000) == nil)
assert(step(state, 4294967295) == nil)
assert(step(state, -7) == nil)

-- IDs near 2^32 - 1 end the loop.
local hi = idr.new()
hi:alloc_u32("top", 4294967295)
hi:alloc_u32("next", 4294967294)
assert(collect(hi) == "4294967294,4294967295")

-- for_each: in ID order, stops at and returns the first true result.
local f = idr.new()
for i = 0, 9 do f:alloc("v" .. i) end
f:replace(4, nil)
local got = {}
assert(f:for_each(function(id, v) got[#got + 1] = id .. v end) == nil)
assert(#got == 9 and got[1] == "0v0" and got[5] == "5v5")
local r1 = f:for_each(function(id, v) if id == 6 then return v end end)
assert(r1 == "v6")
assert(f:for_each(function(id) return id >= 2 and { id } end)[1] == 2)
assert(f:for_each(function() return false end) == nil)

-- for_each while changing: remove the current and the next entry.
local calls = 0
f:for_each(function(id)
	calls = calls + 1
	f:remove(id)
	f:remove(id + 1)
end)
assert(calls == 5 and #f == 1 and f:find(4) == nil, calls)
assert(f:validate())

-- for_each: an error in fn propagates, and the idr is unharmed.
local e = idr.new()
e:alloc("a")
e:alloc("b")
ok, err = pcall(e.for_each, e, function(id)
	if id == 1 then error("boom") end
end)
assert(not ok and err:find("boom"))
assert(#e == 2 and e:validate())

-- Destroying inside for_each: the next step raises.
ok, err = pcall(e.for_each, e, function() e:destroy() end)
assert(not ok and err:find("destroyed idr"))
