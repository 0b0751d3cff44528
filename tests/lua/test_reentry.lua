-- Finalizers that run inside a method, from a Lua allocation the method
-- makes after its C work (building trace events, a path table), and
-- destroy or change the idr under it.  Each round leaves garbage with a
-- __gc behind, then calls the method; under a generational collector
-- with small steps, some round's finalizer runs mid-method (the "hits").
-- Reads of freed memory show in valgrind (tests/lua.bats runs it).
local idr = require "idr"

-- Run @n rounds of @body(t, st); @gc(t, st) is the finalizer's work.
-- st.busy is true while the method runs, so a finalizer knows it hit.
local function rounds(mode, n, make, gc, body)
	local hits = 0
	collectgarbage(mode, 1)
	for i = 1, n do
		local t, st = make(i), { busy = false }
		setmetatable({}, { __gc = function()
			if st.busy then
				hits = hits + 1
				gc(t, st)
			end
		end })
		for _ = 1, i % 11 do local _ = { {}, {} } end
		body(t, st)
		collectgarbage(mode, 1)
	end
	collectgarbage("generational", 20)	-- Lua's default again
	collectgarbage("incremental")
	collectgarbage("collect")
	return hits
end

local function traced()
	local t = idr.new()
	t:trace(function() end)
	return t
end

-- Trace delivery: the finalizer destroys the idr while the event tables
-- are built (a use after free of the event buffer before).
local hits = rounds("generational", 400, traced, function(t) t:destroy() end,
	function(t, st)
		st.busy = true
		local ok, err = pcall(t.alloc, t, "v", 1 << 30)
		st.busy = false
		assert(ok or tostring(err):find("destroyed idr"), err)
	end)
assert(hits > 0, "no finalizer ran inside a traced alloc")

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
hits = rounds("generational", 400, function()
	local t = idr.new()
	return t
end, function(t)
	for i = 1, 8 do t:alloc(i, (i + 1) << 24) end
end, function(t, st)
	local got = {}
	t:trace(function(ev)
		if st.busy then got[#got + 1] = ev.event end
	end)
	st.busy = true
	t:alloc("v", 1 << 30)
	st.busy = false
	-- The finalizer's own events were delivered while busy too: drop
	-- them by keeping the first run of the outer call's kind.
	local s = table.concat(got, " ")
	assert(s:find(want, 1, true), "outer events lost: " .. s)
	assert(#t == 1 or #t == 9)
	assert(t:validate())
end)
assert(hits > 0, "no finalizer ran inside a traced alloc")

-- t:path(id) builds its table, then read the values: the finalizer that
-- destroys t in between left push_value a nil values table.
hits = rounds("generational", 400, function(i)
	local t = idr.new()
	for j = 0, i % 5 do t:alloc("v" .. j) end
	return t
end, function(t) t:destroy() end, function(t, st)
	st.busy = true
	local p = t:path(0)
	st.busy = false
	assert(p["end"] == "found" and p.value == "v0", p.value)
end)
assert(hits > 0, "no finalizer ran inside path")

-- Options read by dump may run Lua that destroys the idr: it then raises
-- as any method on a destroyed idr does.
local d = idr.new()
d:alloc("x")
local opts = setmetatable({}, { __index = function() d:destroy() end })
local ok, err = pcall(d.dump, d, opts)
assert(not ok and err:find("destroyed idr"), err)

