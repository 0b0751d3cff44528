-- Finalizers that run inside a method, from a Lua allocation the method
-- makes after its C work (building trace events, a path table), and
-- destroy or change the idr under it.  Reads of freed memory show in
-- valgrind (tests/lua.bats runs it).
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local inside = dofile(here .. "/landing.lua")

local function traced()
	local t = idr.new()
	t:trace(function() end)
	return t
end

-- Trace delivery: the finalizer destroys the idr while the event tables
-- are built (a use after free of the event buffer before).
assert(inside(traced, function(t) t:destroy() end, function(t, st)
	st.phase = "inside"
	local ok, err = pcall(t.alloc, t, "v", 1 << 30)
	st.phase = "after"
	assert(ok or tostring(err):find("destroyed idr"), err)
end), "no finalizer ran inside a traced alloc")

-- The finalizer runs traced operations of its own on the idr, which grow
-- the event buffer: the outer call's events still all reach the trace
-- function, each once, in order.
local function events_of(f)
	local t, got = idr.new(), {}
	t:trace(function(ev) got[#got + 1] = ev.event end)
	f(t)
	return got
end
local want = table.concat(events_of(function(t) t:alloc("v", 1 << 30) end), " ")
assert(inside(idr.new, function(t)
	for i = 1, 8 do t:alloc(i, (i + 1) << 24) end
end, function(t, st)
	local got = {}
	t:trace(function(ev)
		if st.phase == "inside" then got[#got + 1] = ev.event end
	end)
	st.phase = "inside"
	t:alloc("v", 1 << 30)
	st.phase = "after"
	-- The finalizer's own events were delivered inside too: drop
	-- them by keeping the first run of the outer call's kind.
	local s = table.concat(got, " ")
	assert(s:find(want, 1, true), "outer events lost: " .. s)
	assert(#t == 1 or #t == 9)
	assert(t:validate())
end), "no finalizer ran inside a traced alloc that grows the events")

-- t:path(id) builds its table, then read the values: the finalizer that
-- destroys t in between left push_value a nil values table.
assert(inside(function()
	local t = idr.new()
	for j = 0, 2 do t:alloc("v" .. j) end
	return t
end, function(t) t:destroy() end, function(t, st)
	st.phase = "inside"
	local p = t:path(0)
	st.phase = "after"
	assert(p["end"] == "found" and p.value == "v0", p.value)
end), "no finalizer ran inside path")

-- Options read by dump may run Lua that destroys the idr: it then raises
-- as any method on a destroyed idr does.
local d = idr.new()
d:alloc("x")
local opts = setmetatable({}, { __index = function() d:destroy() end })
local ok, err = pcall(d.dump, d, opts)
assert(not ok and err:find("destroyed idr"), err)


-- t:stats() walks the tree for level_used after idr_stats(): a walk
-- after its first table could see another tree than the counts did (an
-- IDA of 300 IDs destroyed meanwhile said ids 300, level_used { 0 }).
assert(inside(function()
	local a = idr.ida()
	for _ = 1, 300 do a:alloc() end
	return a
end, function(a) a:destroy() end, function(a, st)
	st.phase = "inside"
	local s = a:stats()
	st.phase = "after"
	assert(s.ids == 300 and s.height == 1 and s.level_used[1] == 1,
		s.level_used[1])
end, true), "no finalizer ran inside stats")
