-- Tracing: events are delivered after the operation, one table each; a
-- trace function that raises or changes the idr leaves it sound.
local idr = require "idr"

local t = idr.new()
local events = {}
t:trace(function(ev) events[#events + 1] = ev end)

-- The first allocation: memory for one node, which joins the tree;
-- op and done around it name the operation, its arguments, its result.
assert(t:alloc("a") == 0)
local names = {}
for i, ev in ipairs(events) do names[i] = ev.event end
assert(table.concat(names, " ") == "op malloc node-new slot-set full done",
	table.concat(names, " "))
assert(events[1].op == "alloc" and events[1].start == 0)
assert(events[1]["end"] == 0 and events[1].id == 0)
assert(events[6].op == "alloc" and events[6].result == 0)
assert(events[6].errno == nil)
assert(events[2].nodes == 1 and events[2].level == nil)
local new = events[3]
assert(new.level == 0 and new.first == 0 and new.last == 63)
assert(new.height == 1 and math.type(new.full) == "integer")
-- slot-set shows the bitmap before, full the bit it then set.
assert(events[4].slot == 0 and events[4].full == 0 and events[4].nodes == nil)
assert(events[5].slot == 0 and events[5].full == 1)

-- Every event has a name and a height; node events have a range.
local valid = { visit = 1, ["node-new"] = 1, ["node-free"] = 1, grow = 1,
	shrink = 1, ["slot-set"] = 1, ["slot-clear"] = 1, full = 1, open = 1,
	["cache-take"] = 1, ["preload-take"] = 1, malloc = 1,
	attach = 1, detach = 1, ["cache-put"] = 1, free = 1,
	["subtree-full"] = 1, ["subtree-open"] = 1, ["bitmap-full"] = 1,
	["bitmap-open"] = 1, ["bit-set"] = 1, ["bit-clear"] = 1, pack = 1,
	["no-room"] = 1, op = 1, done = 1 }
local function check_all()
	for _, ev in ipairs(events) do
		assert(valid[ev.event], ev.event)
		assert(math.type(ev.height) == "integer")
		if ev.op then
			assert(ev.event == "op" or ev.event == "done")
		elseif ev.nodes == nil then
			assert(ev.first <= ev.last and ev.slot >= 0 and ev.slot < 64)
		end
	end
end

-- Growing a level, and a lookup's visits.
events = {}
assert(t:alloc("b", 64) == 64)
check_all()
local seen = {}
for _, ev in ipairs(events) do seen[ev.event] = (seen[ev.event] or 0) + 1 end
-- Two nodes made: the new top, the new leaf it holds at slot 1.
assert(seen.grow == 1 and seen["node-new"] == 2 and seen.malloc == 1)
assert(seen.attach == 2)
events = {}
assert(t:find(64) == "b")
assert(#events == 4 and events[2].event == "visit" and events[2].level == 1)
assert(events[3].level == 0 and events[3].slot == 0)
assert(events[1].op == "find" and events[1].id == 64)
assert(events[4].event == "done" and events[4].result == 64)

-- Removal: the leaf goes, the tree shrinks.  A lone ID's nodes are
-- packed, so they go back to malloc, not to the idr's cache.
events = {}
assert(t:remove(64) == "b")
check_all()
seen = {}
for _, ev in ipairs(events) do seen[ev.event] = true end
assert(seen["slot-clear"] and seen["node-free"] and seen.shrink)
assert(seen.visit and seen.detach and seen.free and not seen["cache-put"])

-- A failed operation reports what it did before it failed, no more,
-- and its done says why, at once (not with the next operation).
events = {}
assert(t:alloc("x", 0, 1) == nil)
check_all()
assert(events[#events].event == "done" and events[#events].op == "alloc")
assert(events[#events].result == -28)
assert(events[#events].errno == "ENOSPC")

-- trace(nil) and trace() stop it.
t:trace(nil)
events = {}
t:alloc("c")
t:remove(1)
assert(#events == 0)
t:trace(function(ev) events[#events + 1] = ev end)
t:trace()
t:alloc("c")
assert(#events == 0)

-- A trace function that raises: the error comes out of the method, but
-- the operation stands and the tree is sound.
local r = idr.new()
r:trace(function(ev)
	if ev.event == "slot-set" then error("trace boom") end
end)
local ok, err = pcall(r.alloc, r, "kept")
assert(not ok and err:find("trace boom"))
assert(#r == 1 and r:find(0) == "kept" and r:validate())
ok, err = pcall(r.alloc, r, "kept too", 1000)
assert(not ok and err:find("trace boom"))
assert(#r == 2 and r:find(1000) == "kept too" and r:validate())
ok, err = pcall(r.remove, r, 1000)
assert(ok and err == "kept too", "no slot-set in a removal")
-- Raising from the first event still leaves the rest undelivered, and
-- the next operation starts with a clean slate.
local count = 0
r:trace(function()
	count = count + 1
	error({ "a table error" })
end)
ok, err = pcall(r.alloc, r, "v", 5000)
assert(not ok and type(err) == "table" and err[1] == "a table error")
assert(count == 1 and #r == 2 and r:validate())
count = 0
r:trace(function() count = count + 1 end)
assert(r:find(5000) == "v")
count = 0
r:find(0)
assert(count == r:stats().height + 2, "only this find's events: " .. count)

-- A trace function that changes the same idr.  Its own operations are
-- not traced (as Lua's hooks are off inside a hook), so this does not
-- recurse; every change lands and the tree stays sound.
local m = idr.new()
local calls = 0
m:trace(function(ev)
	calls = calls + 1
	if ev.event == "slot-set" then
		m:alloc("from trace", 2000)    -- grows the tree
		m:remove(0)
	end
end)
m:alloc("first")
assert(calls > 0 and m:validate())
assert(m:find(2000) == "from trace" and m:find(0) == nil and #m == 1)
for _ = 1, 50 do m:alloc("more") end
assert(m:validate() and #m == 1 + 50 - 0)

-- One that destroys its idr: delivery stops, the result stands.
local d = idr.new()
local n = 0
d:trace(function()
	n = n + 1
	d:destroy()
end)
assert(d:alloc("x") == 0)
assert(n == 1 and tostring(d) == "idr (destroyed)")

-- One that replaces itself, or turns tracing off, mid-delivery.
local s = idr.new()
local first, second = 0, 0
s:trace(function()
	first = first + 1
	s:trace(function() second = second + 1 end)
end)
s:alloc("x")
assert(first == 1 and second == 5, first .. " " .. second)
s:trace(function() first = first + 1; s:trace(nil) end)
first = 0
s:alloc("y", 500)
assert(first == 1)

-- Tracing other idrs from inside a trace function works as usual.
local outer, inner = idr.new(), idr.new()
local inner_events = 0
inner:trace(function() inner_events = inner_events + 1 end)
outer:trace(function() inner:alloc("i") end)
outer:alloc("o")
assert(inner_events > 0 and #inner == 6 and inner:validate())

-- The 2004 API: cache-take events.
local l = idr.new()
events = {}
l:trace(function(ev) events[#events + 1] = ev.event end)
assert(l:pre_get())
assert(l:get_new("x") == 0)
assert(table.concat(events, " "):find("cache%-take"))

-- Tags and lookups through them are traced too.
local g = idr.new { tagged = { id_bits = 8 } }
count = 0
g:trace(function() count = count + 1 end)
local tid = g:alloc_tagged("t")
assert(count > 0)
count = 0
assert(g:check(tid) and count > 0)
count = 0
assert(g:find_tagged(tid) == "t" and count > 0)
count = 0
assert(g:remove_tagged(tid) == "t" and count > 0)

-- A traced idr with values referring to it is still collected.
collectgarbage("collect")
local bytes = idr.mem().bytes
do
	local c = idr.new()
	c:trace(function() return c end)
	c:alloc(c, 100000)
end
collectgarbage("collect")
collectgarbage("collect")
assert(idr.mem().bytes == bytes)

-- An IDA traces as an idr does: its tree's events, delivered after each
-- call (a failed one too), op first and done last.
local a = idr.ida()
local evs = a:events(function()
	assert(a:alloc() == 0)
	assert(a:free(9) == nil)
end)
assert(evs[1].event == "op" and evs[1].op == "ida_alloc_range")
local bitset = false
for _, ev in ipairs(evs) do bitset = bitset or ev.event == "bit-set" end
assert(bitset)
assert(evs[#evs].event == "done" and evs[#evs].op == "ida_free")
assert(evs[#evs].errno == "ENOENT")
count = 0
assert(a:trace(function() count = count + 1 end) == nil)
assert(a:exists(0) and count > 0)
a:destroy()
assert(not pcall(a.trace, a, nil))
collectgarbage("collect")
