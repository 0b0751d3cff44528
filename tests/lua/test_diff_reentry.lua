-- t:mark() and t:diff() with a finalizer that runs inside them, from an
-- allocation they make (the array of values, the mark, the change
-- tables), and changes or destroys the idr: the mark is of one tree as
-- it was at one moment, and nothing reads freed memory (tests/lua.bats
-- runs this under valgrind).  The landing is test_reentry.lua's.
local idr = require "idr"

-- One try: garbage with a __gc, @pad allocations, then @body(t, st),
-- which sets st.phase to "inside" just before the method and "after"
-- just after; the finalizer runs @gc(t) if it runs inside.
local function try(pad, make, gc, body)
	collectgarbage("collect")
	collectgarbage("collect")
	local t, st = make(), { phase = "before" }
	local ran = "after"
	setmetatable({}, { __gc = function()
		ran = st.phase
		if ran == "inside" then gc(t) end
	end })
	for _ = 1, pad do local _ = {} end
	body(t, st)
	return ran
end

-- Bisects for the least padding at which the finalizer stops landing
-- after the method, then tries the paddings from a few below it on
-- (the debt earlier tries left the collector moves the landing by an
-- allocation or two) until one lands inside, or (@sweep) until the
-- landings inside are over, each one allocation earlier in the method.
local function inside(make, gc, body, sweep)
	local mode = collectgarbage("incremental", 1, 100, 1)
	local lo, hi = -1, 0
	while try(hi, make, gc, body) == "after" do
		lo, hi = hi, 2 * hi + 1
	end
	while hi - lo > 1 do
		local mid = (lo + hi) // 2
		if try(mid, make, gc, body) == "after" then lo = mid else hi = mid end
	end
	local landed = false
	for pad = math.max(0, hi - 4), hi + 64 do
		local ran = try(pad, make, gc, body)
		if ran == "inside" then
			landed = true
			if not sweep then break end
		elseif landed then
			break
		end
	end
	collectgarbage("incremental", 200, 100, 13)
	collectgarbage(mode)
	collectgarbage("collect")
	return landed
end

local function tree()
	local t = idr.new()
	for i = 0, 99 do t:alloc("v" .. i) end
	return t
end

-- The finalizer empties half the tree and adds a far ID: the mark is of
-- the tree before or after, never of a mix.
local function change(t)
	for i = 0, 99, 2 do t:remove(i) end
	t:alloc("far", 1 << 20)
end
assert(inside(tree, change, function(t, st)
	st.phase = "inside"
	local m = t:mark()
	st.phase = "after"
	local list = t:diff(m)
	-- Unchanged (no finalizer yet), or marked before or after it.
	if t:count() == 100 or m.count == 51 then
		assert(#list == 0, #list)
	else
		assert(m.count == 100 and #list > 50 and
			list[1].change == "height", #list)
	end
end, true), "no finalizer ran inside mark")

-- The finalizer destroys the tree: mark raises, or was done before.
assert(inside(tree, function(t) t:destroy() end, function(t, st)
	st.phase = "inside"
	local ok, m = pcall(t.mark, t)
	st.phase = "after"
	assert(ok or tostring(m):find("destroyed idr"), m)
end, true), "no finalizer ran inside a mark of a tree destroyed")

-- Inside diff, once the walk is over: the values shown are still read
-- from the tables the diff holds.
local marks = setmetatable({}, { __mode = "k" })
assert(inside(function()
	local t = tree()
	marks[t] = t:mark()
	for i = 0, 99 do t:replace(i, "w" .. i) end
	return t
end, function(t) t:destroy() end, function(t, st)
	st.phase = "inside"
	local ok, list = pcall(t.diff, t, marks[t])
	st.phase = "after"
	if ok then
		assert(#list == 100 and list[100].from == "v99" and
			list[100].to == "w99")
	else
		assert(tostring(list):find("destroyed idr"), list)
	end
end, true), "no finalizer ran inside diff")
