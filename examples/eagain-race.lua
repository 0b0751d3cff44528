-- eagain-race.lua - the 2004 -EAGAIN story, replayed step by step.
--
-- In the 2.6.9 kernel, idr_pre_get() filled the idr's own cache of free
-- nodes outside the caller's lock, and idr_get_new() took nodes only from
-- that cache, under the lock, so it never had to allocate memory there.
-- The cache is shared: between one CPU's pre_get and its get_new, another
-- CPU may use the nodes up.  Then get_new fails with -EAGAIN, and the
-- caller goes round again.  Here two coroutines play the two CPUs, and the
-- schedule at the bottom decides who runs when, so the race is the same
-- every time.
--
-- Run: LUA_CPATH_5_4='build/?.so;;' lua5.4 examples/eagain-race.lua
--  or: ./build/idrsh examples/eagain-race.lua

local idr = require "idr"

local t = idr.new()

local function cached()
	return t:stats().cached
end

local function say(cpu, fmt, ...)
	print(string.format("CPU %s: " .. fmt, cpu, ...))
end

-- CPU A: the retry loop of the 2004 API, preempted after each step.
local cpu_a = coroutine.wrap(function()
	local tries = 0
	while true do
		tries = tries + 1
		t:pre_get()
		say("A", "pre_get: the cache holds %d nodes", cached())
		coroutine.yield()
		local id, msg, err = t:get_new("timer A")
		if id then
			say("A", "get_new -> %d, on try %d; the cache holds %d",
				id, tries, cached())
			return
		end
		say("A", "get_new -> nil, %q, %s", msg, err)
		coroutine.yield()
	end
end)

-- CPU B: fills a leaf, then takes IDs far apart, each needing new nodes.
local cpu_b = coroutine.wrap(function()
	t:pre_get()
	say("B", "pre_get: the cache holds %d nodes", cached())
	coroutine.yield()
	for i = 0, 63 do
		assert(t:get_new("B" .. i) == i)
	end
	say("B", "get_new x64 -> 0..63 (one leaf, full); the cache holds %d",
		cached())
	for _, start in ipairs { 4096, 262144, 16777216 } do
		local id = assert(t:get_new_above("far", start))
		say("B", "get_new_above(%d) -> %d; the cache holds %d", start,
			id, cached())
	end
	coroutine.yield()
end)

-- Who runs, in order.
local schedule = { "A", "B", "B", "A", "A", "A" }
local cpus = { A = cpu_a, B = cpu_b }
for step, who in ipairs(schedule) do
	print(string.format("-- step %d: CPU %s runs", step, who))
	cpus[who]()
end

print(string.format("%d IDs in the tree; A got 64, the lowest free ID", #t))
assert(t:validate())
