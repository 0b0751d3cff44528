-- t:mark() and t:diff() with a finalizer that runs inside them, from an
-- allocation they make (the array of values, the mark, the change
-- tables), and changes or destroys the idr: the mark is of one tree as
-- it was at one moment, and nothing reads freed memory (tests/lua.bats
-- runs this under valgrind).  The landing is landing.lua's.
local idr = require "idr"

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local inside = dofile(here .. "/landing.lua")

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
