-- t:events() and rec:watch() set something for the length of a call: a
-- trace function on the tree, wrappers around every tree's methods.
-- Whatever way the call ends (a return, an error, its coroutine closed
-- or collected), they go; while it waits in a yield, the operations of
-- other coroutines are not its own.
local idr = require "idr"

-- Each event list's results, from its "done" events.
local function results(list)
	local r = {}
	for _, ev in ipairs(list) do
		if ev.event == "done" then r[#r + 1] = ev.result end
	end
	return table.concat(r, ",")
end

local function traced(t)
	local f = t:trace(nil)
	t:trace(f)
	return f ~= nil
end

-- events: a return, an error, a coroutine closed, one collected.
local t = idr.new()
local list = t:events(function() t:alloc("a") end)
assert(results(list) == "0" and not traced(t))
assert(not pcall(t.events, t, function() t:alloc("b") error("boom") end))
assert(not traced(t))
local co = coroutine.create(function()
	return t:events(function() t:alloc("c") coroutine.yield() end)
end)
assert(coroutine.resume(co))
assert(traced(t))
assert(coroutine.close(co))
assert(not traced(t), "a closed coroutine's trace function stays")
do
	local c = coroutine.create(function()
		return t:events(function() coroutine.yield() end)
	end)
	assert(coroutine.resume(c))
end
collectgarbage()
collectgarbage()
assert(not traced(t), "a collected coroutine's trace function stays")

-- events: two coroutines interleaved, each listing its own operations
-- only, ended in the order they began; then nothing is left set.
local t2 = idr.new()
local function taker(v1, v2)
	return coroutine.create(function()
		return t2:events(function()
			t2:alloc(v1)
			coroutine.yield()
			t2:alloc(v2)
		end)
	end)
end
local c1, c2 = taker(1, 2), taker(3, 4)
assert(coroutine.resume(c1))
assert(coroutine.resume(c2))
t2:alloc(5)	-- ID 2: neither's
local _, l1 = coroutine.resume(c1)
local _, l2 = coroutine.resume(c2)
assert(results(l1) == "0,3" and results(l2) == "1,4",
	results(l1) .. " " .. results(l2))
assert(not traced(t2), "an interleaved events() left its trace function")
-- A trace function set before events() is called with every event still,
-- and is set again after.
local seen = 0
local function mine() seen = seen + 1 end
t2:trace(mine)
t2:events(function() t2:alloc(6) end)
assert(seen > 0 and t2:trace(nil) == mine)

-- watch: the methods are the library's again, however it ends.
local o = idr.new()
local alloc = o.alloc
local rec = idr.recorder()
assert(not pcall(rec.watch, rec, function() o:alloc(1) error("x") end))
assert(o.alloc == alloc and rec:count() == 1)
local w = coroutine.create(function()
	rec:watch(function() o:alloc(1) coroutine.yield() end)
end)
assert(coroutine.resume(w))
assert(o.alloc ~= alloc)
-- While it waits, another coroutine's calls are not its frames.
for i = 1, 100 do o:alloc(i) end
assert(rec:count() == 2)
assert(coroutine.close(w))
assert(o.alloc == alloc, "a closed watch's wrappers stay")
do
	local a = coroutine.create(function()
		rec:watch(function() coroutine.yield() end)
	end)
	assert(coroutine.resume(a))
end
collectgarbage()
collectgarbage()
assert(o.alloc == alloc, "a collected watch's wrappers stay")

-- watch in a watch: one frame a call for a recorder, one for each of two.
local r1 = idr.recorder()
r1:watch(function() r1:watch(function() o:alloc(1) end) end)
assert(r1:count() == 1)
local ra, rb = idr.recorder(), idr.recorder()
ra:watch(function() rb:watch(function() o:alloc(1) end) end)
assert(ra:count() == 1 and rb:count() == 1)
assert(o.alloc == alloc)

-- A coroutine fn resumes works for fn: its operations are fn's.
local t3 = idr.new()
local inner = t3:events(function()
	local g = coroutine.wrap(function()
		t3:alloc(1)
		coroutine.yield()
		t3:alloc(2)
	end)
	g()
	g()
end)
assert(results(inner) == "0,1", results(inner))
local r3 = idr.recorder()
r3:watch(function()
	coroutine.wrap(function() o:alloc(1) end)()
	o:alloc(2)
end)
assert(r3:count() == 2, r3:count())

-- What fn sets as the trace goes when the call ends: the one set before
-- is set again.
t3:trace(mine)
t3:events(function() t3:trace(nil) end)
assert(t3:trace(nil) == mine)

-- Past 1000 calls the rest share one frame, written however fn ends.
local r4 = idr.recorder()
assert(not pcall(r4.watch, r4, function()
	for i = 1, 1005 do o:alloc(i) end
	error("x")
end))
assert(r4:count() == 1001, r4:count())
